// fano.Tablebase and the table files: opening (the io layer's folders and
// cache), probing, analysis, and fano.solve.

#include <dlfcn.h>

#include <memory>
#include <string>
#include <utility>

#include "common.hpp"
#include "fano/analysis.hpp"
#include "fano/analysis_json.hpp"
#include "fano/errors.hpp"
#include "fano/game.hpp"
#include "fano/notation.hpp"
#include "fano/review.hpp"
#include "fano/solver.hpp"
#include "fano/solver_json.hpp"
#include "fano/strategy.hpp"
#include "fano/table_files.hpp"
#include "fano/tablebase_json.hpp"

namespace fano::python {

// ---------------------------------------------------------------- tablebases

// The folder of the default tables: $FANO_TABLES; else, for a module
// installed with pip (FANO_PYTHON_PACKAGE), which has no tables folder of its
// own, the per-user cache; else the folder the fano command would use from
// where this module is: the source tree's tables/ when loaded from the build
// tree, <prefix>/share/fano/tables when installed under a prefix (io's
// table_dir_for_binary).
TableDir table_dir() {
#ifdef FANO_PYTHON_PACKAGE
  if (true) return table_dir_without_install();
#endif
  Dl_info info{};
  const bool found = dladdr(reinterpret_cast<void*>(&table_dir), &info) && info.dli_fname;
  return table_dir_for_binary(found ? info.dli_fname : "", FANO_PYTHON_INSTALL_DIR,
                              FANO_INSTALL_TABLE_DIR);
}

// The folder open_tablebase() reads a variant's table from, and solves it
// into when missing (io's one search: the cache when the source tree's or
// installed folder lacks it).
TableDir table_dir_for(const Variant& v) { return table_dir_for_variant(v, table_dir(), true); }

std::string table_path(const Variant& v) {
  return default_tablebase_path(v, table_dir_for(v).path);
}

// Solves a variant and writes its table to `path` atomically, creating the
// folder.
void solve_into(const Variant& v, const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) create_table_dir(parent.string());
  const Solution sol = solve(v, SolveOptions{});
  write_file_atomically(path, encode_solution(sol));
}

// A missing table's message with the Python way to create it (the library's
// hint names the fano command).
[[noreturn]] void rethrow_missing(const TablebaseError& e, const std::string& path,
                                  const std::optional<Variant>& v) {
  std::string what = e.what();
  if (const auto cut = what.find(" (run '"); cut != std::string::npos) what.resize(cut);
  // The rules as Python writes them (a name keeps the lines and material).
  std::string variant = "variant";
  if (v && *v == kStandard)
    variant = "fano.STANDARD";
  else if (v && v->rulebook_material_and_lines())
    variant = "fano.Variant(" + std::to_string(v->stack_cap) + ", '" +
              std::string(adjacency_name(v->adjacency)) + "')";
  else if (v)
    variant = "fano.Variant('" + variant_slug(*v) + "')";
  std::string cache = "the per-user cache folder";
  try {
    cache += " " + user_cache_dir();
  } catch (const TablebaseError&) {
    // No home folder: the cache is named without its path.
  }
  throw TablebaseError(
      TablebaseErrorKind::kMissing,
      what + " (fano.solve(" + variant + ", path='" + path +
          "') creates it in its folder, which must exist; fano.open_tablebase() with no "
          "path solves the table into " +
          cache + " on first use)");
}

std::shared_ptr<const Tablebase> PyTablebase::hold() const {
  if (!held) throw py::value_error("the table '" + path + "' is closed");
  return held;
}

std::shared_ptr<const CodeIndex> PyTablebase::code_index() const {
  const auto keep = hold();
  if (!index) index = std::make_shared<const CodeIndex>(*keep);
  return index;
}

// A table that cannot be solved into the per-user cache (a folder that cannot
// be made or written) names the way to another folder.
[[noreturn]] void rethrow_cache(const TablebaseError& e) {
  throw TablebaseError(e.kind(), std::string(e.what()) +
                                     " (the per-user cache folder for tables; set FANO_TABLES to "
                                     "a writable folder, or give open_tablebase() a path)");
}

