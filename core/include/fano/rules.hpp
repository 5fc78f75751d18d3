// The rules of Fano330-R-Morris (docs/rules.md): legal moves, their
// effect, and when the game is over. Header-only: these are the hot paths.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "fano/board.hpp"
#include "fano/state.hpp"

namespace fano {

// A move: a placement (from == kFromSupply) puts `piece` on space `to`; a
// movement takes the top piece of space `from` to the adjacent space `to`.
struct Move {
  static constexpr std::int8_t kFromSupply = -1;
  std::int8_t from = kFromSupply;  // 0..6, or kFromSupply
  std::int8_t to = 0;              // 0..6
  Piece piece = Piece::kWhiteCircle;

  constexpr bool is_placement() const { return from == kFromSupply; }
  constexpr bool operator==(const Move&) const = default;
};

// Why a game has ended. kLine: a line of three tops of one colour or one shape
// stands, so the side to move has won (the previous mover lost). kNoMove: the
// side to move has no legal move and has lost.
enum class GameOver : std::uint8_t { kNone, kLine, kNoMove };

// accepts[b], for a stack byte b: bit p set when the stack can take a piece of
// kind p under a stack cap of `cap` (it is lower than the cap and holds no
// piece of that kind).
constexpr std::array<std::uint8_t, 256> accept_table(int cap) {
  std::array<std::uint8_t, 256> t{};
  for (int b = 0; b < 256; ++b)
    if (kStackInfo[b].height < cap) t[b] = std::uint8_t(~kStackInfo[b].kinds & 0xf);
  return t;
}

// The rules value (Variant) with its precomputed data: neighbour masks and
// which stacks take which pieces.
struct Rules {
  Variant variant;
  std::array<SpaceMask, kSpaces> neighbours;
  std::array<std::uint8_t, 256> accepts;  // accept_table(stack cap)

