// Moves as integer actions and a position as planes of numbers: the fixed
// encoding a learning front end reads (OpenSpiel's pyspiel.State has this
// shape; Python's fano.Game binds it). Header-only: a handful of formulas.
//
// Actions: a placement of a circle on space s (1..7) is s - 1, of a triangle
// 7 + s - 1; a movement from f to t is 14 + (f - 1) * 7 + (t - 1). The mover's
// colour is the position's. Of the 63 numbers, the 7 movements from a space
// onto itself are no move: every other is some position's legal move.
//
// Observation: one plane per piece kind (C, T, c, t) over (space, height from
// the bottom), then a plane of ones when Black is to move.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "fano/game.hpp"
#include "fano/notation.hpp"
#include "fano/rules.hpp"
#include "fano/state.hpp"

namespace fano {

inline constexpr int kPlacementActions = 2 * kSpaces;
inline constexpr int kDistinctActions = kPlacementActions + kSpaces * kSpaces;

// The action of a move as written (the mover's colour is not in it).
constexpr int action_of(const MoveText& m) {
  return m.placement ? int(m.shape) * kSpaces + m.to : kPlacementActions + m.from * kSpaces + m.to;
}

inline int action_of(const Move& m) {
  return action_of(
      MoveText{m.is_placement(), shape_of(m.piece), m.is_placement() ? 0 : m.from, m.to});
}

// The move an action writes, or nullopt for a number that is no move's: one
// outside 0..kDistinctActions - 1, or a movement onto its own space.
constexpr std::optional<MoveText> action_move(long long action) {
  if (action < 0 || action >= kDistinctActions) return std::nullopt;
  const int a = int(action);
  if (a < kPlacementActions)
    return MoveText{true, a < kSpaces ? Shape::kCircle : Shape::kTriangle, 0, a % kSpaces};
  const int m = a - kPlacementActions;
  if (m / kSpaces == m % kSpaces) return std::nullopt;
  return MoveText{false, Shape::kCircle, m / kSpaces, m % kSpaces};
}

// Why `action` is no move's (action_move gave nullopt), in words.
inline std::string action_error(long long action) {
  if (action >= kPlacementActions && action < kDistinctActions)
    return "action " + std::to_string(action) + " is a movement from space " +
           std::to_string((action - kPlacementActions) / kSpaces + 1) +
           " onto itself: no move has it";
  return "action " + std::to_string(action) + " is out of range (0.." +
         std::to_string(kDistinctActions - 1) + ")";
}

// The action in notation, which parse_move_text reads back: "C4", "T4" (a
// placement, written as White's), "7-5". Throws std::invalid_argument for a
// number that is no move's.
inline std::string action_text(long long action) {
  const std::optional<MoveText> m = action_move(action);
  if (!m) throw std::invalid_argument(action_error(action));
  if (m->placement)
    return std::string(m->shape == Shape::kCircle ? "C" : "T") + std::to_string(m->to + 1);
  return std::to_string(m->from + 1) + "-" + std::to_string(m->to + 1);
}

// The legal actions of the game's position, ascending; none once it is over.
inline std::vector<int> legal_actions(const GameRecord& game) {
  std::vector<int> out;
  if (game.over()) return out;
  for (const Move& m : legal_moves(game.rules(), game.current())) out.push_back(action_of(m));
  std::sort(out.begin(), out.end());
  return out;
}

// The legal move of an action in the game's position. Throws
// std::invalid_argument when the action is no move's, the game is over or
// the move is not legal there (naming the position).
inline Move move_of_action(const GameRecord& game, long long action) {
  if (!action_move(action)) throw std::invalid_argument(action_error(action));
  if (game.over())
    throw std::invalid_argument("action " + std::to_string(action) + ": the game is already over");
  for (const Move& m : legal_moves(game.rules(), game.current()))
    if (action_of(m) == action) return m;
  throw std::invalid_argument("action " + std::to_string(action) + " (" + action_text(action) +
                              ") is not legal in " + format_position(game.current()));
}

inline constexpr int kObservationPlanes = kPieceKinds + 1;
inline constexpr std::size_t kObservationSize =
    std::size_t(kObservationPlanes) * kSpaces * kMaxStackCap;

// The position's planes, index (plane * kSpaces + space) * kMaxStackCap + height.
inline std::array<float, kObservationSize> observation(State st) {
  std::array<float, kObservationSize> out{};
  const auto at = [&](int plane, int space, int height) -> float& {
    return out[(std::size_t(plane) * kSpaces + std::size_t(space)) * kMaxStackCap +
               std::size_t(height)];
  };
  for (int s = 0; s < kSpaces; ++s)
    for (int h = 0; h < st.height(s); ++h) at(int(st.piece_from_bottom(s, h)), s, h) = 1;
  if (st.to_move() == Colour::kBlack)
    for (int s = 0; s < kSpaces; ++s)
      for (int h = 0; h < kMaxStackCap; ++h) at(kObservationPlanes - 1, s, h) = 1;
  return out;
}

}  // namespace fano
