#include <iostream>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/notation.hpp"
#include "fano/symmetry.hpp"
#include "fano/table_files.hpp"
#include "fano/tablebase.hpp"

namespace fano::cli {

int cmd_info(const Args& args) {
  po::options_description desc("options");
  add_variant_options(desc);
  add_json_option(desc);
  const auto vm =
      parse("info", "[RULES OPTIONS] [--json]",
            "The variant's lines, edges, collineation group order, the order of "
            "the subgroup that preserves its move graph, the full symmetry group of the "
            "rules that reduces the stored positions (that subgroup times the "
            "circle/triangle swap), and the tables folder used. The rules options: 'fano rules'.",
            desc, nullptr, args);
  if (!vm) return 0;
  const Variant v = variant_from(*vm);
  const auto edges = edge_list(v.adjacency);
  const size_t group = collineations().size();
  const size_t sym = move_graph_symmetries(v.adjacency).size();
  const size_t rule_sym = rule_symmetries(v).size();
  const TableDir tables = default_table_dir();
  // The table actually read (the cache's when the default folder lacks it),
  // and the per-user cache the Python module solves tables into.
  const std::string table = choose_table(std::nullopt, v).path;
  std::string cache;
  try {
    cache = user_cache_dir();
  } catch (const TablebaseError&) {
    // No home folder: no cache.
  }
  if (vm->count("json")) {
    Json o = variant_json(v);
    Json lines = Json::array(), edge_rows = Json::array();
    for (int l = 0; l < kLines; ++l) lines.push_back(line_json(l));
    for (auto [a, b] : edges) edge_rows.push_back({a, b});
    o["lines"] = std::move(lines);
    o["edges"] = std::move(edge_rows);
    o["collineations"] = group;
    o["symmetries"] = sym;
    o["rule_symmetries"] = rule_sym;
    o["tables"] = {{"folder", tables.path}, {"source", tables.source}, {"cache", cache}};
    o["tablebase"] = table;
    print_json(o);
    return 0;
  }
  std::cout << "variant: " << variant_description(v) << " (" << variant_slug(v) << ")\n";
  std::cout << "lines:";
  for (int l = 0; l < kLines; ++l) std::cout << " " << line_name(l);
  std::cout << "\nedges (" << edges.size() << "):";
  for (auto [a, b] : edges) std::cout << " " << a << "-" << b;
  std::cout << "\ncollineations of the Fano plane: " << group
            << "\nsymmetries of the move graph: " << sym
            << "\nsymmetries of the rules (with the circle/triangle swap, used to reduce "
               "positions): "
            << rule_sym << "\n"
            << "tables folder: " << tables.path << " (" << tables.source << ")\n"
            << "cache folder: " << cache << "\n"
            << "tablebase: " << table << "\n";
  return 0;
}

}  // namespace fano::cli