PyTablebase open_table(const std::optional<fs::path>& path, const OptVariant& asked,
                       bool solve_missing) {
  // As the fano command (choose_table). A missing default table is solved on
  // first use (into FANO_TABLES or the cache, see table_dir_for).
  const std::optional<Variant> v = opt(asked);
  const TableDir dir = path ? TableDir{} : table_dir_for(v.value_or(kStandard));
  const TableChoice choice =
      choose_table(path ? std::optional(path->string()) : std::nullopt, v, dir.path);
  // Absolute, so that a pickled table opens from another working folder.
  std::error_code ec;
  std::string p = fs::absolute(choice.path, ec).string();
  if (ec) p = choice.path;
  const std::optional<Variant>& expected = choice.expected;
  py::gil_scoped_release release;
  try {
    if (!path && solve_missing && !fs::exists(p, ec)) {
      try {
        solve_into(*expected, p);
      } catch (const TablebaseError& e) {
        if (dir.source == "cache") rethrow_cache(e);
        throw;
      }
    }
    auto tb = std::make_shared<const Tablebase>(fano::open_tablebase(p, expected));
    const Variant variant = tb->variant();
    return PyTablebase{std::move(tb), p, variant, nullptr};
  } catch (const TablebaseError& e) {
    if (e.kind() == TablebaseErrorKind::kMissing) rethrow_missing(e, p, expected);
    throw;
  }
}

void check_variant(const PyTablebase& t, const Position& p) {
  if (!(p.variant == t.variant))
    throw py::value_error("position " + position_repr(p) + " is not of the table's variant " +
                          variant_repr(t.variant));
}

Outcome probe_state(const Tablebase& tb, State st) {
  return probe_or_unreachable(tb, Rules(tb.variant()), st);
}

// A code as a State of the table's variant; ValueError as Position.from_code.
State checked_code(const PyTablebase& t, std::uint64_t code) {
  if (!is_valid_position(State{code}, t.variant)) from_code(code, t.variant);  // throws
  return State{code};
}

// A bare code does not say which rules it was made under, and a code of the
// standard game is also a legal position of cap 3 with another value: probed
// there it would be answered silently and wrongly. So every call that takes
// codes takes their variant too (STANDARD when not said, as everywhere in the
// module), and a table of other rules refuses them.
void check_codes_variant(const PyTablebase& t, const std::optional<Variant>& stated,
                         const char* call) {
  const Variant v = stated.value_or(kStandard);
  if (v == t.variant) return;
  throw py::value_error(std::string(call) + ": codes of " + variant_repr(v) +
                        (stated ? "" : " (variant= not given: STANDARD)") +
                        " cannot be probed in a table of " + variant_repr(t.variant) +
                        "; pass the variant the codes were made under, e.g. variant=tb.variant");
}

// Tablebase.probe: a Position (its own variant), or an int code made under
// `variant`.
py::tuple probe(const PyTablebase& t, const py::handle& item, const OptVariant& asked) {
  const std::optional<Variant> v = opt(asked);
  if (py::isinstance<Position>(item)) {
    const Position& p = item.cast<const Position&>();
    if (v && !(*v == p.variant))
      throw py::value_error("probe(): variant= " + variant_repr(*v) + " is not the variant of " +
                            position_repr(p));
    check_variant(t, p);
    return outcome_tuple(probe_state(t.table(), p.state));
  }
  if (py::isinstance<py::str>(item)) {  // text, in the table's rules
    if (v && !(*v == t.variant))
      throw py::value_error(
          "probe(): variant= " + variant_repr(*v) +
          " is not the table's variant, in whose rules a position's text is read");
    return outcome_tuple(probe_state(t.table(), parse(item.cast<std::string>(), t.variant).state));
  }
  const std::uint64_t code = code_arg(item, "position", "a Position, its text or an int code");
  check_codes_variant(t, v, "probe()");
  return outcome_tuple(probe_state(t.table(), checked_code(t, code)));
}

