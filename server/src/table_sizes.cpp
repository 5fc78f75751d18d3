// What a reading's table takes, known from the rules without solving it
// (fano/background_tables.hpp, known_classes): the stored classes of every
// reading, from results/variants.md's table of every rule combination (each
// reading solved and verified there). The server's tests compare every
// entry with that table, and the smaller readings' with the solver.
#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include "fano/background_tables.hpp"

namespace fano::server {
namespace {

constexpr std::array<std::pair<std::string_view, std::uint64_t>, 72> kClasses{{
    {"standard-1c1t", 832},
    {"standard-1c2t", 21'949},
    {"standard-1c3t", 78'152},
    {"standard-2c1t", 21'949},
    {"standard", 138'125},
    {"standard-2c3t", 738'212},
    {"standard-3c1t", 78'152},
    {"standard-3c2t", 738'212},
    {"standard-3c3t", 926'466},
    {"standard-colour-1c1t", 832},
    {"standard-colour-1c2t", 22'183},
    {"standard-colour-1c3t", 106'478},
    {"standard-colour-2c1t", 22'183},
    {"standard-colour", 147'767},
    {"standard-colour-2c3t", 1'101'277},
    {"standard-colour-3c1t", 106'478},
    {"standard-colour-3c2t", 1'101'277},
    {"standard-colour-3c3t", 1'466'596},
    {"cap2-projective-1c1t", 56},
    {"cap2-projective-1c2t", 965},
    {"cap2-projective-1c3t", 3'308},
    {"cap2-projective-2c1t", 965},
    {"cap2-projective", 5'459},
    {"cap2-projective-2c3t", 29'209},
    {"cap2-projective-3c1t", 3'308},
    {"cap2-projective-3c2t", 29'209},
    {"cap2-projective-3c3t", 34'501},
    {"cap2-projective-colour-1c1t", 56},
    {"cap2-projective-colour-1c2t", 972},
    {"cap2-projective-colour-1c3t", 4'334},
    {"cap2-projective-colour-2c1t", 972},
    {"cap2-projective-colour", 5'707},
    {"cap2-projective-colour-2c3t", 42'667},
    {"cap2-projective-colour-3c1t", 4'334},
    {"cap2-projective-colour-3c2t", 42'667},
    {"cap2-projective-colour-3c3t", 54'846},
    {"cap3-board-1c1t", 1'038},
    {"cap3-board-1c2t", 36'253},
    {"cap3-board-1c3t", 203'864},
    {"cap3-board-2c1t", 36'253},
    {"cap3-board", 420'579},
    {"cap3-board-2c3t", 5'773'957},
    {"cap3-board-3c1t", 203'864},
    {"cap3-board-3c2t", 5'773'957},
    {"cap3-board-3c3t", 20'832'358},
    {"cap3-board-colour-1c1t", 1'038},
    {"cap3-board-colour-1c2t", 36'469},
    {"cap3-board-colour-1c3t", 248'629},
    {"cap3-board-colour-2c1t", 36'469},
    {"cap3-board-colour", 429'254},
    {"cap3-board-colour-2c3t", 6'956'712},
    {"cap3-board-colour-3c1t", 248'629},
    {"cap3-board-colour-3c2t", 6'956'712},
    {"cap3-board-colour-3c3t", 29'923'432},
    {"cap3-projective-1c1t", 78},
    {"cap3-projective-1c2t", 1'724},
    {"cap3-projective-1c3t", 8'518},
    {"cap3-projective-2c1t", 1'724},
    {"cap3-projective", 16'515},
    {"cap3-projective-2c3t", 223'496},
    {"cap3-projective-3c1t", 8'518},
    {"cap3-projective-3c2t", 223'496},
    {"cap3-projective-3c3t", 819'792},
    {"cap3-projective-colour-1c1t", 78},
    {"cap3-projective-colour-1c2t", 1'738},
    {"cap3-projective-colour-1c3t", 10'208},
    {"cap3-projective-colour-2c1t", 1'738},
    {"cap3-projective-colour", 16'768},
    {"cap3-projective-colour-2c3t", 260'706},
    {"cap3-projective-colour-3c1t", 10'208},
    {"cap3-projective-colour-3c2t", 260'706},
    {"cap3-projective-colour-3c3t", 1'118'346},
}};

}  // namespace

std::optional<std::uint64_t> known_classes(const Variant& v) {
  const std::string slug = variant_slug(v);
  const auto at = std::find_if(kClasses.begin(), kClasses.end(),
                               [&](const auto& entry) { return entry.first == slug; });
  if (at == kClasses.end()) return std::nullopt;
  return at->second;
}

}  // namespace fano::server
