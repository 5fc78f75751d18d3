// Solves a table in memory with fano::solver's output format, then analyses a
// position through fano::analysis: what an outside program linking the
// package does. Prints the value of the position after C4 and the engine's move.
#include <iostream>

#include "fano/analysis.hpp"
#include "fano/notation.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: outside TABLE\n";
    return 2;
  }
  const fano::Tablebase tb = fano::Tablebase::open(argv[1]);
  const fano::Rules rules(tb.variant());
  const fano::GameRecord game = fano::GameRecord::from_moves(rules, fano::kEmptyBoard, "C4");
  const fano::PositionReport r = fano::analyse(tb, game);
  std::cout << fano::format_position(r.position) << " " << fano::outcome_text(r.value) << " "
            << r.moves.size() << " moves, engine "
            << fano::format_move(r.moves[*r.engine_choice].move) << "\n";
  return 0;
}
