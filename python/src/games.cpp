// fano.Game (a game in progress in the shape of OpenSpiel's pyspiel.State:
// integer actions with a fixed mapping to moves, rule 3 by history), and
// fano.grade (a player's moves judged against the table, the selfplay
// library's grade_player).
#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"
#include "fano/actions.hpp"
#include "fano/analysis_json.hpp"
#include "fano/game.hpp"
#include "fano/grade.hpp"
#include "fano/json.hpp"
#include "fano/notation.hpp"
#include "fano/players.hpp"
#include "fano/review.hpp"
#include "fano/svg.hpp"

namespace fano::python {

namespace {

// An action from Python: an int (not a bool), any size; one outside the
// actions is said to be out of range, however large.
long long action_arg(const py::handle& action) {
  const py::object i = PyBool_Check(action.ptr()) ? py::object() : as_int(action.ptr());
  if (!i) throw py::type_error("action must be an int action, not " + type_name(action));
  int overflow = 0;
  const long long a = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow || a < 0 || a >= kDistinctActions)
    throw py::value_error("action " +
                          (overflow ? std::string(overflow < 0 ? "below -2**63" : "above 2**63")
                                    : std::to_string(a)) +
                          " is out of range (0.." + std::to_string(kDistinctActions - 1) + ")");
  return a;
}

// A move as the player writes it, as an action: "C4" and "c4" both place a
// circle on 4 (the mover's colour is the position's).
int action_of_text(const std::string& text) { return action_of(parse_move_text(text)); }

PyGame new_game(const VariantArg& v, const std::optional<Position>& position,
                const std::optional<MovesArg>& moves) {
  const Rules rules(v);
  State start = kEmptyBoard;
  if (position) {
    if (!(position->variant == v.v))
      throw py::value_error("position " + position_repr(*position) + " is not of the variant " +
                            variant_repr(v));
    start = position->state;
  }
  if (moves) return PyGame{GameRecord::from_moves(rules, start, moves_text(*moves)), v};
  return PyGame{GameRecord(rules, start), v};
}

py::object game_end_dict(const PyGame& g) {
  const auto end = g.record.end();
  if (!end) return py::none();
  return to_python(game_end_json(*end, g.record.current()));
}

py::array_t<float> observation_array(const PyGame& g) {
  require_numpy();
  py::array_t<float> out(
      {py::ssize_t(kObservationPlanes), py::ssize_t(kSpaces), py::ssize_t(kMaxStackCap)});
  const auto planes = observation(g.record.current());
  std::copy(planes.begin(), planes.end(), out.mutable_data());
  return out;
}

std::string game_svg(const PyGame& g) {
  SvgOptions options = svg_options_for(g.record);
  options.variant = g.variant;
  return board_svg(g.record.current(), options);
}

// The graded player's move from a Python callable: an action (int) or a move
// in notation (str).
py::value_error illegal_move(const GameRecord& game, const std::string& what) {
  const std::string where = format_position(game.current());
  return py::value_error(what.find(where) != std::string::npos
                             ? "the player's move: " + what
                             : "the player's move in " + where + ": " + what);
}

// A move that is not legal there is refused naming the position.
Move python_move(const py::object& player, const GameRecord& game, const Variant& v) {
  const py::object got = player(PyGame{game, v});
  try {
    if (py::isinstance<py::str>(got)) {
      GameRecord copy = game;
      return copy.play(got.cast<std::string>());
    }
    return move_of_action(game, action_arg(got));
  } catch (const NotationError& e) {
    throw illegal_move(game, e.what());
  } catch (const std::invalid_argument& e) {
    throw illegal_move(game, e.what());
  } catch (const py::value_error& e) {
    throw illegal_move(game, e.what());
  }
}

// Game.review: the game's review from the table given, or the variant's default one.
py::object game_review(const PyGame& g, const py::object& table) {
  std::optional<PyTablebase> opened;
  const PyTablebase* t = table.is_none() ? nullptr : &table.cast<const PyTablebase&>();
  if (!t) t = &opened.emplace(open_table(std::nullopt, VariantArg{g.variant}, true));
  if (!(t->variant == g.variant))
    throw py::value_error("the game is of the variant " + variant_repr(g.variant) +
                          ", the table of " + variant_repr(t->variant));
  const auto keep = t->hold();
  Json j;
  {
    py::gil_scoped_release release;
    j = review_json(review_game(*keep, g.record));
  }
  return to_python(j);
}

PlayerSpec player_spec(const std::string& text, const char* what) {
  try {
    return parse_player(text);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(std::string(what) + ": " + e.what());
  }
}

py::object grade(const py::object& player, std::size_t games, const std::string& opponent,
                 std::uint64_t seed, const std::string& side, const OptVariant& asked,
                 const py::object& table, std::size_t max_blunders) {
  GradeOptions options;
  options.opponent = player_spec(opponent, "opponent");
  options.games = games;
  options.seed = seed;
  options.max_blunders = max_blunders;
  if (side == "white")
    options.side = GradeSide::kWhite;
  else if (side == "black")
    options.side = GradeSide::kBlack;
  else if (side != "both")
    throw py::value_error("side must be 'both', 'white' or 'black', got " + quote(side));
  if (games > 1000000) throw py::value_error("games must be 0..1000000");
  std::optional<PyTablebase> opened;
  const PyTablebase* t = table.is_none() ? nullptr : &table.cast<const PyTablebase&>();
  if (!t) t = &opened.emplace(open_table(std::nullopt, asked, true));
  if (asked && !(asked->v == t->variant))
    throw py::value_error("variant " + variant_repr(asked->v) + " is not the table's variant " +
                          variant_repr(t->variant));
  const auto keep = t->hold();
  GradedPlayer graded;
  if (py::isinstance<py::str>(player)) {
    graded.spec = player_spec(player.cast<std::string>(), "player");
  } else if (PyCallable_Check(player.ptr())) {
    const Variant v = t->variant;
    graded.choose = [&player, v](const GameRecord& game) { return python_move(player, game, v); };
    graded.name = py::str(py::getattr(player, "__qualname__", py::repr(player)));
  } else {
    throw py::type_error("player must be a callable (Game -> move) or a player's name, not " +
                         type_name(player));
  }
  return to_python(grade_json(grade_player(Rules(t->variant), *keep, graded, options)));
}

}  // namespace

