#include "fano/json.hpp"

#include "fano/notation.hpp"
#include "fano/rules_options.hpp"
#include "fano/rules_text.hpp"

namespace fano {

Json plies_json(Outcome o) { return o.value == Value::kDraw ? Json(nullptr) : Json(o.plies); }

Json outcome_json(Outcome o) {
  return Json{{"value", value_name(o.value)}, {"plies", plies_json(o)}};
}

Json variant_json(const Variant& v) {
  Json out = Json::object();
  // The rulebook's lines and material print only the base options; other
  // rules name every option and their slug.
  for (const RulesOption& option : rules_options())
    if (option.base || !v.rulebook_material_and_lines())
      out[std::string(option.key)] = rules_option_json(option, option.get(v));
  if (!v.rulebook_material_and_lines()) out["rules"] = variant_slug(v);
  return out;
}

Json rules_option_json(const RulesOption& option, int code) {
  return option.numeric ? Json(code) : Json(std::string(option.text_of(code)));
}

Json rules_options_json() {
  Json out = Json::array();
  for (const RulesOption& option : rules_options()) {
    Json values = Json::array();
    for (const RulesOptionValue& value : option.values)
      values.push_back({{"value", rules_option_json(option, value.code)}, {"help", value.help}});
    out.push_back({{"key", option.key},
                   {"flag", "--" + std::string(option.flag)},
                   {"label", option.label},
                   {"help", option.help},
                   {"values", values},
                   {"default", rules_option_json(option, option.default_code)},
                   {"name_part", option.name_part},
                   {"base", option.base}});
  }
  return out;
}

Json rules_catalog_json() {
  Json readings = Json::array();
  for (const Variant& v : every_rules()) {
    Json options = Json::object();  // every option, the rulebook's values too
    for (const RulesOption& option : rules_options())
      options[std::string(option.key)] = rules_option_json(option, option.get(v));
    readings.push_back({{"name", variant_short_name(v)},
                        {"slug", variant_slug(v)},
                        {"description", variant_description(v)},
                        {"options", options},
                        {"rules_text", rules_text(v)}});
  }
  return Json{{"options", rules_options_json()}, {"readings", readings}};
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