py::list probe_many(const PyTablebase& t, const py::iterable& items, const OptVariant& asked) {
  const std::optional<Variant> codes_variant = opt(asked);
  const auto keep = t.hold();
  std::vector<State> states;
  bool checked = false;  // the codes' variant, at the first code
  for (const py::handle& item : items) {
    const std::size_t i = states.size();
    if (py::isinstance<Position>(item)) {
      const Position& p = item.cast<const Position&>();
      if (!(p.variant == t.variant))
        fail_item(i, PyExc_ValueError,
                  "position " + position_repr(p) + " is not of the table's variant " +
                      variant_repr(t.variant));
      states.push_back(p.state);
    } else {
      const std::uint64_t code = code_arg(item, "item " + std::to_string(i));
      if (!std::exchange(checked, true)) check_codes_variant(t, codes_variant, "probe_many()");
      try {
        states.push_back(checked_code(t, code));
      } catch (const NotationError& e) {
        fail_item(i, PyExc_ValueError, e.what());
      }
    }
  }
  std::vector<Outcome> outcomes(states.size());
  std::optional<std::size_t> unreachable;
  {
    py::gil_scoped_release release;
    for (std::size_t i = 0; i < states.size(); ++i) {
      const auto o = keep->probe(states[i]);
      if (!o) {
        unreachable = i;
        break;
      }
      outcomes[i] = *o;
    }
  }
  if (unreachable)
    fail_item(*unreachable, g_unreachable,
              UnreachablePosition(*keep, Rules(t.variant), states[*unreachable]).what());
  py::list out;
  for (const Outcome& o : outcomes) out.append(outcome_tuple(o));
  return out;
}

// A position argument as a Position: text is read in the table's rules.
Position position_in(const PyTablebase& t, const PositionArg& p) {
  if (const auto* text = std::get_if<std::string>(&p)) return parse(*text, t.variant);
  return std::get<Position>(p);
}

// The game to analyse: `moves` played from `position` (default the empty
// board; rule 3 applies to them), or `position` alone.
GameRecord game_for(const PyTablebase& t, const std::optional<PositionArg>& position_arg,
                    const std::optional<MovesArg>& moves) {
  if (!position_arg && !moves)
    throw py::type_error("give a Position, its text or moves=\"C4,t3,...\"");
  const Rules rules(t.variant);
  State start = kEmptyBoard;
  if (position_arg) {
    const Position position = position_in(t, *position_arg);
    check_variant(t, position);
    start = position.state;
  }
  if (moves) return GameRecord::from_moves(rules, start, moves_text(*moves));
  return GameRecord(rules, start);
}

PositionReport report(const PyTablebase& t, const std::optional<PositionArg>& position,
                      const std::optional<MovesArg>& moves) {
  const GameRecord game = game_for(t, position, moves);
  const auto keep = t.hold();
  py::gil_scoped_release release;
  return analyse(*keep, game);
}

py::dict solve_variant(const VariantArg& v, const std::optional<fs::path>& path,
                       const std::optional<int>& threads) {
  if (threads && (*threads < 0 || *threads > 1024))
    throw py::value_error("threads must be 0..1024, got " + std::to_string(*threads));
  Json j;
  {
    py::gil_scoped_release release;
    // As 'fano solve --out': the folder must exist, refused before the solve.
    std::optional<TableFileWriter> file;
    if (path) file.emplace(path->string());
    SolveOptions opts;
    opts.threads = threads.value_or(0);
    const Solution sol = solve(v, opts);
    j = solution_json(sol);
    if (path) {
      const auto bytes = encode_solution(sol);
      file->write_and_commit(bytes);
      j["tablebase"] = path->string();
      j["tablebase_bytes"] = bytes.size();
    }
    j["seconds"] = {{"enumerate", sol.times.enumerate},
                    {"graph", sol.times.graph},
                    {"retrograde", sol.times.retrograde}};
  }
  return to_python(j).cast<py::dict>();
}