void bind_games(py::module_& m) {
  py::class_<PyGame>(m, "Game",
                     "A game in progress, from a start position (the empty board unless given), "
                     "with its history: a position that occurs again ends the game drawn (rule "
                     "3). In the shape of OpenSpiel's pyspiel.State: legal_actions() as ints "
                     "(a fixed mapping: a circle placed on space s is s - 1, a triangle 6 + s, "
                     "a movement from f to t is 6 + 7 * f + t; action_to_string), "
                     "apply_action, clone, current_player, is_terminal, returns and "
                     "observation_tensor.")
      .def(py::init(&new_game), standard_variant_arg(), py::arg("position") = py::none(),
           py::arg("moves") = py::none(),
           "Game(variant=STANDARD, position=None, moves=None): the game from `position` (the "
           "empty board), after `moves` ('C4,t3' or a list).")
      .def_static(
          "num_distinct_actions", [] { return kDistinctActions; },
          "The number of actions (63): 14 placements and 49 from-to pairs, of which the legal "
          "ones are a subset.")
      .def_static(
          "observation_shape",
          [] { return py::make_tuple(kObservationPlanes, kSpaces, kMaxStackCap); },
          "(5, 7, 3): one plane per piece kind (C, T, c, t) over (space, height from the "
          "bottom), then a plane of ones when Black is to move.")
      .def_static(
          "action_to_string",
          [](const py::handle& action) { return action_text(action_arg(action)); },
          py::arg("action"),
          "The move of an action in notation, which string_to_action reads back: 'C4' (a "
          "placement: the mover's colour, written as White's), '7-5' (a movement). "
          "ValueError for the 7 actions of a movement onto its own space (no move has them) "
          "and for a number out of range.")
      .def_static("string_to_action", &action_of_text, py::arg("move"),
                  "The action of a move in notation ('C4', 'c4', 't3', '7-5').")
      .def(
          "legal_actions", [](const PyGame& g) { return legal_actions(g.record); },
          "The legal actions, ascending; empty when the game is over (rules 1 to 3).")
      .def(
          "legal_moves",
          [](const PyGame& g) {
            std::vector<std::string> out;
            for (const int a : legal_actions(g.record)) {
              GameRecord copy = g.record;
              copy.play(move_of_action(g.record, a));
              out.push_back(format_move(copy.moves().back()));
            }
            return out;
          },
          "The legal moves in notation, in the order of legal_actions().")
      .def(
          "apply_action",
          [](PyGame& g, const py::handle& action) {
            g.record.play(move_of_action(g.record, action_arg(action)));
          },
          py::arg("action"),
          "Plays an action; ValueError when it is not legal or the game is over.")
      .def(
          "apply_move", [](PyGame& g, const std::string& move) { g.record.play(move); },
          py::arg("move"), "Plays a move in notation ('C4', '7-5'); ValueError as apply_action.")
      .def(
          "undo",
          [](PyGame& g) {
            if (g.record.plies() == 0) throw py::value_error("no move to take back");
            g.record.undo();
          },
          "Takes back the last move.")
      .def(
          "clone", [](const PyGame& g) { return g; }, "A copy, played on independently.")
      .def("__copy__", [](const PyGame& g) { return g; })
      .def(
          "__deepcopy__", [](const PyGame& g, const py::object&) { return g; }, py::arg("memo"))
      .def(
          "current_player",
          [](const PyGame& g) {
            if (g.record.over()) return -4;  // pyspiel.PlayerId.TERMINAL
            return int(g.record.current().to_move());
          },
          "0 (White) or 1 (Black) to move; -4 (pyspiel's TERMINAL) when the game is over.")
      .def(
          "is_terminal", [](const PyGame& g) { return g.record.over(); },
          "True when the game is over: a line, no move, or a repetition (rule 3).")
      .def(
          "returns",
          [](const PyGame& g) {
            const auto end = g.record.end();
            if (!end || !end->loser) return std::vector<double>{0, 0};
            return *end->loser == Colour::kWhite ? std::vector<double>{-1, 1}
                                                 : std::vector<double>{1, -1};
          },
          "[white, black]: [1, -1] or [-1, 1] once won, [0, 0] for a draw or a game in "
          "progress, as pyspiel's returns().")
      .def("observation_tensor", &observation_array,
           "The current position as a float32 array of observation_shape() (see there).")
      .def("game_over", &game_end_dict,
           "None, or why the game is over: {'reason': 'line'|'no_move'|'repetition', 'line', "
           "'loser', 'text'}.")
      .def_property_readonly(
          "position",
          [](const PyGame& g) {
            return Position{g.record.current(), g.variant};
          },
          "The current Position.")
      .def_property_readonly(
          "variant", [](const PyGame& g) { return g.variant; }, "The game's Variant.")
      .def(
          "history",
          [](const PyGame& g) {
            std::vector<int> out;
            for (const Move& mv : g.record.moves()) out.push_back(action_of(mv));
            return out;
          },
          "The actions played, in order.")
      .def(
          "moves",
          [](const PyGame& g) {
            std::vector<std::string> out;
            for (const Move& mv : g.record.moves()) out.push_back(format_move(mv));
            return out;
          },
          "The moves played, in notation.")
      .def("review", &game_review, py::arg("table") = py::none(),
           "The review of the game so far, as Tablebase.review(moves, position) of its moves "
           "and start: each side's mistakes, the first one that changed the result, the best "
           "moves there and the refuting line. From `table`, or the default table of the "
           "game's variant (solved on first use, as open_tablebase()).")
      .def("__str__", [](const PyGame& g) { return format_position(g.record.current()); })
      .def("__repr__",
           [](const PyGame& g) {
             std::string r = "<fano.Game " + format_position(g.record.current()) + " after " +
                             std::to_string(g.record.plies()) + " moves";
             if (!(g.variant == kStandard)) r += ", " + variant_repr(g.variant);
             return r + ">";
           })
      .def("_repr_svg_", &game_svg,
           "The board as an SVG picture (the one 'fano show --svg' draws), for Jupyter.")
      .def(py::pickle(
          [](const PyGame& g) {
            return py::make_tuple(g.variant, format_position(g.record.start()),
                                  g.record.move_list());
          },
          [](const py::tuple& t) {
            const Variant v = t[0].cast<Variant>();
            const Position start{parse_position(t[1].cast<std::string>(), v), v};
            return new_game(VariantArg{v}, start, MovesArg{t[2].cast<std::string>()});
          }));

  m.def("grade", &grade, py::arg("player"), py::arg("games") = 100, py::kw_only(),
        py::arg("opponent") = "perfect", py::arg("seed") = 1, py::arg("side") = "both",
        py::arg("variant") = py::none(), py::arg("table") = py::none(),
        py::arg("max_blunders") = 1000,
        "Grades a player against perfect play: `games` games of `player` (a callable taking "
        "a Game and returning its move, as an action or in notation; or a built-in player's "
        "name, as fano selfplay's --white: 'random', 'greedy', 'search:K', 'perfect', "
        "'engine', 'nonlosing', 'perfect:P', ...) against `opponent` (a built-in player's "
        "name), as White in every game (side='white'), as Black, or both in turn (White in "
        "the even games). Game i is played with the random numbers of game i of 'fano "
        "selfplay --seed SEED', so a built-in player's report repeats that run's games. Every "
        "move of the player is judged by the table (of `variant`, or `table`) under the "
        "game's history. Returns a dict: results (wins, draws, losses with 95% Wilson "
        "intervals, score), moves (by phase), kept (the share of moves that kept the value of "
        "the position), blunders (moves that changed it, by phase), missed_wins (moves that "
        "let a won position go, of the moves made in won positions), blunder_positions (game, "
        "ply, position, the moves before it, the move, the value and the result; the first "
        "max_blunders) and games_list. Deterministic for a seed.");
  m.def(
      "player_levels", [] { return to_python(player_levels_json()["players"]); },
      "The levels offered to people as computer opponents, strongest first: a list of dicts "
      "with name (a built-in player's name, for grade() and fano selfplay), label (Beginner "
      "... Perfect), rating (measured, on one Elo scale: results/levels.md), interval (its "
      "95% interval, [low, high]) and description; GET /api/v2/players gives the same list.");
}

}  // namespace fano::python
