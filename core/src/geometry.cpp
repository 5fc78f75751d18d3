#include "fano/geometry.hpp"

#include <cmath>
#include <numbers>

namespace fano {

std::array<BoardPoint, kSpaces> printed_board_points() {
  const double h = std::sqrt(3.0) / 2;
  const BoardPoint c6{0, 1}, c5{-h, -0.5}, c3{h, -0.5};
  const auto mid = [](BoardPoint a, BoardPoint b) {
    return BoardPoint{(a.x + b.x) / 2, (a.y + b.y) / 2};
  };
  return {mid(c6, c5), mid(c5, c3), c3, mid(c6, c3), c5, c6, BoardPoint{0, 0}};
}

namespace {

BoardPoint rotate(BoardPoint p, double degrees) {
  const double a = degrees * std::numbers::pi / 180, c = std::cos(a), s = std::sin(a);
  return {c * p.x - s * p.y, s * p.x + c * p.y};
}

// The reflection in the line through the origin at `degrees` from the x axis.
BoardPoint reflect(BoardPoint p, double degrees) {
  const double a = 2 * degrees * std::numbers::pi / 180, c = std::cos(a), s = std::sin(a);
  return {c * p.x + s * p.y, s * p.x - c * p.y};
}

}  // namespace

BoardPoint apply(PlaneMap map, BoardPoint p) {
  switch (map) {
    case PlaneMap::kCopy:
      return p;
    case PlaneMap::kReflectX:
      return {p.x, -p.y};
    case PlaneMap::kReflectY:
      return {-p.x, p.y};
    case PlaneMap::kHalfTurn:
      return {-p.x, -p.y};
    case PlaneMap::kRotate120:
      return rotate(p, 120);
    case PlaneMap::kRotate240:
      return rotate(p, 240);
    case PlaneMap::kReflect5:  // corner 5 lies at 210 degrees
      return reflect(p, 210);
    case PlaneMap::kReflect3:  // corner 3 lies at 330 degrees
      return reflect(p, 330);
  }
  return p;
}

std::array<std::optional<int>, kSpaces> space_images(PlaneMap map) {
  const auto at = printed_board_points();
  std::array<std::optional<int>, kSpaces> out{};
  for (int s = 0; s < kSpaces; ++s) {
    const BoardPoint image = apply(map, at[s]);
    for (int u = 0; u < kSpaces; ++u)
      if (std::abs(at[u].x - image.x) < 1e-9 && std::abs(at[u].y - image.y) < 1e-9) out[s] = u;
  }
  return out;
}

}  // namespace fano
