#include "fano/analysis_json.hpp"
#include "fano/notation.hpp"

namespace fano {

Json rated_move_json(const RatedMove& m) {
  const bool placement = m.move.is_placement();
  return Json{
      {"move", format_move(m.move)},
      // The spaces and the piece of the move, so that a client matches a click
      // on the board to a move without parsing the notation.
      {"from", placement ? Json(nullptr) : Json(m.move.from + 1)},
      {"to", m.move.to + 1},
      {"shape", placement ? Json(shape_of(m.move.piece) == Shape::kCircle ? "circle" : "triangle")
                          : Json(nullptr)},
      {"position", format_position(m.child)},
      {"result", value_name(m.result.value)},
      {"plies", plies_json(m.result)},
      {"repeats", m.repeats},
      {"trap",
       m.trap ? Json{{"errors", m.trap->errors}, {"choices", m.trap->choices}} : Json(nullptr)}};
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
      {"pv_continues_drawn", r.pv_continues_drawn},
      {"history_note", r.history_note.empty() ? Json(nullptr) : Json(r.history_note)},
  };
}

Outcome after_move(Outcome mover) {
  if (mover.value == Value::kDraw) return mover;
  return Outcome{mover.value == Value::kWin ? Value::kLoss : Value::kWin,
                 std::uint16_t(mover.plies - 1)};
}

Json player_levels_json() {
  Json list = Json::array();
  for (const PlayerLevel& p : player_levels())
    list.push_back({{"name", p.name},
                    {"label", p.label},
                    {"rating", p.rating},
                    {"interval", Json::array({p.low, p.high})},
                    {"description", p.description}});
  return Json{{"players", std::move(list)}};
}

Json principal_variation_json(const PositionReport& r) {
  Json line = Json::array();
  Outcome mover = r.value;  // the first mover is the side to move
  for (std::size_t i = 0; i < r.pv.size(); ++i) {
    line.push_back({{"move", format_move(r.pv[i])},
                    {"position", format_position(r.pv_positions[i])},
                    {"result", value_name(mover.value)},
                    {"plies", plies_json(mover)}});
    mover = after_move(mover);
  }
  const State last = r.pv_positions.empty() ? r.position : r.pv_positions.back();
  return Json{{"position", format_position(r.position)},
              {"to_move", colour_name(r.position.to_move())},
              {"value", value_name(r.value.value)},
              {"plies", plies_json(r.value)},
              {"mainline", std::move(line)},
              {"end", r.pv_end ? game_end_json(*r.pv_end, last) : Json(nullptr)},
              {"continues_drawn", r.pv_continues_drawn},
              {"winner", r.pv_end && r.pv_end->loser ? Json(colour_name(opponent(*r.pv_end->loser)))
                                                     : Json(nullptr)}};
}

Json engine_game_json(const EngineGame& g) {
  const GameRecord& game = g.game;
  Json moves = Json::array();
  for (std::size_t i = 0; i < g.results.size(); ++i) {
    const std::size_t ply = g.first_ply + i;
    moves.push_back({{"ply", ply + 1},
                     {"move", format_move(game.moves()[ply])},
                     {"mover", colour_name(game.positions()[ply].to_move())},
                     {"result", value_name(g.results[i].value)},
                     {"plies", plies_json(g.results[i])},
                     {"position", format_position(game.positions()[ply + 1])}});
  }
  const auto end = game.end();
  return Json{
      {"variant", variant_json(game.rules().variant)},
      {"start", format_position(game.start())},
      {"moves", std::move(moves)},
      {"move_list", game.move_list()},
      {"end", end ? game_end_json(*end, game.current()) : Json(nullptr)},
      {"winner", end && end->loser ? Json(colour_name(opponent(*end->loser))) : Json(nullptr)}};
}

