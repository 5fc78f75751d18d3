// Position and move notation, shared by every tool.
//
// Position: seven stacks for spaces 1..7 separated by '/', each bottom to top
// with C (white circle), T (white triangle), c (black circle), t (black
// triangle) or '-' when empty; then a space and the side to move, w or b.
// The empty board is "-/-/-/-/-/-/- w"; '_' may stand for the space
// ("-/-/-/-/-/-/-_w", one shell word).
// Move: a placement is shape and space ("C4", "T4"; "c4"/"t4" and the longer
// "Round4"/"Triangle4" are accepted too: the colour is always the mover's);
// a movement is "from-to" ("7-5"). Sequences are separated by commas or spaces.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "fano/rules.hpp"
#include "fano/state.hpp"

namespace fano {

// Thrown for any malformed or illegal input; what() is one line naming the
// offending token and the rule it breaks.
class NotationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Text from outside (an argument, a file's line, a request, a Python
// value) as a message shows it: quoted, its control characters written out
// (\n, \r, \t, \xNN for the rest of C0, DEL and C1) and bytes that are not
// UTF-8 as \xNN, so that a NUL cannot end the message where it is read as a
// C string, an escape sequence cannot drive a terminal and a message stays
// on one line; text longer than kMaxQuotedBytes is cut (at a character's
// start) and its length said: 'abc...' (60000 bytes). Every message that
// echoes input goes through quote().
inline constexpr std::size_t kMaxQuotedBytes = 80;
std::string quote(std::string_view text);
// The same escaping, without quotes or cut: a whole message made safe.
std::string escape_text(std::string_view text);

char piece_char(Piece p);
std::string colour_name(Colour c);  // "white" / "black"

// Returns the notation of a position (always valid input for parse_position).
std::string format_position(State st);

// Parses and validates a position against the variant: characters, seven
// stacks, stack cap, stacking rule, at most two pieces of a kind, and a side to
// move consistent with the placement counts. Throws NotationError.
State parse_position(std::string_view text, const Variant& variant);

// True when `st` is a position parse_position would accept for the variant
// (every stack byte well formed, no bits above the side to move, the stack
// cap, at most two pieces of a kind, the placement phase's counts and side to
// move), without allocating: for checking arrays of codes.
bool is_valid_position(State st, const Variant& variant);

// A move as written, before it is checked against a position.
struct MoveText {
  bool placement = true;
  Shape shape = Shape::kCircle;  // placements only
  int from = 0;                  // 0-based, movements only
  int to = 0;                    // 0-based
};

// Parses one move token ("C4", "t4", "Round4", "Triangle4", "7-5"). Throws NotationError.
MoveText parse_move_text(std::string_view token);

// Checks a written move against the position and returns the legal move, or
// throws NotationError saying which rule it breaks. Does not check game over.
Move resolve_move(const Rules& rules, State st, const MoveText& text, std::string_view token);

// Splits a move list on commas and white space; empty tokens are skipped.
std::vector<std::string> split_moves(std::string_view text);

// Returns the notation of a move: "C4" / "c4" (mover's case) or "7-5".
std::string format_move(const Move& move);

// Plays a sequence of moves from `start` (a GameRecord, see game.hpp). Each move must be legal and
// may not be played once the game has ended (a line, no legal move, or a repeated position: rule
// 3); otherwise throws NotationError naming the move's number (1-based), its token and the reason.
// When the last position repeats an earlier one, *repeats_ply is set to that earlier ply (0 =
// start), else -1.
State play_moves(const Rules& rules, State start, std::string_view moves,
                 std::vector<Move>* played = nullptr, int* repeats_ply = nullptr);

}  // namespace fano

namespace fano {

// "{2,7,6}" for a line index.
std::string line_name(int line);

// Why the game is over in st, in words ("line {2,7,6}: three triangles on top;
// Black, who moved last, lost"), or "" when it is not over.
std::string describe_game_over(const Rules& rules, State st);

}  // namespace fano
