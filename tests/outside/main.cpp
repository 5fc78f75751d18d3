// Reads a table file's bytes itself and analyses a position through
// fano::analysis alone (the rules-and-probe layer): what an outside program
// linking only that layer does, with no TBB, httplib or Boost (the test
// configures it with TBB's package disabled). Prints the value of the position
// after C4 and the engine's move.
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

#include "fano/analysis.hpp"
#include "fano/notation.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: outside TABLE\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  const fano::Tablebase tb = fano::Tablebase::from_bytes(bytes, argv[1]);
  const fano::Rules rules(tb.variant());
  const fano::GameRecord game = fano::GameRecord::from_moves(rules, fano::kEmptyBoard, "C4");
  const fano::PositionReport r = fano::analyse(tb, game);
  std::cout << fano::format_position(r.position) << " " << fano::outcome_text(r.value) << " "
            << r.moves.size() << " moves, engine "
            << fano::format_move(r.moves[*r.engine_choice].move) << "\n";
  return 0;
}
