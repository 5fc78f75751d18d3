// Game-theoretic values, from the side to move's point of view.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fano {

enum class Value : std::uint8_t { kLoss = 0, kDraw = 1, kWin = 2 };

// A solved position's result: its value and, unless drawn, the plies until the
// game is over under optimal play (winner fastest, loser slowest).
struct Outcome {
  Value value = Value::kDraw;
  std::uint16_t plies = 0;  // 0 for a draw

  constexpr bool operator==(const Outcome&) const = default;
};

constexpr std::string_view value_name(Value v) {
  return v == Value::kWin ? "win" : v == Value::kLoss ? "loss" : "draw";
}

// The result the mover obtains by moving into a position whose outcome (for
// the opponent, who is then to move) is `child`.
constexpr Outcome outcome_for_mover(Outcome child) {
  if (child.value == Value::kDraw) return child;
  return Outcome{child.value == Value::kWin ? Value::kLoss : Value::kWin,
                 std::uint16_t(child.plies + 1)};
}

// Orders outcomes for the side that has them: faster wins first, then draws,
// then slower losses. Returns true when a is strictly better than b.
constexpr bool better_for_mover(Outcome a, Outcome b) {
  auto rank = [](Outcome o) -> long {
    if (o.value == Value::kWin) return 1000000L - o.plies;
    if (o.value == Value::kDraw) return 0;
    return -1000000L + o.plies;
  };
  return rank(a) > rank(b);
}

// "draw", "win in 5", "loss in 1" (no unit), as tables and move lists print results.
inline std::string outcome_text(Outcome o) {
  if (o.value == Value::kDraw) return "draw";
  return std::string(value_name(o.value)) + " in " + std::to_string(o.plies);
}

// "draw", "win in 5 plies", "loss in 1 ply": the value in a sentence.
inline std::string outcome_phrase(Outcome o) {
  if (o.value == Value::kDraw) return "draw";
  return outcome_text(o) + (o.plies == 1 ? " ply" : " plies");
}

}  // namespace fano
