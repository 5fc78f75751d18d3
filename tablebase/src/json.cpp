#include "fano/tablebase_json.hpp"

namespace fano {

Json header_json(const TablebaseHeader& h) {
  const Variant v{h.stack_cap, Adjacency(h.adjacency)};
  Json o{{"version", h.version}};
  o.update(variant_json(v));
  o["symmetry_order"] = h.symmetry_order;
  o.update(position_counts_json(h));
  o["checksum"] = h.checksum;
  return o;
}

}  // namespace fano
