#include "fano/notation.hpp"
#include "fano/verify_json.hpp"

namespace fano::verify {
namespace {

Json finding_json(const std::optional<Finding>& f) {
  if (!f) return nullptr;
  return Json{{"category", category_name(f->category)},
              {"position", f->position ? Json(*f->position) : Json(nullptr)},
              {"problem", f->problem}};
}

Json with_variant(Json head, const Variant& v) {
  head.update(variant_json(v));
  return head;
}

}  // namespace

Json tablebase_report_json(const TablebaseReport& r, const std::string& path) {
  Json o = with_variant(Json{{"tablebase", path}}, r.variant);
  o["positions"] = r.classes;
  o["reachable"] = r.recount.reachable;
  o["errors"] = r.errors;
  o["checksum_ok"] = r.checksum_ok;
  for (int c = 0; c < kCategories; ++c) {
    std::string key(category_name(Category(c)));
    for (char& ch : key)
      if (ch == ' ') ch = '_';
    o[key + "_ok"] = r.categories[c].errors == 0;
  }
  o["first_error"] = finding_json(r.first_error);
  o["start"] = r.start ? outcome_json(*r.start) : Json(nullptr);
  Json losing = Json::array();
  for (const FirstMove& f : r.first_moves)
    if (f.result.value == Value::kLoss)
      losing.push_back({{"move", format_move(f.move)}, {"plies", f.result.plies}});
  o["losing_first_moves"] = std::move(losing);
  o["longest_win"] =
      r.longest_win ? Json{{"plies", r.longest_win->plies}, {"position", r.longest_win_position}}
                    : Json(nullptr);
  o["seconds"] = r.seconds;
  return o;
}

Json perft_report_json(const PerftTable& table, std::span<const PerftCheck> checks,
                       const Variant& v, const std::string& path, double seconds) {
  Json o = with_variant(Json{{"file", path}}, v);
  o["counts"] = perft_reading_name(table.reading);
  o["expand_ended"] = table.expand_ended;
  Json depths = Json::array();
  bool all = true;
  for (const PerftCheck& c : checks) {
    depths.push_back({{"depth", c.depth},
                      {"line", c.line},
                      {"published", c.published},
                      {"computed", c.computed},
                      {"reading", perft_reading_name(c.reading)},
                      {"match", c.match()}});
    all = all && c.match();
  }
  o["depths"] = std::move(depths);
  o["all_match"] = all;
  o["seconds"] = seconds;
  return o;
}

Json record_json(const RecordReport& r, const Variant& v) {
  Json l{{"line", r.line}, {"record", r.record}, {"legal", r.legal}};
  l["illegal"] =
      r.illegal
          ? Json{{"ply", r.illegal->ply}, {"move", r.illegal->move}, {"reason", r.illegal->reason}}
          : Json(nullptr);
  l["ended_at"] = r.ended_at ? Json(*r.ended_at) : Json(nullptr);
  l["game_over"] = r.game_over.empty() ? Json(nullptr) : Json(r.game_over);
  l["end"] = r.end ? game_end_json(*r.end, parse_position(r.final_position, v)) : Json(nullptr);
  l["final_position"] = r.final_position;
  l["value"] = r.value ? Json(value_name(r.value->value)) : Json(nullptr);
  l["plies"] = r.value ? plies_json(*r.value) : Json(nullptr);
  l["table_value"] = r.table_value ? Json(value_name(r.table_value->value)) : Json(nullptr);
  l["table_plies"] = r.table_value ? plies_json(*r.table_value) : Json(nullptr);
  l["first_mistake"] = r.first_mistake ? Json{{"ply", r.first_mistake->ply},
                                              {"move", r.first_mistake->move},
                                              {"from", value_name(r.first_mistake->from)},
                                              {"to", value_name(r.first_mistake->to)},
                                              {"before", outcome_json(r.first_mistake->before)},
                                              {"after", outcome_json(r.first_mistake->after)}}
                                       : Json(nullptr);
  l["winning_moves"] = r.winning_moves ? Json(*r.winning_moves) : Json(nullptr);
  l["claimed"] = r.claim ? Json(claim_text(*r.claim)) : Json(nullptr);
  l["claim"] = r.claim_holds ? Json(*r.claim_holds ? "holds" : "fails") : Json(nullptr);
  return l;
}

std::string records_report_json_head(const Variant& v, const std::string& path) {
  std::string head = json_text(with_variant(Json{{"file", path}}, v));
  head.pop_back();  // the closing '}': the lines follow
  return head + ",\"lines\":[";
}

std::string records_report_json_tail(std::size_t records, std::size_t illegal,
                                     std::size_t claims_failed, double seconds) {
  const std::string tail = json_text(Json{{"records", records},
                                          {"illegal", illegal},
                                          {"claims_failed", claims_failed},
                                          {"seconds", seconds}});
  return "]," + tail.substr(1);  // without its opening '{'
}

Json records_report_json(std::span<const RecordReport> records, const Variant& v,
                         const std::string& path, double seconds) {
  Json o = with_variant(Json{{"file", path}}, v);
  Json lines = Json::array();
  std::size_t illegal = 0, failed = 0;
  for (const RecordReport& r : records) {
    illegal += !r.legal;
    failed += r.claim_holds && !*r.claim_holds;
    lines.push_back(record_json(r, v));
  }
  o["lines"] = std::move(lines);
  o["records"] = records.size();
  o["illegal"] = illegal;
  o["claims_failed"] = failed;
  o["seconds"] = seconds;
  return o;
}

}  // namespace fano::verify
