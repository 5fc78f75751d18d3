#include "cli.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <utility>

#include "fano/notation.hpp"
#include "fano/render.hpp"
#include "fano/rules_options.hpp"
#include "fano/table_files.hpp"
#include "fano/tablebase.hpp"

namespace fano::cli {

std::string output_path_from(const po::variables_map& vm, const std::string& option,
                             bool stdout_ok) {
  const std::string path = vm[option].as<std::string>();
  if (path.empty())
    throw UsageError("--" + option + " needs a file name" +
                     (stdout_ok ? " (or - for standard output)" : "") + ", got ''");
  return path;
}

void add_variant_options(po::options_description& desc) {
  desc.add_options()(
      "rules", po::value<std::string>(),
      "the rules by name: standard, projective, cap3, cap3-projective (or the slugs "
      "cap2-projective, cap3-board), with optional suffixes -colour (colour-only lines) and "
      "-<c>c<t>t (circles and triangles per player), e.g. cap3-projective-colour, standard-3c3t; "
      "the flags below override its parts");
  // One flag per rules option, from their description (fano/rules_options.hpp).
  for (const RulesOption& option : rules_options()) {
    std::string help(option.help);
    help += ": " + option.values_text(true) + "; default ";
    help.append(option.text_of(option.default_code));
    desc.add_options()(std::string(option.flag).c_str(), po::value<std::string>(), help.c_str());
  }
}

bool variant_given(const po::variables_map& vm) {
  if (vm.count("rules")) return true;
  for (const RulesOption& option : rules_options())
    if (vm.count(std::string(option.flag))) return true;
  return false;
}

Variant variant_from(const po::variables_map& vm) {
  Variant v;
  if (vm.count("rules")) {
    const std::string name = vm["rules"].as<std::string>();
    const auto named = variant_from_name(name);
    if (!named) throw UsageError("--rules: " + variant_name_error(name));
    v = *named;
  }
  for (const RulesOption& option : rules_options()) {
    const std::string flag(option.flag);
    if (!vm.count(flag)) continue;
    const std::string text = vm[flag].as<std::string>();
    const std::optional<int> code = option.parse(text);
    if (!code) throw UsageError("--" + flag + " " + option.values_error(text));
    option.set(v, *code);
  }
  return v;
}

void add_threads_option(po::options_description& desc, const ThreadsOption& option) {
  const std::string help = std::string(option.help) + ": " + std::to_string(option.minimum) +
                           "..1024" + (option.minimum == 0 ? " (0: all cores)" : "");
  desc.add_options()("threads,j", po::value<int>()->default_value(option.default_value),
                     help.c_str());
}

int threads_from(const po::variables_map& vm, const ThreadsOption& option) {
  const int threads = vm["threads"].as<int>();
  if (threads < option.minimum || threads > 1024)
    throw UsageError("--threads must be " + std::to_string(option.minimum) + "..1024, got " +
                     std::to_string(threads));
  return threads;
}

void add_json_option(po::options_description& desc, const char* help) {
  desc.add_options()("json", help);
}

void add_table_options(po::options_description& desc) {
  desc.add_options()("tb", po::value<std::string>(),
                     "tablebase file (default: DIR/<variant>.fanotb, see --tables)")(
      "tables", po::value<std::string>(),
      "folder of the default tables (default: $FANO_TABLES, else tables/ of the source tree when "
      "run from a build tree, else the installed share/fano/tables; 'fano info' prints it)");
}

// The --tb file or the --tables folder's default file (choose_table).
static TableChoice table_choice(const po::variables_map& vm, const Variant& variant) {
  return choose_table(vm.count("tb") ? std::optional(vm["tb"].as<std::string>()) : std::nullopt,
                      variant_given(vm) || !vm.count("tb") ? std::optional(variant) : std::nullopt,
                      vm.count("tables") ? vm["tables"].as<std::string>() : "");
}

std::string table_path_from(const po::variables_map& vm, const Variant& variant) {
  return table_choice(vm, variant).path;
}

Tablebase open_table(const po::variables_map& vm, Variant& variant) {
  const TableChoice choice = table_choice(vm, variant);
  Tablebase tb = open_tablebase(choice.path, choice.expected);
  variant = tb.variant();
  return tb;
}

void add_position_options(po::options_description& desc, po::positional_options_description& pos) {
  desc.add_options()("position,p", po::value<std::string>(),
                     "position in notation, e.g. \"-/-/-/CT/tT/Cc/tc w\"")(
      "moves,m", po::value<std::string>(),
      "a game from the empty board, e.g. \"C4,t3,T7\" (from POSITION when both are given, as the "
      "API's moves= and position=)");
  pos.add("position", 1);
}

void require_one_position(const po::variables_map& vm, const std::string& command) {
  if (!vm.count("position") && !vm.count("moves"))
    throw UsageError("give a POSITION or --moves, or both (see 'fano " + command + " --help')");
}

// The game: a bare POSITION (no history), --moves from the empty board, or
// both: the moves played from the position, with its history for rule 3.
GameRecord game_from(const po::variables_map& vm, const Rules& rules, const std::string& command) {
  require_one_position(vm, command);
  const State start = vm.count("position")
                          ? parse_position(vm["position"].as<std::string>(), rules.variant)
                          : kEmptyBoard;
  if (!vm.count("moves")) return GameRecord(rules, start);
  return GameRecord::from_moves(rules, start, vm["moves"].as<std::string>());
}

namespace {

// Whether `arg` names an option of desc that takes a value in the next word.
bool takes_next_value(const po::options_description& desc, const std::string& arg) {
  if (arg.size() < 2 || arg[0] != '-' || arg.find('=') != std::string::npos) return false;
  const bool is_long = arg[1] == '-';
  if (is_long && arg.size() == 2) return false;
  const auto* opt = is_long           ? desc.find_nothrow(arg.substr(2), false)
                    : arg.size() == 2 ? desc.find_nothrow(arg, false)
                                      : nullptr;  // "-p5": the value is attached
  return opt && opt->semantic()->max_tokens() > 0;
}

// A position's stacks without the side to move ("-/-/-/C/-/-/-"): six slashes, no space.
bool looks_like_board(const std::string& a) {
  return std::count(a.begin(), a.end(), '/') == 6 && a.find_first_of(" \t_") == std::string::npos;
}

bool is_side(const std::string& a) { return a == "w" || a == "b"; }

[[noreturn]] void split_position(const std::string& command, const std::string& board,
                                 const std::string& side) {
  throw UsageError("the position '" + board + " " + side +
                   "' is split into two words: quote it (fano " + command + " '" + board + " " +
                   side + "') or write '_' for the space (" + board + "_" + side + ")");
}

}  // namespace

unsigned help_width() {
  if (const char* c = std::getenv("COLUMNS")) {
    char* end = nullptr;
    const long n = std::strtol(c, &end, 10);
    if (end != c && *end == '\0' && n >= 40 && n <= 1000) return unsigned(n);
  }
  winsize ws{};
  if (::isatty(STDOUT_FILENO) && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
    return std::min<unsigned>(ws.ws_col, 1000);
  return 80;
}

std::string wrap_paragraphs(const std::string& text, unsigned width) {
  std::string out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    const std::size_t indent = std::min(line.find_first_not_of(' '), line.size());
    // Indented lines (examples, lists) keep their indent on continuation lines.
    const std::string pad(indent + (indent ? 4 : 0), ' ');
    bool first = true;
    for (const std::string& l :
         wrap_words(line.substr(indent), width > pad.size() + 20 ? width - pad.size() : 20)) {
      out += (first ? std::string(indent, ' ') : pad) + l + "\n";
      first = false;
    }
    start = end + 1;
  }
  if (!out.empty()) out.pop_back();
  return out;
}

namespace {

// Every command's examples, printed after its about text: one table, so
// that each command's help ends the same way (docs/cli-help.md shows them).
std::string examples_for(const std::string& command) {
  static const std::pair<const char*, const char*> kExamples[] = {
      {"rules", "  fano rules\n  fano rules --json"},
      {"query",
       "  fano query \"-/-/-/-/-/-/- w\"\n  fano query --moves C4,t3 --json\n"
       "  fano solve --stack-cap 3 && fano query --stack-cap 3 \"C/-/-/-/-/-/- b\""},
      {"export",
       "  fano export --out standard.csv\n"
       "  fano export --classes --format jsonl --zstd --out classes.jsonl.zst"},
      {"info", "  fano info\n  fano info --stack-cap 3 --adjacency projective --json"},
      {"perft", "  fano perft --depth 9\n  fano perft --depth 12 --expand-ended --json"},
      {"solve", "  fano solve\n  fano solve --stack-cap 3 --out cap3.fanotb --threads 2"},
      {"play",
       "  fano play\n  fano play --as black --moves C4\n"
       "  fano play --engine-vs-engine --max-plies 20\n  echo C7 | fano play"},
      {"show", "  fano show \"-/-/-/C/-/-/- b\"\n  fano show --moves C4,t3 --svg board.svg --best"},
      {"serve",
       "  fano serve  (then open http://127.0.0.1:8330/)\n"
       "  fano serve --port 0 --tables DIR  (any free port, printed)\n"
       "  curl 'http://127.0.0.1:8330/api/v2/standard?moves=C4,t3'"},
      {"verify",
       "  fano verify\n  fano verify --lines games.txt --json\n"
       "  fano verify --perft published.txt"},
      {"bench", "  fano bench\n  fano bench --history --games 1000 --json"},
      {"facts", "  fano facts\n  fano facts --no-table --json"},
      {"selfplay",
       "  fano selfplay --white engine --black greedy --games 2000 --seed 1\n"
       "  fano selfplay --white random --black cover --json\n"
       "  fano selfplay --white horizon:3 --black greedy --games 200\n"
       "  fano selfplay --list-players"},
      {"strategy",
       "  fano strategy --player greedy\n  fano strategy --player search:2 --side black --json\n"
       "  fano strategy --lookahead 4 --rules standard-2c1t\n"
       "  fano strategy --allowed rule.jsonl --side white\n"
       "  fano strategy --size --restarts 20 --rule-list search:4,quiet\n"
       "  fano strategy --single-draw 8 --limit 5\n"
       "  fano strategy --player nonlosing \"-/-/-/C/-/-/- b\""},
  };
  for (const auto& [name, text] : kExamples)
    if (command == name) return text;
  return "";
}

}  // namespace

void print_help(std::ostream& out, const std::string& command, const std::string& synopsis,
                const std::string& about, const po::options_description& desc) {
  const unsigned width = help_width();
  std::string text = about;
  if (const std::string examples = examples_for(command); !examples.empty())
    text += "\n\nexamples:\n" + examples;
  po::options_description wrapped("options", width, width / 2);
  for (const auto& opt : desc.options()) wrapped.add(opt);
  // The usage lines, continued under their first word after "usage: ".
  const std::string usage = "usage: fano " + command + " " + synopsis;
  std::size_t start = 0;
  while (start < usage.size()) {
    std::size_t end = usage.find('\n', start);
    if (end == std::string::npos) end = usage.size();
    const std::string line = usage.substr(start, end - start);
    const std::size_t indent = std::min(line.find_first_not_of(' '), line.size());
    const std::string body = indent ? line.substr(indent) : line.substr(7);
    bool first = true;
    for (const std::string& l : wrap_words(body, width > 31 ? width - 11 : 20)) {
      out << (first ? (indent ? std::string(indent, ' ') : "usage: ") : std::string(11, ' ')) << l
          << "\n";
      first = false;
    }
    start = end + 1;
  }
  out << "\n" << wrap_paragraphs(text, width) << "\n\n" << wrapped;
}

namespace {
// The word of argv that is neither an option nor an option's value, after
// `skip` such words (nullptr if there is none).
const std::string* bare_word(const std::vector<std::string>& argv,
                             const po::options_description& desc, unsigned skip) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a.size() > 1 && a[0] == '-') {
      if (takes_next_value(desc, a)) ++i;  // skip its value
    } else if (skip-- == 0) {
      return &a;
    }
  }
  return nullptr;
}
}  // namespace