namespace {

Json moves_json(const std::vector<Move>& moves) {
  Json out = Json::array();
  for (const Move& m : moves) out.push_back(format_move(m));
  return out;
}

Json result_json(Outcome o) {
  return Json{{"result", value_name(o.value)}, {"plies", plies_json(o)}};
}

Json reviewed_ply_json(const ReviewedPly& p, State after) {
  const bool changed = p.before.value != p.after.value;
  const State refutation_last = [&] {
    State s = after;
    for (const Move& m : p.refutation) s = apply_move(s, m);
    return s;
  }();
  return Json{{"ply", p.ply},
              {"mover", colour_name(p.position.to_move())},
              {"move", format_move(p.move)},
              {"position", format_position(p.position)},
              {"position_after", format_position(after)},
              {"before", result_json(p.before)},
              {"after", result_json(p.after)},
              {"repeats", p.repeats},
              {"mistake", p.mistake},
              {"decisive", p.decisive},
              {"mark", p.mistake ? Json(changed ? "??" : "?") : Json(nullptr)},
              {"best", p.mistake ? moves_json(p.best) : Json(nullptr)},
              {"refutation", p.mistake ? moves_json(p.refutation) : Json(nullptr)},
              {"refutation_end", p.mistake && p.refutation_end
                                     ? game_end_json(*p.refutation_end, refutation_last)
                                     : Json(nullptr)},
              {"refutation_close",
               p.mistake && !p.refutation.empty() ? Json(p.refutation_close) : Json(nullptr)},
              {"text", p.mistake ? Json(p.text) : Json(nullptr)}};
}

}  // namespace

Json review_json(const GameReview& r) {
  const GameRecord& game = r.game;
  const Variant& v = game.rules().variant;
  Json j{{"variant", variant_slug(v)}};
  j.update(variant_json(v));
  j["start"] = format_position(game.start());
  j["moves_played"] = moves_json(game.moves());
  const State last = game.current();
  j["end"] = Json{{"over", r.end.has_value()},
                  {"text", review_end_text(r)},
                  {"winner", r.end && r.end->loser ? Json(colour_name(opponent(*r.end->loser)))
                                                   : Json(nullptr)},
                  {"to_move", colour_name(last.to_move())},
                  {"value", value_name(r.end_value.value)},
                  {"plies", plies_json(r.end_value)},
                  {"game_over", r.end ? game_end_json(*r.end, last) : Json(nullptr)}};
  j["mistakes"] = Json{{"white", r.mistakes[std::size_t(Colour::kWhite)]},
                       {"black", r.mistakes[std::size_t(Colour::kBlack)]}};
  j["first_decisive"] = r.first_decisive ? Json(*r.first_decisive) : Json(nullptr);
  Json plies = Json::array();
  for (const ReviewedPly& p : r.plies)
    plies.push_back(reviewed_ply_json(p, game.positions()[p.ply]));
  j["plies"] = std::move(plies);
  return j;
}

Json strategy_check_json(const StrategyCheck& c) {
  Json refutation = nullptr;
  if (c.refutation) {
    const StrategyRefutation& r = *c.refutation;
    Json moves = Json::array(), positions = Json::array();
    for (const Move& m : r.moves) moves.push_back(format_move(m));
    for (const State s : r.positions) positions.push_back(format_position(s));
    refutation = Json{
        {"plies", r.moves.size()},
        {"moves", std::move(moves)},
        {"positions", std::move(positions)},
        {"end", r.uncovered
                    ? Json(nullptr)
                    : game_end_json(r.end, r.positions.empty() ? c.start : r.positions.back())},
        {"allowed_with_history", r.allowed_with_history},
        {"uncovered",
         r.uncovered ? Json(format_position(r.positions.empty() ? c.start : r.positions.back()))
                     : Json(nullptr)}};
  }
  return Json{{"rules", variant_slug(c.variant)},
              {"variant", variant_json(c.variant)},
              {"start", format_position(c.start)},
              {"follower", colour_name(c.follower)},
              {"rule", c.rule},
              {"target", value_name(c.target)},
              {"holds", c.holds},
              {"decided", c.decided},
              {"refutation", std::move(refutation)},
              {"positions", c.positions},
              {"follower_positions", c.follower_positions}};
}

Json lookahead_json(const LookaheadResult& r, int max_depth) {
  Json checks = Json::array();
  for (const StrategyCheck& c : r.checks) checks.push_back(strategy_check_json(c));
  return Json{{"side", colour_name(r.side)},
              {"target", value_name(r.target)},
              {"needed", r.needed ? Json(*r.needed) : Json(nullptr)},
              {"max_depth", max_depth},
              {"checks", std::move(checks)}};
}

Json strategy_size_json(const StrategySize& s) {
  return Json{{"placement", s.placement},
              {"movement", s.movement},
              {"decisions", s.decisions()},
              {"placement_classes", s.placement_classes},
              {"movement_classes", s.movement_classes},
              {"classes", s.classes()},
              {"reached", s.reached}};
}

