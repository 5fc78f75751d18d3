// The compact 64-bit game state.
//
//   bit  63 ........ 57 | 56   | 55..48 | 47..40 | ... | 15..8  | 7..0
//        zero           | side | stack7 | stack6 | ... | stack2 | stack1
//
// Each stack byte (space s occupies bits 8s..8s+7, s = 0..6 for spaces 1..7):
//
//   bit  7 6    | 5 4        | 3 2       | 1 0
//        height | third slot | 2nd slot  | top slot
//
// The top piece always sits in bits 1..0, the piece under it in bits 3..2 and
// so on, so pushing is a shift left by two and popping a shift right. Slots
// above the height are zero, so every position has exactly one code.
// A piece is 2 bits: bit 1 = colour (0 white, 1 black), bit 0 = shape
// (0 circle, 1 triangle). Side to move: 0 = White, 1 = Black.
#pragma once

#include <array>
#include <bit>
#include <cassert>
#include <cstdint>

#include "fano/board.hpp"

namespace fano {

enum class Colour : std::uint8_t { kWhite = 0, kBlack = 1 };
enum class Shape : std::uint8_t { kCircle = 0, kTriangle = 1 };
enum class Piece : std::uint8_t {
  kWhiteCircle = 0,    // C
  kWhiteTriangle = 1,  // T
  kBlackCircle = 2,    // c
  kBlackTriangle = 3,  // t
};

inline constexpr int kPieceKinds = 4;
// The rulebook's material (Variant's defaults); a game of other material
// asks its Variant (copies, total_pieces) instead.
inline constexpr int kCopiesPerKind = 2;
inline constexpr int kTotalPieces = kPieceKinds * kCopiesPerKind;  // 8: placement ends here
inline constexpr int kMaxCopiesPerKind = 3;
inline constexpr int kMaxStackCap = 3;

constexpr Colour opponent(Colour c) { return Colour(1 - int(c)); }
constexpr Colour colour_of(Piece p) { return Colour(std::uint8_t(p) >> 1); }
constexpr Shape shape_of(Piece p) { return Shape(std::uint8_t(p) & 1); }
constexpr Piece make_piece(Colour c, Shape s) { return Piece(int(c) << 1 | int(s)); }

inline constexpr int kSideBit = 56;
inline constexpr int kStackBits = 8;
static_assert(kSpaces * kStackBits + 1 <= 64, "seven stack bytes and the side bit fit 64 bits");
static_assert(kMaxStackCap * 2 + 2 <= kStackBits,
              "three 2-bit slots and a 2-bit height fit a byte");

// Facts about one stack byte, tabulated for all 256 bytes at compile time.
struct StackInfo {
  std::uint8_t height;         // pieces in the stack
  std::uint8_t top;            // top piece (meaningless when height == 0)
  std::uint8_t kinds;          // bit p set when piece kind p is in the stack
  bool valid;                  // unused slots zero and no kind repeated
  std::uint16_t kind_nibbles;  // 1 << 4p for each kind p in the stack (summed by kind_counts)
};

inline constexpr std::array<StackInfo, 256> kStackInfo = [] {
  std::array<StackInfo, 256> t{};
  for (int b = 0; b < 256; ++b) {
    StackInfo info{};
    info.height = std::uint8_t(b >> 6);
    info.top = std::uint8_t(b & 3);
    info.valid = true;
    for (int i = 0; i < 3; ++i) {
      const int p = (b >> (2 * i)) & 3;
      if (i < info.height) {
        if (info.kinds & (1 << p)) info.valid = false;
        info.kinds |= std::uint8_t(1 << p);
      } else if (p != 0) {
        info.valid = false;
      }
    }
    for (int p = 0; p < kPieceKinds; ++p)
      if (info.kinds >> p & 1) info.kind_nibbles = std::uint16_t(info.kind_nibbles | 1u << (4 * p));
    t[b] = info;
  }
  return t;
}();

// A position: seven stacks and the side to move, in the layout drawn above.
struct State {
  std::uint64_t code = 0;

  constexpr std::uint8_t stack(int s) const {
    assert(s >= 0 && s < kSpaces);
    return std::uint8_t(code >> (kStackBits * s));
  }
  constexpr const StackInfo& info(int s) const { return kStackInfo[stack(s)]; }
  constexpr int height(int s) const { return stack(s) >> 6; }
  constexpr bool empty(int s) const { return height(s) == 0; }
  constexpr Piece top(int s) const { return Piece(stack(s) & 3); }
  // Piece at level i of stack s counted from the bottom (0 = bottom); requires i < height(s).
  constexpr Piece piece_from_bottom(int s, int i) const {
    assert(i >= 0 && i < height(s));
    return Piece((stack(s) >> (2 * (height(s) - 1 - i))) & 3);
  }
  constexpr Colour to_move() const { return Colour((code >> kSideBit) & 1); }
  constexpr int pieces_on_board() const {
    // The two height bits of every stack byte, summed.
    std::uint64_t h = (code >> 6) & 0x0003030303030303ull;
    return int((h * 0x0101010101010101ull) >> 56 & 0xff);
  }
  // Whether pieces are still to be placed in the rulebook's game (8 pieces);
  // for any rules, Rules::placement_phase or the overload below.
  constexpr bool placement_phase() const { return pieces_on_board() < kTotalPieces; }
  constexpr bool placement_phase(const Variant& v) const {
    return pieces_on_board() < v.total_pieces();
  }

  // Returns a copy with piece p pushed on top of stack s (no rule checks);
  // requires height(s) < kMaxStackCap.
  constexpr State with_pushed(int s, Piece p) const {
    assert(height(s) < kMaxStackCap);
    const std::uint64_t b = stack(s);
    const std::uint64_t nb = ((b & 0xc0) + 0x40) | ((b & 0x3f) << 2 | std::uint64_t(p));
    return State{(code & ~(0xffull << (kStackBits * s))) | (nb << (kStackBits * s))};
  }
  // Returns a copy with the top piece of non-empty stack s removed.
  constexpr State with_popped(int s) const {
    assert(!empty(s));
    const std::uint64_t b = stack(s);
    const std::uint64_t nb = ((b & 0xc0) - 0x40) | ((b & 0x3f) >> 2);
    return State{(code & ~(0xffull << (kStackBits * s))) | (nb << (kStackBits * s))};
  }
  constexpr State with_side_flipped() const { return State{code ^ (1ull << kSideBit)}; }
  constexpr State with_to_move(Colour c) const {
    return State{(code & ~(1ull << kSideBit)) | (std::uint64_t(c) << kSideBit)};
  }

  // How many pieces of each kind are on the board: kind p in bits 4p..4p+3.
  constexpr unsigned kind_counts() const {
    unsigned n = 0;
    for (int s = 0; s < kSpaces; ++s) n += info(s).kind_nibbles;
    return n;
  }
  // The count of kind p in a kind_counts() value.
  static constexpr int count_of(unsigned kind_counts, Piece p) {
    return int(kind_counts >> (4 * int(p)) & 0xf);
  }
  // How many pieces of kind p are on the board.
  constexpr int count_on_board(Piece p) const { return count_of(kind_counts(), p); }

  constexpr bool operator==(const State&) const = default;
  constexpr auto operator<=>(const State&) const = default;
};

inline constexpr State kEmptyBoard{0};

}  // namespace fano
