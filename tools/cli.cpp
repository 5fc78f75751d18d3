#include "cli.hpp"

#include <cstdlib>
#include <iostream>

#include "fano/notation.hpp"
#include "fano/tablebase.hpp"

namespace fano::cli {

std::string output_path_from(const po::variables_map& vm, const std::string& option) {
  const std::string path = vm[option].as<std::string>();
  if (path.empty())
    throw UsageError("--" + option + " needs a file name (or - for standard output), got ''");
  return path;
}

void add_variant_options(po::options_description& desc) {
  desc.add_options()("stack-cap", po::value<int>()->default_value(2),
                     "most pieces a stack may hold: 2 (standard) or 3 (variant)")(
      "adjacency", po::value<std::string>()->default_value("board"),
      "where pieces move: 'board' (the printed board's 15 edges) or 'projective' "
      "(any two spaces on a common line)");
}

Variant variant_from(const po::variables_map& vm) {
  Variant v;
  v.stack_cap = vm["stack-cap"].as<int>();
  if (v.stack_cap != 2 && v.stack_cap != 3)
    throw UsageError("--stack-cap must be 2 or 3, got " + std::to_string(v.stack_cap));
  const std::string adj = vm["adjacency"].as<std::string>();
  if (!parse_adjacency(adj, v.adjacency))
    throw UsageError("--adjacency must be 'board' or 'projective', got '" + adj + "'");
  return v;
}

void add_table_options(po::options_description& desc) {
  desc.add_options()("tb", po::value<std::string>(),
                     "tablebase file (default: DIR/<variant>.fanotb, see --tables)")(
      "tables", po::value<std::string>(),
      "folder of the default tables (default: $FANO_TABLES, else tables/ of the source tree when "
      "run from a build tree, else the installed share/fano/tables; 'fano info' prints it)");
}

std::string table_path_from(const po::variables_map& vm, const Variant& variant) {
  if (vm.count("tb")) return vm["tb"].as<std::string>();
  return default_tablebase_path(variant, vm.count("tables") ? vm["tables"].as<std::string>() : "");
}

Tablebase open_table(const po::variables_map& vm, Variant& variant) {
  const bool variant_given = !vm["stack-cap"].defaulted() || !vm["adjacency"].defaulted();
  const std::string path = table_path_from(vm, variant);
  Tablebase tb = Tablebase::open(
      path, variant_given || !vm.count("tb") ? std::optional(variant) : std::nullopt);
  variant = tb.variant();
  return tb;
}

void add_position_options(po::options_description& desc, po::positional_options_description& pos) {
  desc.add_options()("position,p", po::value<std::string>(),
                     "position in notation, e.g. \"-/-/-/CT/tT/Cc/tc w\"")(
      "moves,m", po::value<std::string>(), "a game from the empty board, e.g. \"C4,t3,T7\"");
  pos.add("position", 1);
}

void require_one_position(const po::variables_map& vm, const std::string& command) {
  if (vm.count("position") == vm.count("moves"))
    throw UsageError("give either a POSITION or --moves (see 'fano " + command + " --help')");
}

GameRecord game_from(const po::variables_map& vm, const Rules& rules, const std::string& command) {
  require_one_position(vm, command);
  if (vm.count("position"))
    return GameRecord(rules, parse_position(vm["position"].as<std::string>(), rules.variant));
  return GameRecord::from_moves(rules, kEmptyBoard, vm["moves"].as<std::string>());
}

int exit_code_for(TablebaseErrorKind kind) {
  switch (kind) {
    case TablebaseErrorKind::kMissing: return 10;
    case TablebaseErrorKind::kNotAFile: return 11;
    case TablebaseErrorKind::kTruncated: return 12;
    case TablebaseErrorKind::kBadMagic: return 13;
    case TablebaseErrorKind::kBadVersion: return 14;
    case TablebaseErrorKind::kChecksum: return 15;
    case TablebaseErrorKind::kCorrupt: return 16;
    case TablebaseErrorKind::kWrongVariant: return 17;
    case TablebaseErrorKind::kIo: return 18;
  }
  return kExitInternal;
}

std::optional<po::variables_map> parse(const std::string& command, const std::string& synopsis,
                                       const std::string& about, po::options_description& desc,
                                       const po::positional_options_description* positional,
                                       const std::vector<std::string>& args) {
  desc.add_options()("help,h", "show this help");
  // A position may start with '-' ("-/-/-/-/-/-/- w"), which the option parser
  // would take for an option: pass such an argument as --position=... instead.
  std::vector<std::string> argv;
  const bool has_position = desc.find_nothrow("position", false) != nullptr;
  for (const std::string& a : args) {
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
      std::cout << "usage: fano " << command << " " << synopsis << "\n\n"
                << about << "\n\n"
                << desc;
      return std::nullopt;
    }
    po::notify(vm);
  } catch (const po::too_many_positional_options_error&) {
    // Name the first word that is neither an option nor an option's value.
    const unsigned allowed = positional ? positional->max_total_count() : 0;
    unsigned seen = 0;
    for (size_t i = 0; i < argv.size(); ++i) {
      const std::string& a = argv[i];
      if (a.size() > 1 && a[0] == '-') {
        const bool inline_value = a.find('=') != std::string::npos;
        const std::string name = a.substr(a[1] == '-' ? 2 : 1, a.find('=') - (a[1] == '-' ? 2 : 1));
        const auto* opt = a[1] == '-' ? desc.find_nothrow(name, false)
                                      : desc.find_nothrow("-" + name, false);
        if (opt && opt->semantic()->max_tokens() > 0 && !inline_value) ++i;  // skip its value
      } else if (++seen > allowed) {
        throw UsageError("unexpected argument '" + a + "' (see 'fano " + command + " --help')");
      }
    }
    throw UsageError("too many arguments (see 'fano " + command + " --help')");
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (see 'fano " + command + " --help')");
  }
  return vm;
}

void print_json(const Json& j) { std::cout << json_text(j) << "\n"; }

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void progress(const std::string& line) {
  static const bool quiet = [] {
    const char* q = std::getenv("FANO_QUIET");
    return q && *q && std::string(q) != "0";
  }();
  if (!quiet) std::cerr << line << std::endl;
}

}  // namespace fano::cli