py::dict header_dict(const TablebaseHeader& h) { return to_python(header_json(h)); }

py::class_<PyTablebase> bind_tablebase(py::module_& m) {
  return py::class_<PyTablebase>(m, "Tablebase",
                                 "A solved variant's table, checked and held in memory (open with "
                                 "open_tablebase). Probing is thread-safe and releases the GIL in "
                                 "probe_many, analyse and classes.")
      .def_property_readonly(
          "variant", [](const PyTablebase& t) { return t.variant; }, "The table's Variant.")
      .def_property_readonly(
          "path", [](const PyTablebase& t) { return t.path; }, "The file it was read from.")
      .def_property_readonly(
          "header", [](const PyTablebase& t) { return header_dict(t.table().header()); },
          "The file's header: version, stack_cap, adjacency, symmetry_order, reachable, "
          "placement, movement, canonical (stored classes), win, loss, draw (over all "
          "reachable positions, side to move) and checksum.")
      .def(
          "__len__", [](const PyTablebase& t) { return t.table().size(); },
          "The number of stored symmetry classes.")
      .def("__repr__",
           [](const PyTablebase& t) {
             return "<fano.Tablebase " + variant_repr(t.variant) + " '" + t.path + "', " +
                    (t.held ? std::to_string(t.held->size()) + " classes>" : "closed>");
           })
      .def("close", &PyTablebase::close,
           "Lets the table go (its memory is freed once no call is using it); every later "
           "call raises ValueError. A second close() does nothing.")
      .def_property_readonly(
          "closed", [](const PyTablebase& t) { return !t.held; }, "True once close() ran.")
      .def(
          "__enter__", [](const py::object& self) { return self; },
          "A Tablebase is a context manager: `with fano.open_tablebase() as tb:` closes it "
          "at the end of the block.")
      .def(
          "__exit__",
          [](PyTablebase& t, const py::object&, const py::object&, const py::object&) {
            t.close();
            return false;
          },
          py::arg("exc_type"), py::arg("exc_value"), py::arg("traceback"),
          "Closes the table (see close()).")
      .def(py::pickle(
          [](const PyTablebase& t) {
            t.hold();  // ValueError for a closed table
            return py::make_tuple(t.path, t.variant);
          },
          [](const py::tuple& t) {
            return open_table(fs::path(t[0].cast<std::string>()), VariantArg{t[1].cast<Variant>()},
                              false);
          }));
}