  constexpr explicit Rules(Variant v)
      : variant(v), neighbours(neighbour_masks(v.adjacency)), accepts(accept_table(v.stack_cap)) {}
  constexpr int stack_cap() const { return variant.stack_cap; }
  constexpr int total_pieces() const { return variant.total_pieces(); }
  // Pieces of kind p in the game (the supply before the first placement).
  constexpr int copies(Piece p) const { return variant.copies(int(shape_of(p))); }
  constexpr bool placement_phase(State st) const {
    return st.pieces_on_board() < variant.total_pieces();
  }
  constexpr bool colour_only() const { return variant.lines == Lines::kColourOnly; }
};

// Top-piece masks over the seven spaces.
struct TopMasks {
  SpaceMask occupied = 0, white = 0, circle = 0;
};

// Gathers bit 0 of each of the seven stack bytes into a 7-bit mask: bit 8s is
// carried to bit 56 + s by the multiplier's term 2^(56 - 7s); every other
// product term falls below bit 56 or above bit 63, and no two coincide, so
// nothing carries into the result.
constexpr SpaceMask gather_byte_bits(std::uint64_t x) {
  constexpr std::uint64_t kBits = 0x0001010101010101ull;
  constexpr std::uint64_t kMul = (1ull << 56) | (1ull << 49) | (1ull << 42) | (1ull << 35) |
                                 (1ull << 28) | (1ull << 21) | (1ull << 14);
  return SpaceMask(((x & kBits) * kMul) >> 56 & 0x7f);
}

constexpr TopMasks top_masks(State st) {
  const std::uint64_t h = st.code >> 6;
  const SpaceMask occupied = gather_byte_bits(h | h >> 1);
  return TopMasks{occupied, SpaceMask(occupied & ~gather_byte_bits(st.code >> 1)),
                  SpaceMask(occupied & ~gather_byte_bits(st.code))};
}

// kLinesWithin[m]: the lines (bit l = line l) whose three spaces all lie in mask m.
inline constexpr std::array<std::uint8_t, 128> kLinesWithin = [] {
  std::array<std::uint8_t, 128> t{};
  for (int m = 0; m < 128; ++m)
    for (int l = 0; l < kLines; ++l)
      if ((m & kLineMasks[l]) == kLineMasks[l]) t[m] |= std::uint8_t(1u << l);
  return t;
}();

// Returns the set of lines (bit l = line l) whose three top pieces are all of
// one colour or all of one shape, whoever's they are (the rulebook's lines).
constexpr std::uint8_t formed_lines(State st) {
  const TopMasks m = top_masks(st);
  return kLinesWithin[m.white] | kLinesWithin[m.occupied & ~m.white] | kLinesWithin[m.circle] |
         kLinesWithin[m.occupied & ~m.circle];
}

// The lines that lose under the rules: of one colour or one shape, or of one
// colour only.
constexpr std::uint8_t formed_lines(const Rules& rules, State st) {
  if (!rules.colour_only()) return formed_lines(st);
  const TopMasks m = top_masks(st);
  return kLinesWithin[m.white] | kLinesWithin[m.occupied & ~m.white];
}

// Calls f(move, child) for every legal move of the side to move, in a fixed
// order (placements by piece then space; movements by from then to). It does
// not look at whether the game has already ended: callers decide that.
template <class F>
constexpr void for_each_move(const Rules& rules, State st, F&& f) {
  const Colour me = st.to_move();
  const State next = st.with_side_flipped();
  // The spaces whose stack can take my circle and my triangle: each
  // stack's accept bits side by side in one word, one bit gathered per byte.
  // A mask per piece, then a loop over its set bits, in place of a table
  // lookup and a branch per candidate move: the moves' test was the
  // search's costliest line (results/cold-solve.md).
  std::uint64_t accepts = 0;
  for (int s = 0; s < kSpaces; ++s)
    accepts |= std::uint64_t(rules.accepts[st.stack(s)]) << (kStackBits * s);
  const int mine = 2 * int(me);  // my circle's kind; my triangle's is one more
  const std::array<SpaceMask, 2> takes = {gather_byte_bits(accepts >> mine),
                                          gather_byte_bits(accepts >> (mine + 1))};
  if (rules.placement_phase(st)) {
    const unsigned counts = st.kind_counts();
    for (int shape = 0; shape < 2; ++shape) {
      const Piece p = make_piece(me, Shape(shape));
      if (State::count_of(counts, p) >= rules.variant.copies(shape)) continue;
      for (SpaceMask to = takes[std::size_t(shape)]; to; to &= SpaceMask(to - 1)) {
        const int s = std::countr_zero(unsigned(to));
        f(Move{Move::kFromSupply, std::int8_t(s), p}, next.with_pushed(s, p));
      }
    }
    return;
  }
  const TopMasks tops = top_masks(st);
  const SpaceMask my_tops =
      me == Colour::kWhite ? tops.white : SpaceMask(tops.occupied & ~tops.white);
  for (SpaceMask from_set = my_tops; from_set; from_set &= SpaceMask(from_set - 1)) {
    const int from = std::countr_zero(unsigned(from_set));
    const Piece p = st.top(from);
    const State lifted = next.with_popped(from);
    // The target is never the source, so its stack is as in st.
    for (SpaceMask to = SpaceMask(rules.neighbours[from] & takes[std::size_t(shape_of(p))]); to;
         to &= SpaceMask(to - 1)) {
      const int t = std::countr_zero(unsigned(to));
      f(Move{std::int8_t(from), std::int8_t(t), p}, lifted.with_pushed(t, p));
    }
  }
}

// Returns true when the side to move has at least one legal move.
constexpr bool has_legal_move(const Rules& rules, State st) {
  bool any = false;
  // The enumeration is tiny; an early exit is not worth a second code path.
  for_each_move(rules, st, [&](const Move&, State) { any = true; });
  return any;
}

// Returns why the game is over in `st`, or kNone. A standing line takes
// precedence: it ended the game at the end of the previous turn.
constexpr GameOver game_over(const Rules& rules, State st) {
  if (formed_lines(rules, st)) return GameOver::kLine;
  if (!has_legal_move(rules, st)) return GameOver::kNoMove;
  return GameOver::kNone;
}

// Every legal move of the side to move; empty only when she has none.
inline std::vector<Move> legal_moves(const Rules& rules, State st) {
  std::vector<Move> moves;
  for_each_move(rules, st, [&](const Move& m, State) { moves.push_back(m); });
  return moves;
}

// The position after `move`; requires the move to be legal in `st`.
constexpr State apply_move(State st, const Move& move) {
  State next = st.with_side_flipped();
  if (!move.is_placement()) next = next.with_popped(move.from);
  return next.with_pushed(move.to, move.piece);
}

// Number of pieces of colour c on the board.
constexpr int colour_count(State st, Colour c) {
  const unsigned counts = st.kind_counts();
  return State::count_of(counts, make_piece(c, Shape::kCircle)) +
         State::count_of(counts, make_piece(c, Shape::kTriangle));
}

// Calls f(parent) for every position from which one legal move leads to `st`
// (one call per such move). Parents are not filtered for reachability or for
// a game that had already ended there; callers decide that.
template <class F>
constexpr void for_each_unmove(const Rules& rules, State st, F&& f) {
  const Colour mover = opponent(st.to_move());
  const State prev_side = st.with_side_flipped();
  const int n = st.pieces_on_board();
  const int cap = rules.stack_cap();
  for (int to = 0; to < kSpaces; ++to) {
    if (st.empty(to)) continue;
    const Piece p = st.top(to);
    if (colour_of(p) != mover) continue;
    const State lifted = prev_side.with_popped(to);
    // Undo a placement: the parent had one piece fewer and was in placement phase,
    // where White is to move exactly when both sides have placed equally.
    {
      const int white = colour_count(lifted, Colour::kWhite);
      const int black = colour_count(lifted, Colour::kBlack);
      const bool side_ok = mover == Colour::kWhite ? white == black : white == black + 1;
      if (side_ok) f(lifted);
    }
    // Undo a movement: the parent was a movement-phase position.
    if (n == rules.total_pieces()) {
      for (SpaceMask nb = rules.neighbours[to]; nb; nb &= SpaceMask(nb - 1)) {
        const int from = std::countr_zero(unsigned(nb));
        const StackInfo& in = lifted.info(from);
        if (in.height >= cap || (in.kinds >> int(p) & 1)) continue;
        f(lifted.with_pushed(from, p));
      }
    }
  }
}

}  // namespace fano
