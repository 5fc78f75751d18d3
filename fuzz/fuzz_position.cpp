// libFuzzer target: the position parser, for every variant.
//
// Contract checked: parse_position either returns a state or throws
// NotationError (anything else escapes and is reported as a crash), and an
// accepted position round-trips through format_position unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fano/notation.hpp"
#include "fano/rules.hpp"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const fano::Variant& v : fano::kAllVariants) {
    fano::State st;
    try {
      st = fano::parse_position(text, v);
    } catch (const fano::NotationError&) {
      continue;
    }
    // Every stack is well formed and within the cap.
    for (int s = 0; s < fano::kSpaces; ++s) {
      check(st.info(s).valid);
      check(st.height(s) <= v.stack_cap);
    }
    check((st.code >> 57) == 0);
    for (int p = 0; p < fano::kPieceKinds; ++p)
      check(st.count_on_board(fano::Piece(p)) <= fano::kCopiesPerKind);
    const std::string again = fano::format_position(st);
    check(fano::parse_position(again, v) == st);
    const fano::Rules rules(v);
    (void)fano::render_board(st, v.stack_cap);
    (void)fano::describe_game_over(rules, st);
  }
  return 0;
}
