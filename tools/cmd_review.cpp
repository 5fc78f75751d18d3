// fano review: a game's review (analysis library) printed as text or JSON.
#include <iostream>
#include <ostream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/analysis_json.hpp"
#include "fano/notation.hpp"
#include "fano/review.hpp"

namespace fano::cli {
namespace {

std::string side_name(Colour c) { return c == Colour::kWhite ? "White" : "Black"; }

std::string count_words(int n, const char* one, const char* many) {
  return n == 0 ? std::string("no ") + many : std::to_string(n) + " " + (n == 1 ? one : many);
}

// One side's mistakes, each with the moves that kept the value and the
// refutation: what a player reads after the game.
void print_mistakes(std::ostream& out, const GameReview& r, Colour c) {
  out << side_name(c) << ": " << count_words(r.mistakes[std::size_t(c)], "mistake", "mistakes")
      << "\n";
  for (const ReviewedPly& p : r.plies) {
    if (!p.mistake || p.position.to_move() != c) continue;
    out << "  " << p.text << "\n";
    if (p.decisive) out << "     the first mistake that changed the result\n";
    out << "     best: " << moves_text(p.best) << "\n";
    if (p.refutation.empty()) continue;  // the move ended the game: its text says how
    out << "     refutation: " << moves_text(p.refutation) << p.refutation_close << "\n";
  }
}

}  // namespace

void print_review(std::ostream& out, const GameReview& r) {
  const GameRecord& game = r.game;
  out << "moves: " << (game.plies() ? moves_text(game.moves()) : "none") << " (" << game.plies()
      << (game.plies() == 1 ? " ply" : " plies") << " from " << format_position(game.start())
      << ")\n";
  for (const Colour c : {Colour::kWhite, Colour::kBlack}) print_mistakes(out, r, c);
  out << "end: " << review_end_text(r) << "\n";
}

int cmd_review(const Args& args) {
  po::options_description desc("options");
  add_variant_options(desc);
  add_table_options(desc);
  po::positional_options_description pos;
  add_position_options(desc, pos);
  add_json_option(desc);
  const auto vm = parse(
      "review", "[--tb FILE] [--json] [POSITION] --moves \"C4,t3,...\"",
      "Reviews a game move by move against perfect play, under the game's history (a move "
      "into an earlier position is a draw, rule 3): for each move, the mover's value before "
      "it and the result of the move played, as 'fano query --moves' rates them after the "
      "moves before it. A mistake is a move whose result is worse for its player than the "
      "value before it: a worse result (win, then draw, then loss), the same win more slowly, "
      "or the same loss sooner. Each side's mistakes are listed with the moves that kept the "
      "value (the engine's choice first), the line that refutes the mistake (the principal "
      "variation after it, at most 40 plies) and a sentence in plain words; the first mistake "
      "that changed the result (a win or a draw given away) is marked. The game starts from "
      "the empty board, or from POSITION when given (then a bare position, no history before "
      "it). --json prints the review as the HTTP API's review route and Python's review() "
      "return it.\n\n"
      "examples:\n  fano review --moves C4,t3,T5,t1\n"
      "  fano review --moves C4,t3,T5,t1 --json\n"
      "  fano review \"C/-/-/c/-/-/- w\" --moves T5,t2",
      desc, &pos, args);
  if (!vm) return 0;
  Variant v = variant_from(*vm);
  require_one_position(*vm, "review");
  const Tablebase tb = open_table(*vm, v);
  const Rules rules(v);
  const GameRecord game = game_from(*vm, rules, "review");
  const GameReview r = review_game(tb, game);
  if (vm->count("json")) {
    print_json(review_json(r));
    return 0;
  }
  print_review(std::cout, r);
  return 0;
}

}  // namespace fano::cli
