#include "fano/board.hpp"

namespace fano {

std::string_view adjacency_name(Adjacency adjacency) {
  return adjacency == Adjacency::kBoard ? "board" : "projective";
}

bool parse_adjacency(std::string_view name, Adjacency& out) {
  if (name == "board") return out = Adjacency::kBoard, true;
  if (name == "projective") return out = Adjacency::kProjective, true;
  return false;
}

std::string variant_slug(const Variant& v) {
  if (v == kStandard) return "standard";
  return "cap" + std::to_string(v.stack_cap) + "-" + std::string(adjacency_name(v.adjacency));
}

std::string variant_short_name(const Variant& v) {
  if (v.stack_cap == 2) return v.adjacency == Adjacency::kBoard ? "standard" : "projective";
  return v.adjacency == Adjacency::kBoard ? "cap3" : "cap3-projective";
}

std::optional<Variant> variant_from_name(std::string_view name) {
  for (const Variant& v : kAllVariants)
    if (name == variant_short_name(v) || name == variant_slug(v)) return v;
  return std::nullopt;
}

std::string variant_description(const Variant& v) {
  return "stack cap " + std::to_string(v.stack_cap) + ", " +
         std::string(adjacency_name(v.adjacency)) + " adjacency";
}

std::vector<std::pair<int, int>> edge_list(Adjacency adjacency) {
  const auto nb = neighbour_masks(adjacency);
  std::vector<std::pair<int, int>> edges;
  for (int a = 0; a < kSpaces; ++a)
    for (int b = a + 1; b < kSpaces; ++b)
      if (nb[a] >> b & 1) edges.emplace_back(a + 1, b + 1);
  return edges;
}

}  // namespace fano