void bind_probes(py::class_<PyTablebase>& tb) {
  tb.def("probe", &probe, py::arg("position"), py::kw_only(), py::arg("variant") = py::none(),
         "(value, plies) for the side to move: value 'win', 'draw' or 'loss', plies the "
         "plies to the end under perfect play (None for a draw). No history (see analyse). "
         "Raises UnreachablePosition for a position no game reaches. `position` is a "
         "Position, its text (read in the table's rules) or an int code made under `variant` "
         "(STANDARD if not given): ValueError "
         "when that is not the table's variant (a bare code does not say its rules), or for "
         "a code that is not a position of the table's variant (as Position.from_code).")
      .def("probe_codes", &probe_codes, py::arg("codes"), py::kw_only(),
           py::arg("variant") = py::none(), py::arg("threads") = py::none(),
           "probe() of an array of codes made under `variant` (STANDARD if not given; "
           "ValueError when that is not the table's variant: a bare code does not say its "
           "rules) (a numpy array of any integer dtype, or a sequence of ints), vectorised, on all "
           "cores (or `threads`) and without the GIL: a tuple "
           "(value, plies, valid) of arrays of the same length: value uint8 (0 loss, 1 draw, 2 "
           "win, as classes(); 255 where not valid), plies uint16 (0 for a draw or an entry "
           "that is not valid), valid bool (False for a code that is malformed, negative, not "
           "a position of the table's variant, or unreachable). Never raises for an entry; "
           "TypeError for an array that is not of integers, ValueError for another shape.")
      .def(
          "get",
          [](const PyTablebase& t, const py::object& item, const py::object& fallback,
             const OptVariant& asked) {
            const std::optional<Variant> v = opt(asked);
            // As chess.syzygy's get_wdl: the default instead of an error for
            // what the table does not hold.
            State st;
            if (py::isinstance<Position>(item)) {
              const Position& p = item.cast<const Position&>();
              check_variant(t, p);
              st = p.state;
            } else {
              const std::uint64_t code = code_arg(item, "position");
              check_codes_variant(t, v, "get()");
              if (!is_valid_position(State{code}, t.variant)) return fallback;
              st = State{code};
            }
            const auto o = t.table().probe(st);
            return o ? py::object(outcome_tuple(*o)) : fallback;
          },
          py::arg("position"), py::arg("default") = py::none(), py::kw_only(),
          py::arg("variant") = py::none(),
          "probe() that returns `default` (None) instead of raising for a position no game "
          "reaches or a code that is not a position of the table's variant, as "
          "chess.syzygy's get_wdl(). A Position of another variant, or codes whose `variant` "
          "(STANDARD if not given) is not the table's, still raise ValueError.")
      .def("probe_many", &probe_many, py::arg("positions"), py::kw_only(),
           py::arg("variant") = py::none(),
           "probe() of many positions (Positions, or int codes made under `variant`, STANDARD "
           "if not given, e.g. classes()['code'] with variant=tb.variant): a list "
           "of (value, plies) tuples in the same order. Probes without the GIL, so threads "
           "probe in parallel. Raises UnreachablePosition (or ValueError for an invalid code, "
           "TypeError for another type) for the first failing item, its message starting "
           "'item I: ' and its `index` attribute I.");
}

// A rule's allowed moves, as texts: a list (or any iterable) of moves. A
// string alone is refused: iterated, it would be read letter by letter.
std::vector<std::string> move_texts(const py::handle& moves) {
  if (py::isinstance<py::str>(moves) || py::isinstance<py::bytes>(moves))
    throw py::type_error("the allowed moves must be a list of moves, not a string: write [" +
                         quote(py::str(moves).cast<std::string>()) + "]");
  std::vector<std::string> out;
  for (const py::handle& item : moves) out.push_back(py::str(item).cast<std::string>());
  return out;
}

// A player rule from Python: a built-in player's name, or a callable that
// takes a Position and returns the moves it allows (texts such as "C4").
StrategyRule python_rule(const py::object& player, const Tablebase& tb, const Variant& variant) {
  if (py::isinstance<py::str>(player)) {
    try {
      return player_rule(parse_player(player.cast<std::string>()), &tb);
    } catch (const std::invalid_argument& e) {
      throw py::value_error(e.what());
    }
  }
  if (py::isinstance<py::dict>(player)) {
    // The --allowed file's table: {position: [moves]}, exact positions; a
    // position the follower reaches that it lacks fails the rule.
    auto table = std::make_shared<AllowedTable>();
    const Rules rules(variant);
    for (const auto& [key, value] : player.cast<py::dict>()) {
      const std::string text = py::str(key).cast<std::string>();
      try {
        const State st = parse_position(text, variant);
        std::vector<Move> moves;
        if (!game_end(rules, st))
          for (const std::string& token : move_texts(value))
            moves.push_back(resolve_move(rules, st, parse_move_text(token), token));
        add_allowed(*table, rules, st, moves);
      } catch (const std::exception& e) {
        // The notation's own errors already name the position.
        const std::string what = e.what();
        throw py::value_error(what.rfind("position " + quote(text), 0) == 0
                                  ? what
                                  : "position " + quote(text) + ": " + what);
      }
    }
    StrategyRule rule = table_rule(*table, "allowed");
    rule.allowed = [table, inner = rule.allowed](const GameRecord& g) { return inner(g); };
    return rule;
  }
  if (!PyCallable_Check(player.ptr()))
    throw py::type_error("player must be a player's name, a callable or a dict, not " +
                         std::string(py::str(player.get_type().attr("__name__"))));
  StrategyRule rule;
  rule.name = py::repr(player).cast<std::string>();
  rule.allowed = [player, variant](const GameRecord& game) {
    py::gil_scoped_acquire gil;
    const Rules rules(variant);
    const State st = game.current();
    std::vector<Move> moves;
    for (const std::string& text : move_texts(player(Position{st, variant}))) try {
        moves.push_back(resolve_move(rules, st, parse_move_text(text), text));
      } catch (const NotationError& e) {
        throw py::value_error("the rule's move in " + format_position(st) + ": " + e.what());
      }
    return moves;
  };
  return rule;
}