std::optional<po::variables_map> parse(const std::string& command, const std::string& synopsis,
                                       const std::string& about, po::options_description& desc,
                                       const po::positional_options_description* positional,
                                       const std::vector<std::string>& args) {
  desc.add_options()("help,h", "show this help");
  const std::string see = " (see 'fano " + command + " --help')";
  // A position may start with '-' ("-/-/-/-/-/-/- w"), which the option parser
  // would take for an option: pass such an argument as --position=... instead.
  // After "--" every word is an operand: here only the position.
  std::vector<std::string> argv;
  const bool has_position = desc.find_nothrow("position", false) != nullptr;
  bool operands = false;
  unsigned operand_count = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool after_value = i > 0 && takes_next_value(desc, args[i - 1]);
    if (!operands && a == "--" && !after_value) {
      operands = true;
      continue;
    }
    if (has_position && looks_like_board(a) && i + 1 < args.size() && is_side(args[i + 1]) &&
        (!after_value || args[i - 1] == "--position" || args[i - 1] == "-p"))
      split_position(command, a, args[i + 1]);
    if (operands) {
      if (!has_position || ++operand_count > 1)
        throw UsageError("unexpected argument '" + a + "'" + see);
      argv.push_back("--position=" + a);
      continue;
    }
    const bool looks_like_position =
        a.size() > 1 && a[0] == '-' && a[1] != '-' && a.find('/') != std::string::npos;
    if (has_position && looks_like_position) {
      if (!argv.empty() && (argv.back() == "--position" || argv.back() == "-p")) argv.pop_back();
      argv.push_back("--position=" + a);
    } else {
      argv.push_back(a);
    }
  }
  po::variables_map vm;
  try {
    po::command_line_parser parser(argv);
    parser.options(desc);
    // Without a positional description boost would silently drop stray words.
    static const po::positional_options_description kNone;
    parser.positional(positional ? *positional : kNone);
    po::store(parser.run(), vm);
    if (vm.count("help")) {
      print_help(std::cout, command, synopsis, about, desc);
      return std::nullopt;
    }
    po::notify(vm);
  } catch (const po::too_many_positional_options_error&) {
    // Name the first word past those the positional options take.
    if (const std::string* w =
            bare_word(argv, desc, positional ? positional->max_total_count() : 0))
      throw UsageError("unexpected argument '" + *w + "'" + see);
    throw UsageError("too many arguments" + see);
  } catch (const po::multiple_occurrences& e) {
    // A position that starts with '-' is passed as --position=... (above),
    // so a stray word after it reads as a second position: name the word,
    // not an option the user never typed.
    if (e.get_option_name() == "--position")
      if (const std::string* w = bare_word(argv, desc, 0))
        throw UsageError("unexpected argument '" + *w + "'" + see);
    throw UsageError(std::string(e.what()) + see);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + see);
  }
  return vm;
}

std::string moves_text(const std::vector<Move>& moves) {
  std::string out;
  for (const Move& m : moves) {
    if (!out.empty()) out += ',';
    out += format_move(m);
  }
  return out;
}

void print_json(const Json& j) { std::cout << json_text(j) << "\n"; }

std::string seconds_text(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s", seconds);
  return buf;
}

std::string printable(std::string_view text) { return escape_text(text); }

void print_error(const std::string& command, const std::string& message) {
  std::cerr << "fano " << command << ": " << printable(message) << "\n";
}

void progress(const std::string& line) {
  static const bool quiet = [] {
    const char* q = std::getenv("FANO_QUIET");
    return q && *q && std::string(q) != "0";
  }();
  // One write per line (std::cerr is unbuffered: `<< line << std::endl`
  // was two system calls, a solve's progress to a terminal 30 of them).
  if (!quiet) std::cerr << printable(line) + '\n' << std::flush;
}

}  // namespace fano::cli
