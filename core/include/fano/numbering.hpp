// Dense numbers for positions of a given stack cap ("class numbers").
//
// A state code written in mixed radix: the side to move is the most
// significant digit, then the stacks of spaces 7..1, each digit being the rank
// of the stack's byte among the bytes of valid stacks of at most stack_cap
// pieces (17 for cap 2, 41 for cap 3). The rank is monotone in the byte, so
// numbers sort exactly as codes do; every number is below 2 * radix^7
// (< 2^30 for cap 2, < 2^39 for cap 3). Used by the tablebase format and to
// sort positions compactly.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "fano/state.hpp"

namespace fano {

class Numbering {
 public:
  explicit Numbering(int stack_cap) {
    for (int b = 0; b < 256; ++b) {
      const StackInfo& in = kStackInfo[b];
      digit_of_[b] = -1;
      if (in.valid && in.height <= stack_cap) {
        digit_of_[b] = std::int16_t(byte_of_.size());
        byte_of_.push_back(std::uint8_t(b));
      }
    }
  }

  std::uint64_t radix() const { return byte_of_.size(); }
  // True when every stack of st is valid for the stack cap.
  bool valid(State st) const {
    for (int s = 0; s < kSpaces; ++s)
      if (digit_of_[st.stack(s)] < 0) return false;
    return true;
  }
  // The number of a valid state.
  std::uint64_t number(State st) const {
    std::uint64_t n = std::uint64_t(st.to_move());
    for (int s = kSpaces - 1; s >= 0; --s) n = n * radix() + std::uint64_t(digit_of_[st.stack(s)]);
    return n;
  }
  // Decodes n; returns false when n is not the number of any state.
  bool state(std::uint64_t n, State& out) const {
    // Division by a compile-time radix compiles to multiplications.
    return radix() == 17 ? decode<17>(n, out) : decode<41>(n, out);
  }

  // A number held as its digits (spaces 1..7, then the side to move) with its
  // state's code, for stepping through ascending numbers: a step touches only
  // the digits its carry reaches, where state() decodes all eight.
  struct Cursor {
    std::array<std::uint64_t, kSpaces + 1> digit{};
    State state{};  // the state of number 0 at first (every stack empty, White)
  };
  // Adds d to the cursor's number; returns false (the cursor is then
  // unspecified) when the sum is not the number of any state. Requires
  // number + d not to overflow 64 bits.
  bool advance(Cursor& c, std::uint64_t d) const {
    return radix() == 17 ? advance_by<17>(c, d) : advance_by<41>(c, d);
  }

 private:
  template <std::uint64_t K>
  bool advance_by(Cursor& c, std::uint64_t d) const {
    std::uint64_t code = c.state.code;
    for (int s = 0; d != 0; ++s) {
      if (s == kSpaces) {
        d += c.digit[kSpaces];
        if (d > 1) return false;
        c.digit[kSpaces] = d;
        code |= d << kSideBit;
        break;
      }
      const std::uint64_t t = c.digit[s] + d;
      c.digit[s] = t % K;
      d = t / K;
      code = (code & ~(std::uint64_t(0xff) << (kStackBits * s))) |
             std::uint64_t(byte_of_[c.digit[s]]) << (kStackBits * s);
    }
    c.state = State{code};
    return true;
  }

  template <std::uint64_t K>
  bool decode(std::uint64_t n, State& out) const {
    std::uint64_t code = 0;
    for (int s = 0; s < kSpaces; ++s) {
      code |= std::uint64_t(byte_of_[n % K]) << (kStackBits * s);
      n /= K;
    }
    if (n > 1) return false;
    out = State{code | n << kSideBit};
    return true;
  }

  std::array<std::int16_t, 256> digit_of_{};
  std::vector<std::uint8_t> byte_of_;
};

}  // namespace fano