void bind_analysis(py::class_<PyTablebase>& tb) {
  tb.def(
        "analyse",
        [](const PyTablebase& t, const std::optional<PositionArg>& position,
           const std::optional<MovesArg>& moves) {
          return to_python(report_json(report(t, position, moves)));
        },
        py::arg("position") = py::none(), py::kw_only(), py::arg("moves") = py::none(),
        "The report of 'fano query --json' as a dict: position, to_move, value, plies, "
        "table_value, table_plies, game_over, moves (every legal move rated, best first: "
        "move, from, to, shape, position, result, plies, repeats, trap: a drawing move's "
        "{errors, choices}, else None), engine_move, pv, pv_end, pv_continues_drawn "
        "(a drawn pv cut at 100 plies with no repetition yet), history_note. "
        "Give a Position or its text ('-/-/-/C/-/-/- b', read in the table's rules), or "
        "moves='C4,t3' (played from the empty board, or from the given "
        "position; the game's history applies: a repeated position is a draw, rule 3).")
      .def(
          "check_strategy",
          [](const PyTablebase& t, const py::object& player,
             const std::optional<Position>& position, const std::optional<std::string>& side,
             std::uint64_t max_positions) {
            const auto held = t.hold();
            if (position && position->variant != t.variant)
              throw py::value_error("the position is of the " + variant_slug(position->variant) +
                                    " rules, the table of " + variant_slug(t.variant));
            const State start = position ? position->state : kEmptyBoard;
            if (side && *side != "white" && *side != "black")
              throw py::value_error("side must be 'white' or 'black', got " + quote(*side));
            const Colour follower = !side              ? start.to_move()
                                    : *side == "white" ? Colour::kWhite
                                                       : Colour::kBlack;
            const StrategyRule rule = python_rule(player, *held, t.variant);
            StrategyCheck check;
            {
              // A callable rule takes the GIL back for each of its answers.
              py::gil_scoped_release release;
              check = check_strategy(*held, rule, start, follower, {}, max_positions);
            }
            return to_python(strategy_check_json(check));
          },
          py::arg("player"), py::arg("position") = py::none(), py::kw_only(),
          py::arg("side") = py::none(), py::arg("max_positions") = 0,
          "Whether a player's rule secures at least the table's value for the side that "
          "follows it (default: the side to move), from the position (default: the empty "
          "board), against every opponent, as `fano strategy --player RULE --json`: a dict "
          "with holds, decided, target, positions and, when it fails, a shortest refutation "
          "line. player: a built-in player's name ('greedy', 'search:2', 'perfect', ...) or a "
          "callable taking a Position and returning the moves it allows (where it allows "
          "several, any of them may be played), or a dict {position text: [move texts]} as "
          "'fano strategy --allowed' reads (exact positions; one the follower reaches that "
          "the dict lacks fails the rule). max_positions > 0 stops the search "
          "undecided past that many positions.")
      .def(
          "review",
          [](const PyTablebase& t, const MovesArg& moves,
             const std::optional<PositionArg>& position) {
            const GameRecord game = game_for(t, position, moves);
            const auto keep = t.hold();
            Json j;
            {
              py::gil_scoped_release release;
              j = review_json(review_game(*keep, game));
            }
            return to_python(j);
          },
          py::arg("moves"), py::arg("position") = py::none(),
          "The review of a game as `fano review --json` and the HTTP API's review route give it: "
          "a dict with variant, start, moves_played, end (over, text, winner, to_move, value, "
          "plies, game_over), mistakes ({'white': n, 'black': n}), first_decisive (the ply of "
          "the first mistake that changed the result, or None) and plies: one dict per move "
          "(ply from 1, mover, move, position before it, position_after, before and after: "
          "{result, plies} for the mover, the value before the move under the game's history "
          "and the move's result; repeats, mistake, decisive, mark (\"??\" or \"?\"); for a "
          "mistake "
          "best (the moves keeping the value, the engine's first), refutation (the principal "
          "variation after the move, at most 40 plies), refutation_end, refutation_close (the "
          "words after the refutation's moves: ' (how it ends)', ' ... and the game is drawn' "
          "or ' ...') and text, one "
          "sentence; else None). `moves` ('C4,t3' or a list) are played from the empty board, "
          "or from `position` (a bare position, no history before it).")
      .def(
          "mainline",
          [](const PyTablebase& t, const std::optional<PositionArg>& position,
             const std::optional<MovesArg>& moves) {
            return to_python(principal_variation_json(report(t, position, moves)));
          },
          py::arg("position") = py::none(), py::kw_only(), py::arg("moves") = py::none(),
          "The principal variation (the engine's play for both sides to the end of the game, "
          "or to the repetition that ends a draw) as the HTTP API's v2 /mainline object: "
          "position, to_move, value, plies, mainline (each move with its position and its "
          "mover's result and plies), end, winner, continues_drawn (a drawn line cut at 100 "
          "plies with no repetition yet); arguments as analyse().");
}

