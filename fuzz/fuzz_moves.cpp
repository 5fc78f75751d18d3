// libFuzzer target: the move-sequence parser (play_moves), from the empty
// board and from a parsed position.
//
// Input: byte 0 picks the variant (bits 0-1) and the start (bit 2: from a
// position written on the first line, the moves following the newline; else
// from the empty board). The rest is text.
//
// Contract checked: play_moves either returns or throws NotationError;
// the moves it reports were legal, replaying them gives the same state, each
// one's notation parses back to the same move, and the end position is valid
// and round-trips through the position notation.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "fano/notation.hpp"
#include "fano/rules.hpp"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

bool is_legal(const fano::Rules& rules, fano::State st, const fano::Move& m) {
  bool found = false;
  fano::for_each_move(rules, st, [&](const fano::Move& x, fano::State) { found |= x == m; });
  return found;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const fano::Variant v = fano::kAllVariants[data[0] & 3];
  const bool from_position = data[0] & 4;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const fano::Rules rules(v);

  fano::State start = fano::kEmptyBoard;
  if (from_position) {
    const size_t nl = text.find('\n');
    if (nl == std::string_view::npos) return 0;
    try {
      start = fano::parse_position(text.substr(0, nl), v);
    } catch (const fano::NotationError&) {
      return 0;
    }
    text = text.substr(nl + 1);
  }

  std::vector<fano::Move> played;
  fano::State end;
  try {
    end = fano::play_moves(rules, start, text, &played);
  } catch (const fano::NotationError&) {
    return 0;
  }
  fano::State st = start;
  for (const fano::Move& m : played) {
    check(fano::game_over(rules, st) == fano::GameOver::kNone);
    check(is_legal(rules, st, m));
    const std::string written = fano::format_move(m);
    check(fano::resolve_move(rules, st, fano::parse_move_text(written), written) == m);
    st = fano::apply_move(st, m);
  }
  check(st == end);
  for (int s = 0; s < fano::kSpaces; ++s) {
    check(end.info(s).valid);
    check(end.height(s) <= v.stack_cap);
  }
  check(fano::parse_position(fano::format_position(end), v) == end);
  return 0;
}
