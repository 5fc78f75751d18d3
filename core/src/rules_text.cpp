#include "fano/rules_text.hpp"

namespace fano {

namespace {

std::string count_of(int n, const char* one, const char* many) {
  static const char* const kWords[] = {"no",    "one",   "two",  "three", "four",   "five",  "six",
                                       "seven", "eight", "nine", "ten",   "eleven", "twelve"};
  const std::string word = n >= 0 && n <= 12 ? kWords[n] : std::to_string(n);
  return word + " " + (n == 1 ? one : many);
}

}  // namespace

std::vector<std::string> rules_text(const Variant& v) {
  std::vector<std::string> out;
  out.push_back("White and Black each have " + count_of(v.circles, "circle", "circles") + " and " +
                count_of(v.triangles, "triangle", "triangles") +
                "; the board starts empty and White moves first.");
  out.push_back(
      "First each player in turn places one of her pieces on any of the seven spaces, "
      "on top of its stack: a stack holds " +
      count_of(v.stack_cap, "piece", "pieces") +
      " at most, and never two identical pieces (the same colour and shape).");
  out.push_back("Once all " + count_of(v.total_pieces(), "piece", "pieces") +
                " are placed, each in turn moves one of her pieces that is on top of a stack to " +
                (v.adjacency == Adjacency::kBoard
                     ? std::string("a neighbouring space along a line or the circle")
                     : std::string("any other space (every two spaces share a line)")) +
                ", on top of that stack, under the same limit.");
  out.push_back("Only the top piece of a stack counts for lines and may move.");
  out.push_back(std::string("You never win on your turn, you only lose: if after your move any of "
                            "the seven lines shows three top pieces all of one colour") +
                (v.lines == Lines::kColourOrShape ? " or all of one shape" : "") +
                ", you lose, whoever's pieces they are.");
  out.push_back(
      "A player with no move loses; a position that comes back (the same stacks and the "
      "same player to move) ends the game drawn.");
  return out;
}

}  // namespace fano
