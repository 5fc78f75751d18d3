// The Fano plane board: spaces, lines, adjacency, and the rule variant.
//
// Spaces are numbered 1..7 in notation (nestorgames rulebook numbering) and
// 0..6 in code. The line list below is the single source of truth: the board's
// edges, the projective adjacency and the collineation group are all derived
// from it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fano {

inline constexpr int kSpaces = 7;
inline constexpr int kLines = 7;

// A set of spaces as a 7-bit mask (bit s = space s, 0-based).
using SpaceMask = std::uint8_t;

// The seven lines, 0-based, each written with its middle space in the middle
// for a straight line (corner-midpoint-corner or midpoint-centre-corner).
// Line 0 is the circle, whose three spaces are pairwise joined by arcs.
inline constexpr std::array<std::array<int, 3>, kLines> kLineSpaces{{
    {0, 1, 3},  // L1 {1,2,4} circle
    {4, 1, 2},  // L2 {5,2,3} side
    {2, 3, 5},  // L3 {3,4,6} side
    {5, 0, 4},  // L4 {6,1,5} side
    {1, 6, 5},  // L5 {2,7,6} median
    {3, 6, 4},  // L6 {4,7,5} median
    {0, 6, 2},  // L7 {1,7,3} median
}};
inline constexpr int kCircleLine = 0;

inline constexpr std::array<SpaceMask, kLines> kLineMasks = [] {
  std::array<SpaceMask, kLines> masks{};
  for (int l = 0; l < kLines; ++l)
    for (int s : kLineSpaces[l]) masks[l] |= SpaceMask(1u << s);
  return masks;
}();

enum class Adjacency : std::uint8_t { kBoard, kProjective };

// Neighbour masks for an adjacency reading, derived from the line list.
// Board: consecutive spaces along a straight line, and all pairs of the circle.
// Projective: any two spaces on a common line (every pair, in the Fano plane).
constexpr std::array<SpaceMask, kSpaces> neighbour_masks(Adjacency adjacency) {
  std::array<SpaceMask, kSpaces> nb{};
  auto join = [&](int a, int b) {
    nb[a] |= SpaceMask(1u << b);
    nb[b] |= SpaceMask(1u << a);
  };
  for (int l = 0; l < kLines; ++l) {
    const auto& sp = kLineSpaces[l];
    const bool all_pairs = adjacency == Adjacency::kProjective || l == kCircleLine;
    join(sp[0], sp[1]);
    join(sp[1], sp[2]);
    if (all_pairs) join(sp[0], sp[2]);
  }
  return nb;
}

static_assert(neighbour_masks(Adjacency::kBoard)[6] == 0b0111111, "centre touches all six");
static_assert(neighbour_masks(Adjacency::kProjective)[0] == 0b1111110, "projective is complete");

// Which lines lose (rule 1). The rulebook: three tops of one colour or of one
// shape. The Korean text ("같은 색상의 3조각") names only the colour.
enum class Lines : std::uint8_t { kColourOrShape, kColourOnly };

// The rules as a value: every reading the project solves. Defaults are the
// rulebook's game (the standard variant). Each player has `circles` circles
// and `triangles` triangles (1..3 each); placement ends when all
// 2 * (circles + triangles) pieces are on the board. The state encoding holds
// up to three pieces of a kind per stack byte's distinct slots, so any of
// these fits it. `Variant` is the historical name of the same value.
struct Variant {
  int stack_cap = 2;  // 2 or 3
  Adjacency adjacency = Adjacency::kBoard;
  Lines lines = Lines::kColourOrShape;
  int circles = 2;    // per player, 1..3
  int triangles = 2;  // per player, 1..3

  bool operator==(const Variant&) const = default;
  // Pieces of one kind (colour and shape) in the game.
  constexpr int copies(int shape) const { return shape == 0 ? circles : triangles; }
  // All pieces of both players: the placement phase lasts while fewer are on the board.
  constexpr int total_pieces() const { return 2 * (circles + triangles); }
  // The rulebook's lines and material (only the cap and the adjacency vary).
  constexpr bool rulebook_material_and_lines() const {
    return lines == Lines::kColourOrShape && circles == 2 && triangles == 2;
  }
  // Whether exchanging circles and triangles of both colours maps the game to
  // itself (see rule_symmetries in fano/symmetry.hpp).
  constexpr bool shapes_alike() const { return circles == triangles; }
};

inline constexpr Variant kStandard{2, Adjacency::kBoard};
inline constexpr Variant kCap2Projective{2, Adjacency::kProjective};
inline constexpr Variant kCap3Board{3, Adjacency::kBoard};
inline constexpr Variant kCap3Projective{3, Adjacency::kProjective};
// Every named variant: the standard game first, then by stack cap and adjacency.
inline constexpr std::array<Variant, 4> kAllVariants{kStandard, kCap2Projective, kCap3Board,
                                                     kCap3Projective};

// Every combination of the rules the project tabulates (results/variants.md):
// cap x adjacency x lines x material, material in {1+1, 2+1, 1+2, 2+2, 3+3}
// (circles + triangles per player); the named variants' order within.
std::vector<Variant> all_rule_combinations();
// Every valid rules value (72: cap x adjacency x lines x 1..3 circles x 1..3
// triangles), the named variants first, then by base variant, lines and
// material: the readings `fano serve` loads from its folder and the static
// explorer offers.
std::vector<Variant> every_rules();

// Whether every field is in range: cap 2 or 3, a known adjacency and lines,
// 1..3 circles and triangles.
constexpr bool is_valid_rules(const Variant& v) {
  return (v.stack_cap == 2 || v.stack_cap == 3) && int(v.adjacency) <= 1 && int(v.lines) <= 1 &&
         v.circles >= 1 && v.circles <= 3 && v.triangles >= 1 && v.triangles <= 3;
}

// "colour-or-shape" / "colour"; parse returns false on an unknown name.
std::string_view lines_name(Lines lines);
bool parse_lines(std::string_view name, Lines& out);

// "board" / "projective"; parse returns false on an unknown name.
std::string_view adjacency_name(Adjacency adjacency);
bool parse_adjacency(std::string_view name, Adjacency& out);

// The canonical name, used for default file names: the named variant's slug
// ("standard", "cap2-projective", "cap3-board", "cap3-projective"), then
// "-colour" for colour-only lines, then "-<c>c<t>t" for a material other than
// two circles and two triangles each: "cap3-projective-colour",
// "standard-3c3t", "cap3-board-colour-1c2t".
std::string variant_slug(const Variant& variant);
// Human-readable description: "stack cap 2, board adjacency" (then
// ", colour-only lines" and ", 3 circles and 3 triangles each" when not the rulebook's).
std::string variant_description(const Variant& variant);
// The short name of the HTTP API's v1 routes and the explorer: "standard",
// "projective", "cap3", "cap3-projective", with the same suffixes as the slug.
std::string variant_short_name(const Variant& variant);
// The rules a slug or a short name names, suffixes included (the one place
// names are read: the CLI, the HTTP API, Python and the explorer), or nullopt.
std::optional<Variant> variant_from_name(std::string_view name);
// Why a name is not a rules name (for a one-line error), e.g. "unknown rules
// 'cap4': expected a base name (standard, projective, cap3, ...) with optional
// suffixes -colour and -<c>c<t>t (c, t in 1..3)".
std::string variant_name_error(std::string_view name);

// The edges of a variant's move graph as 1-based pairs (a < b), sorted.
std::vector<std::pair<int, int>> edge_list(Adjacency adjacency);

}  // namespace fano