void bind_files(py::module_& m) {
  m.def("open_tablebase", &open_table, py::arg("path") = py::none(),
        py::arg("variant") = py::none(), py::kw_only(), py::arg("solve_missing") = true,
        "Opens and checks a table (size, magic, version, checksum, contents). With no path: "
        "the variant's default table (STANDARD unless given): in $FANO_TABLES if set; else "
        "(a module built with CMake) the source tree's tables/ when imported from the build "
        "tree or the installed <prefix>/share/fano/tables, when the table is there; else the "
        "per-user cache folder cache_dir(). A missing default table is solved on first use "
        "(well under a second) into $FANO_TABLES or the cache folder, creating the folder, "
        "unless solve_missing=False. With a path: the file's own variant, which must equal "
        "`variant` if given. Raises TablebaseError (with `kind`); MissingTablebaseError (also "
        "a FileNotFoundError) for a missing file.");
  m.def(
      "default_tablebase_path", [](const VariantArg& v) { return table_path(v); },
      standard_variant_arg(),
      "Where open_tablebase() reads a variant's table (solving it there first when missing).");
  m.def("cache_dir", &user_cache_dir,
        "The per-user folder tables are solved into on first use: $XDG_CACHE_HOME/fano, else "
        "~/.cache/fano.");
  m.def(
      "default_table_dir",
      [] {
        const TableDir d = table_dir();
        return py::make_tuple(d.path, d.source);
      },
      "(folder, why) of the default tables: why is 'FANO_TABLES', 'source tree', "
      "'installed' or 'cache' (a module installed with pip). A table missing from the source "
      "tree's or installed folder is read from (and solved into) cache_dir().");
  m.def("solve", &solve_variant, standard_variant_arg(), py::arg("path") = py::none(),
        py::arg("threads") = py::none(),
        "Solves a variant (enumeration, retrograde analysis; the GIL is released) and, given a "
        "path, writes its table there atomically; as 'fano solve --out', the path's folder must "
        "exist (TablebaseError of kind 'io', 'no folder', before the solve, not after it). Returns "
        "the counts as "
        "'fano solve --json': "
        "stack_cap, adjacency, reachable, placement, movement, canonical, win, loss, draw, "
        "start {value, plies}, then tablebase and tablebase_bytes (with a path) and seconds. "
        "threads: worker threads (None or 0: all cores).");
}

}  // namespace fano::python
