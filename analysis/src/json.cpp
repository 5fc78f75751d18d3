#include "fano/analysis_json.hpp"
#include "fano/notation.hpp"

namespace fano {

Json rated_move_json(const RatedMove& m) {
  return Json{{"move", format_move(m.move)},
              {"position", format_position(m.child)},
              {"result", value_name(m.result.value)},
              {"plies", plies_json(m.result)},
              {"repeats", m.repeats}};
}

Json report_json(const PositionReport& r) {
  Json moves = Json::array();
  for (const RatedMove& m : r.moves) moves.push_back(rated_move_json(m));
  Json pv = Json::array();
  for (const Move& m : r.pv) pv.push_back(format_move(m));
  const State pv_last = r.pv_positions.empty() ? r.position : r.pv_positions.back();
  return Json{
      {"position", format_position(r.position)},
      {"to_move", colour_name(r.position.to_move())},
      {"value", value_name(r.value.value)},
      {"plies", plies_json(r.value)},
      {"table_value", value_name(r.table_value.value)},
      {"table_plies", plies_json(r.table_value)},
      {"game_over", r.game_over ? game_end_json(*r.game_over, r.position) : Json(nullptr)},
      {"moves", std::move(moves)},
      {"engine_move",
       r.engine_choice ? Json(format_move(r.moves[*r.engine_choice].move)) : Json(nullptr)},
      {"pv", std::move(pv)},
      {"pv_end", r.pv_end ? game_end_json(*r.pv_end, pv_last) : Json(nullptr)},
      {"history_note", r.history_note.empty() ? Json(nullptr) : Json(r.history_note)},
  };
}

}  // namespace fano
