// fano play: a game against perfect play from the tablebase, in the terminal or
// scripted through stdin; or the engine against itself.
#include <unistd.h>

#include <cctype>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/analysis.hpp"
#include "fano/analysis_json.hpp"
#include "fano/files.hpp"
#include "fano/notation.hpp"
#include "fano/render.hpp"
#include "fano/review.hpp"
#include "fano/tablebase.hpp"
#include "fano/text.hpp"

namespace fano::cli {
namespace {

std::string side_name(Colour c) { return c == Colour::kWhite ? "White" : "Black"; }

// The message for a finished game, or "" while it goes on. `label` names a side
// ("White (you)").
template <class Label>
std::string end_message(const GameRecord& game, Label label) {
  const auto end = game.end();
  if (!end) return "";
  const State st = game.current();
  if (end->reason == EndReason::kRepetition)
    return "draw by repetition: " + format_position(st) + " (" + side_name(st.to_move()) +
           " to move) occurred before, after ply " + std::to_string(end->repeated_ply) +
           " (rule 3)\nresult: draw\n";
  const Colour loser = *end->loser;
  return "game over: " + describe_end(*end, st) + "\nresult: " + label(loser) + " lost, " +
         label(opponent(loser)) + " won\n";
}

// The hint: the value and every move rated under the game's history.
void print_moves(std::ostream& out, const Tablebase& tb, const GameRecord& game) {
  const PositionReport r =
      analyse(tb, game, {.principal_variation = false, .engine_choice = false});
  out << value_sentence(r) << "\n";
  if (!r.history_note.empty()) out << "history: " << r.history_note << "\n";
  out << "moves (" << r.moves.size() << "), best first:\n";
  for (const RatedMove& m : r.moves)
    out << "  " << format_move(m.move) << "  " << outcome_phrase(m.result)
        << (m.repeats ? " (repeats an earlier position)" : "") << "\n";
}

// The engine's move in the game and its result for the engine.
RatedMove engine_move(const Tablebase& tb, const GameRecord& game) {
  const std::vector<RatedMove> rated = rate_moves(tb, game);
  return rated[choose_index(tb, game.rules(), rated)];
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

constexpr const char* kHelp =
    "commands:\n"
    "  a move      a placement such as C4 or T4 (your colour is implied), or a movement such "
    "as 7-5\n"
    "  hint        every legal move with its result for you, best first\n"
    "  review      each side's mistakes so far, with the moves that kept the result\n"
    "  undo        take back your last move (and the engine's reply)\n"
    "  moves       the moves played so far\n"
    "  new         start the game again (from the --moves or POSITION given)\n"
    "  board       show the board again\n"
    "  help        this text\n"
    "  quit        leave the game\n";

int engine_vs_engine(const Tablebase& tb, GameRecord start, int max_plies, bool json) {
  const Rules& rules = start.rules();
  const EngineGame g = engine_game(tb, std::move(start), std::size_t(max_plies));
  if (json) {
    print_json(engine_game_json(g));
    return 0;
  }
  const GameRecord& game = g.game;
  std::cout << "engine against engine (" << variant_description(rules.variant) << ")\n\n"
            << render_board(game.positions()[g.first_ply], rules.stack_cap()) << "\n";
  for (std::size_t i = 0; i < g.results.size(); ++i) {
    const std::size_t ply = g.first_ply + i;
    const Colour mover = game.positions()[ply].to_move();
    std::cout << "ply " << ply + 1 << ": " << side_name(mover) << " plays "
              << format_move(game.moves()[ply]) << " (" << colour_name(mover) << ": "
              << outcome_phrase(g.results[i]) << ")\n";
  }
  std::cout << "\n" << render_board(game.current(), rules.stack_cap()) << "\n";
  const std::string end = end_message(game, [](Colour c) { return side_name(c); });
  if (end.empty())
    std::cout << "stopped after " << g.results.size() << " plies (--max-plies " << max_plies
              << "); the game goes on\n";
  else
    std::cout << end;
  std::cout << "moves: " << game.move_list() << "\n";
  return 0;
}

// Whether a word is meant as a command rather than a move: letters only, and
// not a placement missing its space ("C", "round").
bool looks_like_command(const std::string& word) {
  if (word.size() < 2) return false;
  for (char c : word)
    if (!std::isalpha(static_cast<unsigned char>(c))) return false;
  return word != "round" && word != "triangle";
}

// A game of a human (typing on stdin) against perfect play: the loop reads a
// line and hands it to one named step; the engine answers on its turns.
class HumanVsEngine {
 public:
  HumanVsEngine(const Tablebase& tb, const GameRecord& start, Colour human)
      : tb_(tb),
        start_(start),
        game_(start),
        human_(human),
        engine_(opponent(human)),
        cap_(start.rules().stack_cap()),
        setup_(start.plies()) {}

  int run() {
    std::cout << "you play " << colour_name(human_) << " against perfect play ("
              << variant_description(game_.rules().variant) << "); type 'help' for commands\n\n"
              << render_board(game_.current(), cap_) << "\n";
    const bool echo = !::isatty(STDIN_FILENO);  // scripted: echo input so the transcript reads well
    LineReader input_lines("-");  // lines of at most kMaxLineBytes: a longer one is refused
    std::string line;
    while (true) {
      const std::string end = end_message(game_, [this](Colour c) { return label(c); });
      announce_end(end);
      if (end.empty() && game_.current().to_move() == engine_) {
        engine_turn();
        continue;
      }
      std::cout << (end.empty() ? label(human_) + " to move> " : std::string("game over> "))
                << std::flush;
      if (!input_lines.next(line)) {
        std::cout << "\n";  // end of input: leave the prompt's line finished
        return 0;
      }
      const std::string input(trim(line));
      if (echo) std::cout << printable(input) << "\n";
      if (!handle(input, end)) return 0;
    }
  }

 private:
  std::string label(Colour c) const {
    return side_name(c) + (c == human_ ? " (you)" : " (engine)");
  }

  void announce_end(const std::string& end) {
    if (end.empty() || announced_) return;
    std::cout << end
              << "type 'review' for each side's mistakes; type 'new' for a new game, 'undo' to "
                 "take back moves, or 'quit'\n";
    announced_ = true;
  }

  void engine_turn() {
    const RatedMove r = engine_move(tb_, game_);
    game_.play(r.move);
    std::cout << "ply " << game_.plies() << ": " << label(engine_) << " plays "
              << format_move(r.move) << " (" << colour_name(engine_) << ": "
              << outcome_phrase(r.result) << ")\n\n"
              << render_board(game_.current(), cap_) << "\n";
  }

  // One line of input; false to quit.
  bool handle(const std::string& input, const std::string& end) {
    const std::string cmd = lower(input);
    if (cmd.empty()) return true;
    if (cmd == "quit" || cmd == "exit" || cmd == "q") return false;
    if (cmd == "help" || cmd == "?") {
      std::cout << kHelp << "\n" << kEngineChoiceRule << "\n";
    } else if (cmd == "board") {
      std::cout << render_board(game_.current(), cap_);
    } else if (cmd == "moves") {
      std::cout << "moves: " << (game_.plies() == 0 ? "(none)" : game_.move_list()) << "\n";
    } else if (cmd == "new") {
      game_ = start_;
      announced_ = false;
      std::cout << "new game\n\n" << render_board(game_.current(), cap_) << "\n";
    } else if (cmd == "hint") {
      if (!end.empty())
        std::cout << kGameOver;
      else
        print_moves(std::cout, tb_, game_);
    } else if (cmd == "review") {
      print_review(std::cout, review_game(tb_, game_));
    } else if (cmd == "undo") {
      undo();
    } else if (split_moves(input).size() == 1 && looks_like_command(cmd)) {
      std::cout << "unknown command '" << printable(input) << "' (type 'help' for commands)\n";
    } else if (!end.empty()) {
      std::cout << kGameOver;
    } else {
      human_move(input);
    }
    return true;
  }

  // Takes back moves until one of the human's has gone: it is then her turn.
  // The set-up moves stay.
  void undo() {
    bool any = false;
    for (std::size_t i = setup_; i < game_.plies(); ++i)
      any |= game_.positions()[i].to_move() == human_;
    if (!any) {
      std::cout << "nothing to undo" << (setup_ ? " (the moves given with --moves stay)" : "")
                << "\n";
      return;
    }
    std::string taken;
    while (true) {
      const bool humans = game_.positions()[game_.plies() - 1].to_move() == human_;
      taken = taken.empty() ? format_move(game_.moves().back())
                            : format_move(game_.moves().back()) + ", " + taken;
      game_.undo();
      if (humans) break;
    }
    announced_ = false;
    std::cout << "took back: " << taken << "\n\n" << render_board(game_.current(), cap_) << "\n";
  }

  // A move typed by the human: played with the change of her result under the
  // game's history, or refused with the rules' reason.
  void human_move(const std::string& input) {
    try {
      if (split_moves(input).size() != 1)
        throw NotationError("one move per line, got '" + input + "'");
      const Move m = resolve_move(game_.rules(), game_.current(), parse_move_text(input), input);
      const std::vector<RatedMove> rated = rate_moves(tb_, game_);
      const Outcome before = rated.front().result;
      Outcome after = before;
      for (const RatedMove& r : rated)
        if (r.move == m) after = r.result;
      game_.play(m);
      std::cout << "ply " << game_.plies() << ": " << label(human_) << " plays " << format_move(m)
                << "\n";
      if (!(after == before))
        std::cout << format_move(m) << ": " << outcome_phrase(before) << " -> "
                  << outcome_phrase(after) << "\n";
      std::cout << "\n" << render_board(game_.current(), cap_) << "\n";
    } catch (const NotationError& e) {
      std::cout << "not played: " << printable(e.what()) << " (type 'help' for commands)\n";
    }
  }

  static constexpr const char* kGameOver =
      "the game is over: 'review', 'new', 'undo' to take back moves, or 'quit'\n";

  const Tablebase& tb_;
  const GameRecord start_;
  GameRecord game_;
  const Colour human_, engine_;
  const int cap_;
  const std::size_t setup_;  // moves given with --moves: never taken back
  bool announced_ = false;
};

int human_vs_engine(const Tablebase& tb, const GameRecord& start, Colour human) {
  return HumanVsEngine(tb, start, human).run();
}

}  // namespace

int cmd_play(const Args& args) {
  po::options_description desc("options");
  add_variant_options(desc);
  add_table_options(desc);
  desc.add_options()("as", po::value<std::string>()->default_value("white"),
                     "your side: white (moves first) or black")(
      "engine-vs-engine", "let the engine play both sides and print the moves")(
      "json", "with --engine-vs-engine: print the game as one JSON document")(
      "max-plies", po::value<int>()->default_value(200),
      "with --engine-vs-engine: stop after this many plies")(
      "position,p", po::value<std::string>(),
      "start from this position instead of the empty board")(
      "moves,m", po::value<std::string>(),
      "start after these moves from the empty board (from POSITION when both are given)");
  po::positional_options_description pos;
  pos.add("position", 1);
  const auto vm = parse(
      "play",
      "[--tb FILE] [--as white|black] [--engine-vs-engine [--max-plies N] [--json]] "
      "[POSITION] [--moves \"C4,t3\"]",
      std::string("Plays against perfect play from the tablebase. Type moves in the project's "
                  "notation (C4, T4: a placement, your colour implied; 7-5: a movement), one per "
                  "line; the board is shown after every move. Commands: hint (every move with "
                  "its result, best first, as 'fano query' prints them), undo (takes back your "
                  "last move and the engine's reply; never the moves given with --moves), review "
                  "(each side's mistakes so far, as 'fano review' lists them), moves, "
                  "board, new (start again), help, quit. When your move changes your result, it "
                  "is said (\"C7: draw -> loss in 13 plies\"). The game ends "
                  "when a line of three tops of one colour or one shape stands (its maker "
                  "loses), when the side to move has no legal move (she loses), or when a "
                  "position repeats (same stacks, same side to move: a draw). Moves may come "
                  "from a pipe or file (one per line; the session ends at end of input).\n\n") +
          kEngineChoiceRule,
      desc, &pos, args);
  if (!vm) return 0;
  Variant v = variant_from(*vm);
  const std::string as = lower((*vm)["as"].as<std::string>());
  if (as != "white" && as != "black")
    throw UsageError("--as must be 'white' or 'black', got '" + as + "'");
  const bool eve = vm->count("engine-vs-engine") > 0;
  if (eve && !(*vm)["as"].defaulted())
    throw UsageError("--as and --engine-vs-engine exclude each other");
  const int max_plies = (*vm)["max-plies"].as<int>();
  if (max_plies < 0) throw UsageError("--max-plies must be 0 or more");
  if (!eve && !(*vm)["max-plies"].defaulted())
    throw UsageError("--max-plies needs --engine-vs-engine");
  if (!eve && vm->count("json")) throw UsageError("--json needs --engine-vs-engine");
  const Tablebase tb = open_table(*vm, v);
  const Rules rules(v);
  GameRecord game(rules);
  if (vm->count("position") || vm->count("moves")) game = game_from(*vm, rules, "play");
  probe_or_unreachable(tb, rules, game.current());
  if (eve) return engine_vs_engine(tb, std::move(game), max_plies, vm->count("json") > 0);
  return human_vs_engine(tb, game, as == "white" ? Colour::kWhite : Colour::kBlack);
}

}  // namespace fano::cli
