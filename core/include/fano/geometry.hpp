// The printed board's geometry, in one place: where each space is drawn, and
// the images of the spaces under a map of the plane. The SVG picture
// (render/), the mirroring players (analysis/src/players.cpp) and the check
// of which mirrorings are symmetries (analysis/src/game_facts.cpp) all use it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "fano/board.hpp"
#include "fano/state.hpp"

namespace fano {

struct BoardPoint {
  double x, y;
};

// The spaces (0-based) with the centroid at the origin, y up, circumradius 1:
// corners 6 top, 5 bottom-left, 3 bottom-right; midpoints 1 (side 6-5), 4
// (side 6-3), 2 (side 5-3); the centre 7.
std::array<BoardPoint, kSpaces> printed_board_points();

// Maps of the plane that the printed board suggests: the identity, Ai Ai's
// reflections in the horizontal (x) and vertical (y, through 6, 7 and 2)
// axes and the half turn, the rotations by 120 and 240 degrees
// (anticlockwise: 6 -> 5 -> 3), and the reflections in the axes through
// corner 5 and corner 3.
enum class PlaneMap : std::uint8_t {
  kCopy,  // the identity
  kReflectX,
  kReflectY,
  kHalfTurn,
  kRotate120,
  kRotate240,
  kReflect5,
  kReflect3
};
inline constexpr int kPlaneMaps = 8;

BoardPoint apply(PlaneMap map, BoardPoint p);

// The image of each space under `map` (0-based), or nullopt for a space whose
// image is not a space (within 1e-9).
std::array<std::optional<int>, kSpaces> space_images(PlaneMap map);

}  // namespace fano
