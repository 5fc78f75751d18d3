#include "fano/json.hpp"

#include "fano/notation.hpp"

namespace fano {

Json plies_json(Outcome o) { return o.value == Value::kDraw ? Json(nullptr) : Json(o.plies); }

Json outcome_json(Outcome o) {
  return Json{{"value", value_name(o.value)}, {"plies", plies_json(o)}};
}

Json variant_json(const Variant& v) {
  Json out{{"stack_cap", v.stack_cap}, {"adjacency", adjacency_name(v.adjacency)}};
  // The rulebook's lines and material print as before; other rules name theirs.
  if (!v.rulebook_material_and_lines()) {
    out["line_rule"] = lines_name(v.lines);
    out["circles"] = v.circles;
    out["triangles"] = v.triangles;
    out["rules"] = variant_slug(v);
  }
  return out;
}

std::string json_text(const Json& j, int indent) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

Json line_json(int line) {
  Json out = Json::array();
  for (int s : kLineSpaces[line]) out.push_back(s + 1);
  return out;
}

Json game_end_json(const GameEnd& end, State st) {
  return Json{{"reason", end_reason_name(end.reason)},
              {"line", end.line >= 0 ? line_json(end.line) : Json(nullptr)},
              {"loser", end.loser ? Json(colour_name(*end.loser)) : Json(nullptr)},
              {"text", describe_end(end, st)}};
}

}  // namespace fano
