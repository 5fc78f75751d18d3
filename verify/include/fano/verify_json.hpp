// JSON of the verification reports (`fano verify --json`), one serialisation each.
#pragma once

#include <span>
#include <string>

#include "fano/json.hpp"
#include "fano/verify.hpp"

namespace fano::verify {

// The whole-table check; `path` names the file checked.
Json tablebase_report_json(const TablebaseReport& r, const std::string& path);

// A published perft table against the computed counts.
Json perft_report_json(const PerftTable& table, std::span<const PerftCheck> checks,
                       const Variant& v, const std::string& path, double seconds);

// Game records replayed against a table.
Json records_report_json(std::span<const RecordReport> records, const Variant& v,
                         const std::string& path, double seconds);

}  // namespace fano::verify
