#include <iostream>
#include <sstream>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/notation.hpp"
#include "fano/symmetry.hpp"

namespace fano::cli {

int cmd_info(const Args& args) {
  po::options_description desc("options");
  add_variant_options(desc);
  desc.add_options()("json", "print JSON");
  const auto vm = parse("info", "[--stack-cap 2|3] [--adjacency board|projective] [--json]",
                        "The variant's lines, edges, collineation group order and the order of "
                        "the subgroup that preserves its move graph.",
                        desc, nullptr, args);
  if (!vm) return 0;
  const Variant v = variant_from(*vm);
  const auto edges = edge_list(v.adjacency);
  const size_t group = collineations().size();
  const size_t sym = move_graph_symmetries(v.adjacency).size();
  if (vm->count("json")) {
    std::ostringstream o;
    o << "{\"stack_cap\":" << v.stack_cap
      << ",\"adjacency\":" << json_string(adjacency_name(v.adjacency)) << ",\"lines\":[";
    for (int l = 0; l < kLines; ++l) {
      o << (l ? "," : "") << "[";
      for (int i = 0; i < 3; ++i) o << (i ? "," : "") << kLineSpaces[l][i] + 1;
      o << "]";
    }
    o << "],\"edges\":[";
    for (size_t i = 0; i < edges.size(); ++i)
      o << (i ? "," : "") << "[" << edges[i].first << "," << edges[i].second << "]";
    o << "],\"collineations\":" << group << ",\"symmetries\":" << sym << "}";
    std::cout << o.str() << "\n";
    return 0;
  }
  std::cout << "variant: " << variant_description(v) << " (" << variant_slug(v) << ")\n";
  std::cout << "lines:";
  for (int l = 0; l < kLines; ++l) std::cout << " " << line_name(l);
  std::cout << "\nedges (" << edges.size() << "):";
  for (auto [a, b] : edges) std::cout << " " << a << "-" << b;
  std::cout << "\ncollineations of the Fano plane: " << group
            << "\nsymmetries of the move graph: " << sym << "\n";
  return 0;
}

}  // namespace fano::cli
