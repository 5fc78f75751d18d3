// JSON serialisation of core's types (nlohmann-json), the one shape every
// front end prints: `fano ... --json`, the HTTP API and the Python module.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "fano/board.hpp"
#include "fano/game.hpp"
#include "fano/value.hpp"

namespace fano {

using Json = nlohmann::ordered_json;  // keys in insertion order: stable, readable output

// The text of a document (one line, or indented); bytes of a string that are
// not UTF-8 (a user's input echoed in an error) become U+FFFD, never an exception.
std::string json_text(const Json& j, int indent = -1);

// null for a draw, else the plies.
Json plies_json(Outcome o);
// {"value": "win", "plies": 5}.
Json outcome_json(Outcome o);
// {"stack_cap": 2, "adjacency": "board"}: the base options, then the others
// and "rules" (the slug) for rules other than the rulebook's lines and material.
Json variant_json(const Variant& v);
struct RulesOption;
// One option's value as JSON: a number or a name ("board").
Json rules_option_json(const RulesOption& option, int code);
// The rules options' description (fano/rules_options.hpp) for front ends that
// build their pickers and help from it: [{"key", "flag", "label", "help",
// "values": [{"value", "help"}], "default", "name_part", "base": part of the
// base name (else a suffix)}].
Json rules_options_json();
// {"options": rules_options_json(), "readings": [{"name", "slug",
// "description", "options": {key: value, every option}, "rules_text": the
// rules in sentences (rules_text)}]} over every_rules():
// `fano rules --json` and the HTTP API's /api/v2/rules (which adds "served").
Json rules_catalog_json();
// {"reachable": .., "placement": .., "movement": .., "canonical": .., "win": ..,
// "loss": .., "draw": ..} of anything holding those counts (a solve's stats, a
// tablebase header).
template <class Counts>
Json position_counts_json(const Counts& c) {
  return Json{{"reachable", c.reachable},
              {"placement", c.placement},
              {"movement", c.movement},
              {"canonical", c.canonical},
              {"win", c.win},
              {"loss", c.loss},
              {"draw", c.draw}};
}
// The spaces of a line, 1-based: [2, 7, 6].
Json line_json(int line);
// {"reason": "line", "line": [2,7,6], "loser": "black", "text": "..."}; `st`
// is the position in which the game ended (for the text).
Json game_end_json(const GameEnd& end, State st);

}  // namespace fano
