#include "fano/symmetry.hpp"

#include <algorithm>
#include <numeric>

namespace fano {
namespace {

bool maps_lines_to_lines(const Permutation& p) {
  for (SpaceMask lm : kLineMasks) {
    SpaceMask img = 0;
    for (int s = 0; s < kSpaces; ++s)
      if (lm >> s & 1) img |= SpaceMask(1u << p[s]);
    if (std::find(kLineMasks.begin(), kLineMasks.end(), img) == kLineMasks.end()) return false;
  }
  return true;
}

}  // namespace

const std::vector<Permutation>& collineations() {
  static const std::vector<Permutation> group = [] {
    std::vector<Permutation> out;
    Permutation p;
    std::iota(p.begin(), p.end(), std::uint8_t(0));
    do {
      if (maps_lines_to_lines(p)) out.push_back(p);
    } while (std::next_permutation(p.begin(), p.end()));
    return out;
  }();
  return group;
}

std::vector<Permutation> move_graph_symmetries(Adjacency adjacency) {
  const auto nb = neighbour_masks(adjacency);
  std::vector<Permutation> out;
  for (const Permutation& p : collineations()) {
    bool ok = true;
    for (int a = 0; a < kSpaces && ok; ++a)
      for (int b = 0; b < kSpaces && ok; ++b)
        if ((nb[a] >> b & 1) != (nb[p[a]] >> p[b] & 1)) ok = false;
    if (ok) out.push_back(p);
  }
  return out;
}

Symmetry::Symmetry(Adjacency adjacency) : group_(move_graph_symmetries(adjacency)) {}

int Symmetry::orbit_size(State st) const {
  std::vector<std::uint64_t> images;
  images.reserve(group_.size());
  for (const Permutation& p : group_) images.push_back(permute(st, p).code);
  std::sort(images.begin(), images.end());
  return int(std::unique(images.begin(), images.end()) - images.begin());
}

}  // namespace fano
