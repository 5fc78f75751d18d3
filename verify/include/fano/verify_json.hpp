// JSON of the verification reports (`fano verify --json`), one serialisation each.
#pragma once

#include <cstddef>
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

// The same document printed while the records are read (memory bounded
// whatever the input): the head, each record's object separated by ',', and
// the tail give the bytes of json_text(records_report_json(...)).
std::string records_report_json_head(const Variant& v, const std::string& path);
Json record_json(const RecordReport& r, const Variant& v);
std::string records_report_json_tail(std::size_t records, std::size_t illegal,
                                     std::size_t claims_failed, double seconds);

}  // namespace fano::verify
