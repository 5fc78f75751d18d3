#include "fano/tablebase_json.hpp"

namespace fano {

Json header_json(const TablebaseHeader& h) {
  // A damaged header's fields as they are (the base options), else its rules.
  const Variant v = header_variant(h).value_or(Variant{h.stack_cap, Adjacency(h.adjacency)});
  Json o{{"version", h.version}};
  o.update(variant_json(v));
  o["symmetry_order"] = h.symmetry_order;
  o.update(position_counts_json(h));
  o["checksum"] = h.checksum;
  return o;
}

}  // namespace fano