Json small_strategy_json(const SmallStrategy& s) {
  return Json{{"follower", colour_name(s.follower)},
              {"baseline", strategy_size_json(s.baseline)},
              {"greedy", strategy_size_json(s.greedy)},
              {"smallest", strategy_size_json(s.smallest)},
              {"passes", s.passes},
              {"restarts", s.restarts},
              {"trials", s.trials},
              {"improvements", s.improvements}};
}

Json rule_list_json(const RuleListResult& r) {
  return Json{{"list", r.list},
              {"size", strategy_size_json(r.size)},
              {"placement_exceptions", r.placement_exceptions},
              {"movement_exceptions", r.movement_exceptions},
              {"placement_exception_classes", r.placement_exception_classes},
              {"movement_exception_classes", r.movement_exception_classes},
              {"placement_losing_in_smallest", r.placement_losing_in_smallest},
              {"movement_losing_in_smallest", r.movement_losing_in_smallest}};
}

Json single_draw_json(const SingleDrawReport& r, std::size_t limit) {
  Json openings = Json::array();
  for (std::size_t i = 0; i < r.openings.size() && i < limit; ++i) {
    const SingleDrawOpening& o = r.openings[i];
    Json line = Json::array(), others = Json::array();
    for (const Move& m : o.line) line.push_back(format_move(m));
    for (const auto& [m, result] : o.others)
      others.push_back({{"move", format_move(m)},
                        {"result", value_name(result.value)},
                        {"plies", plies_json(result)}});
    openings.push_back({{"ply", o.line.size()},
                        {"line", std::move(line)},
                        {"position", format_position(o.position)},
                        {"to_move", colour_name(o.position.to_move())},
                        {"move", format_move(o.move)},
                        {"others", std::move(others)}});
  }
  return Json{{"plies", r.plies},
              {"drawn_by_ply", r.drawn_by_ply},
              {"single_by_ply", r.single_by_ply},
              {"single_classes_by_ply", r.single_classes_by_ply},
              {"openings", std::move(openings)}};
}

Json decision_stats_json(const DecisionStats& s) {
  return Json{{"decisions", s.decisions},
              {"to_keep", s.to_keep},
              {"one_way", s.one_way},
              {"moves", s.moves},
              {"lose_at_once", s.lose_at_once}};
}

Json trap_report_json(const TrapReport& r) {
  Json ranked = Json::array();
  for (const Trap& t : r.ranked)
    ranked.push_back({{"position", format_position(t.position)},
                      {"to_move", colour_name(t.position.to_move())},
                      {"value", value_name(t.value.value)},
                      {"plies", plies_json(t.value)},
                      {"move", format_move(t.move)},
                      {"loses_in", t.result.plies},
                      {"keeping", t.keeping},
                      {"moves", t.moves},
                      {"looks_safe", t.looks_safe}});
  return Json{{"depth", r.depth},
              {"to_keep", r.to_keep},
              {"traps", r.traps},
              {"ranked", std::move(ranked)}};
}

Json puzzle_json(const Variant& variant, std::uint64_t seed, const Puzzle& p) {
  return Json{{"variant", variant_slug(variant)},
              {"seed", seed},
              {"position", format_position(p.position)},
              {"to_move", colour_name(p.position.to_move())},
              {"value", value_name(p.value.value)},
              {"plies", plies_json(p.value)},
              {"moves", p.moves},
              {"tempting", p.trap.tempting},
              {"trap_plies", p.trap.depth},
              {"difficulty", std::string(grade_name(p.grade))},
              {"solution", format_move(p.solution)}};
}

Json table_stats_json(const Tablebase& tb, const TableStats& stats) {
  Json rows = Json::array();
  for (const auto& [plies, n] : stats.by_plies)
    rows.push_back({{"plies", plies}, {"win", n[0]}, {"loss", n[1]}});
  Json wins = Json::array();
  for (const PositionReport& r : stats.longest_wins) {
    Json line = Json::array();
    for (const Move& m : r.pv) line.push_back(format_move(m));
    wins.push_back({{"position", format_position(r.position)},
                    {"value", value_name(r.value.value)},
                    {"plies", plies_json(r.value)},
                    {"line", std::move(line)}});
  }
  const TablebaseHeader& h = tb.header();
  return Json{{"variant", variant_slug(tb.variant())},
              {"classes", tb.size()},
              {"positions",
               {{"reachable", h.reachable}, {"win", h.win}, {"draw", h.draw}, {"loss", h.loss}}},
              {"draw_classes", stats.draw_classes},
              {"by_plies", std::move(rows)},
              {"longest_wins", std::move(wins)}};
}

}  // namespace fano
