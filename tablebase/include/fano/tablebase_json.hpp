#pragma once

#include "fano/json.hpp"
#include "fano/tablebase.hpp"

namespace fano {

// The header as one JSON object: format version, variant fields, symmetry
// order, the position counts and the checksum (a number). Shared by the
// server's info, the Python module's header and `fano info --tb`.
Json header_json(const TablebaseHeader& h);

}  // namespace fano
