#include "fano/board.hpp"

#include "fano/notation.hpp"
#include "fano/rules_options.hpp"

namespace fano {

// The names are the rules options' values (fano/rules_options.hpp).
std::string_view adjacency_name(Adjacency adjacency) {
  return find_rules_option("adjacency")->text_of(int(adjacency));
}

bool parse_adjacency(std::string_view name, Adjacency& out) {
  const std::optional<int> code = find_rules_option("adjacency")->parse(name);
  if (code) out = Adjacency(*code);
  return code.has_value();
}

std::string_view lines_name(Lines lines) {
  return find_rules_option("line_rule")->text_of(int(lines));
}

bool parse_lines(std::string_view name, Lines& out) {
  const std::optional<int> code = find_rules_option("line_rule")->parse(name);
  if (code) out = Lines(*code);
  return code.has_value();
}

std::vector<Variant> all_rule_combinations() {
  static constexpr std::array<std::pair<int, int>, 5> kMaterials{
      {{1, 1}, {2, 1}, {1, 2}, {2, 2}, {3, 3}}};
  std::vector<Variant> out;
  for (const Variant& base : kAllVariants)
    for (Lines lines : {Lines::kColourOrShape, Lines::kColourOnly})
      for (const auto& [c, t] : kMaterials) {
        Variant v = base;
        v.lines = lines, v.circles = c, v.triangles = t;
        out.push_back(v);
      }
  return out;
}

std::vector<Variant> every_rules() {
  std::vector<Variant> out(kAllVariants.begin(), kAllVariants.end());
  for (const Variant& base : kAllVariants)
    for (Lines lines : {Lines::kColourOrShape, Lines::kColourOnly})
      for (int c = 1; c <= 3; ++c)
        for (int t = 1; t <= 3; ++t) {
          Variant v = base;
          v.lines = lines, v.circles = c, v.triangles = t;
          if (!v.rulebook_material_and_lines()) out.push_back(v);
        }
  return out;
}

namespace {

// The named variant with v's cap and adjacency (the base of its names).
Variant base_of(const Variant& v) { return Variant{v.stack_cap, v.adjacency}; }

std::string suffixes(const Variant& v) {
  std::string out;
  if (v.lines == Lines::kColourOnly) out += "-colour";
  if (v.circles != 2 || v.triangles != 2) {
    // Character by character: GCC 12 warns falsely (-Wrestrict) on "-" + to_string(...).
    out += '-';
    out += char('0' + v.circles);
    out += 'c';
    out += char('0' + v.triangles);
    out += 't';
  }
  return out;
}

std::string base_slug(const Variant& b) {
  if (b == kStandard) return "standard";
  return "cap" + std::to_string(b.stack_cap) + "-" + std::string(adjacency_name(b.adjacency));
}

std::string base_short_name(const Variant& b) {
  if (b.stack_cap == 2) return b.adjacency == Adjacency::kBoard ? "standard" : "projective";
  return b.adjacency == Adjacency::kBoard ? "cap3" : "cap3-projective";
}

// Applies the suffix tokens of `rest` ("-colour-3c3t") to v; false on an
// unknown, repeated or out-of-range token.
bool apply_suffixes(std::string_view rest, Variant& v) {
  bool seen_lines = false, seen_material = false;
  while (!rest.empty()) {
    if (rest[0] != '-') return false;
    rest.remove_prefix(1);
    const std::size_t dash = rest.find('-');
    const std::string_view token = rest.substr(0, dash);
    rest = dash == std::string_view::npos ? std::string_view() : rest.substr(dash);
    if (token == "colour" && !seen_lines) {
      v.lines = Lines::kColourOnly, seen_lines = true;
    } else if (token.size() == 4 && token[1] == 'c' && token[3] == 't' && token[0] >= '1' &&
               token[0] <= '3' && token[2] >= '1' && token[2] <= '3' && !seen_material) {
      v.circles = token[0] - '0', v.triangles = token[2] - '0', seen_material = true;
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string variant_slug(const Variant& v) { return base_slug(base_of(v)) + suffixes(v); }

std::string variant_short_name(const Variant& v) {
  return base_short_name(base_of(v)) + suffixes(v);
}

std::optional<Variant> variant_from_name(std::string_view name) {
  // The longest base name that is a prefix ("cap3-projective" before "cap3").
  std::optional<Variant> best;
  std::size_t best_len = 0;
  for (const Variant& b : kAllVariants)
    for (const std::string& base : {base_slug(b), base_short_name(b)}) {
      if (name.substr(0, base.size()) != base || base.size() <= best_len) continue;
      Variant v = b;
      if (!apply_suffixes(name.substr(base.size()), v)) continue;
      best = v, best_len = base.size();
    }
  return best;
}

std::string variant_name_error(std::string_view name) {
  return "unknown rules " + quote(name) +
         ": expected standard, projective, cap3, cap3-projective (or the slugs cap2-projective, "
         "cap3-board) with optional suffixes -colour (colour-only lines) and -<c>c<t>t (circles "
         "and triangles per player, 1..3 each), e.g. cap3-projective-colour, standard-3c3t";
}

std::string variant_description(const Variant& v) {
  std::string out = "stack cap " + std::to_string(v.stack_cap) + ", " +
                    std::string(adjacency_name(v.adjacency)) + " adjacency";
  if (v.lines == Lines::kColourOnly) out += ", colour-only lines";
  if (v.circles != 2 || v.triangles != 2)
    out += ", " + std::to_string(v.circles) + (v.circles == 1 ? " circle and " : " circles and ") +
           std::to_string(v.triangles) + (v.triangles == 1 ? " triangle each" : " triangles each");
  return out;
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
