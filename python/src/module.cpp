// The Python module `fano`: positions, moves, tablebases, analysis and the
// solver from Python. A thin front end: every answer comes from the libraries
// (core's rules and notation, the tablebase reader, analyse() and
// report_json(), solve()); nothing here re-implements a rule.
#include <dlfcn.h>
#include <pwd.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "fano/analysis.hpp"
#include "fano/analysis_json.hpp"
#include "fano/board.hpp"
#include "fano/game.hpp"
#include "fano/json.hpp"
#include "fano/notation.hpp"
#include "fano/parallel.hpp"
#include "fano/rules.hpp"
#include "fano/solver.hpp"
#include "fano/solver_json.hpp"
#include "fano/state.hpp"
#include "fano/symmetry.hpp"
#include "fano/table_files.hpp"
#include "fano/tablebase.hpp"
#include "fano/tablebase_json.hpp"
#include "fano/value.hpp"
#include "fano/version.hpp"

namespace py = pybind11;

namespace fano::python {
namespace {

namespace fs = std::filesystem;

// The exception types the module defines (created in PYBIND11_MODULE).
PyObject* g_tablebase_error = nullptr;
PyObject* g_missing = nullptr;
PyObject* g_unreachable = nullptr;

// Moves as Python gives them: "C4,t3" or ["C4", "t3"].
using MovesArg = std::variant<std::string, std::vector<std::string>>;

std::string moves_text(const MovesArg& moves) {
  if (const auto* text = std::get_if<std::string>(&moves)) return *text;
  std::string out;
  for (const std::string& m : std::get<std::vector<std::string>>(moves)) {
    if (m.find(',') != std::string::npos)
      throw py::value_error("a list of moves holds one move per item, got '" + m + "'");
    out += (out.empty() ? "" : ",") + m;
  }
  return out;
}

// The Python type name of an object, for TypeError messages.
std::string type_name(const py::handle& h) {
  return py::str(py::type::handle_of(h).attr("__name__")).cast<std::string>();
}

// The name of an error kind, as the `kind` attribute of fano.TablebaseError.
const char* kind_name(TablebaseErrorKind kind) {
  switch (kind) {
    case TablebaseErrorKind::kMissing:
      return "missing";
    case TablebaseErrorKind::kNotAFile:
      return "not_a_file";
    case TablebaseErrorKind::kTruncated:
      return "truncated";
    case TablebaseErrorKind::kBadMagic:
      return "bad_magic";
    case TablebaseErrorKind::kBadVersion:
      return "bad_version";
    case TablebaseErrorKind::kChecksum:
      return "checksum";
    case TablebaseErrorKind::kCorrupt:
      return "corrupt";
    case TablebaseErrorKind::kWrongVariant:
      return "wrong_variant";
    case TablebaseErrorKind::kIo:
      return "io";
  }
  return "unknown";
}

// nlohmann JSON to Python objects (dicts keep the document's key order).
py::object to_python(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null:
      return py::none();
    case Json::value_t::boolean:
      return py::bool_(j.get<bool>());
    case Json::value_t::number_integer:
      return py::int_(j.get<std::int64_t>());
    case Json::value_t::number_unsigned:
      return py::int_(j.get<std::uint64_t>());
    case Json::value_t::number_float:
      return py::float_(j.get<double>());
    case Json::value_t::string:
      return py::str(j.get_ref<const std::string&>());
    case Json::value_t::array: {
      py::list out;
      for (const Json& e : j) out.append(to_python(e));
      return out;
    }
    case Json::value_t::object: {
      py::dict out;
      for (const auto& [k, v] : j.items()) out[py::str(k)] = to_python(v);
      return out;
    }
    default:
      throw std::runtime_error("unexpected JSON value: " + json_text(j));
  }
}

// ---------------------------------------------------------------- variants

Variant make_variant(int stack_cap, const std::string& adjacency) {
  if (stack_cap != 2 && stack_cap != 3)
    throw py::value_error("stack_cap must be 2 or 3, got " + std::to_string(stack_cap));
  Variant v;
  v.stack_cap = stack_cap;
  if (!parse_adjacency(adjacency, v.adjacency))
    throw py::value_error("adjacency must be 'board' or 'projective', got '" + adjacency + "'");
  return v;
}

// The rules a name names (the library's one parser); ValueError with its message.
Variant variant_named(const std::string& name) {
  const auto v = variant_from_name(name);
  if (!v) throw py::value_error(variant_name_error(name));
  return *v;
}

std::string variant_repr(const Variant& v) {
  if (!v.rulebook_material_and_lines()) return "Variant.from_name('" + variant_slug(v) + "')";
  return "Variant(stack_cap=" + std::to_string(v.stack_cap) + ", adjacency='" +
         std::string(adjacency_name(v.adjacency)) + "')";
}

// ---------------------------------------------------------------- positions

// A position of a variant (no game history: rule 3 needs a game, see
// Tablebase.analyse(moves=...)).
struct Position {
  State state;
  Variant variant;

  Rules rules() const { return Rules(variant); }
};

Position parse(const std::string& text, const Variant& v) { return {parse_position(text, v), v}; }

// A code checked as parse_position checks text: each stack byte well formed,
// no stray bits, then the notation's checks (stack cap, counts, side to move).
Position from_code(std::uint64_t code, const Variant& v) {
  if (code >> (kSideBit + 1))
    throw NotationError("code " + std::to_string(code) + " has bits set above the side to move");
  for (int s = 0; s < kSpaces; ++s)
    if (!kStackInfo[std::uint8_t(code >> (kStackBits * s))].valid)
      throw NotationError("code " + std::to_string(code) + " has a malformed stack on space " +
                          std::to_string(s + 1));
  return parse(format_position(State{code}), v);
}

std::string position_repr(const Position& p) {
  std::string r = "Position('" + format_position(p.state) + "'";
  if (!(p.variant == kStandard)) r += ", variant=" + variant_repr(p.variant);
  return r + ")";
}

std::vector<std::string> legal_move_strings(const Position& p) {
  const Rules rules = p.rules();
  std::vector<std::string> out;
  if (game_end(rules, p.state)) return out;  // no move is played once the game is over
  for (const Move& m : legal_moves(rules, p.state)) out.push_back(format_move(m));
  return out;
}

Position play(const Position& p, const MovesArg& moves) {
  const GameRecord g = GameRecord::from_moves(p.rules(), p.state, moves_text(moves));
  return {g.current(), p.variant};
}

py::object game_over_dict(const Position& p) {
  const auto end = game_end(p.rules(), p.state);
  if (!end) return py::none();
  return to_python(game_end_json(*end, p.state));
}

// ---------------------------------------------------------------- tablebases

struct PyTablebase {
  Tablebase tb;
  std::string path;
};

// The folder of the default tables: $FANO_TABLES; else the source tree's
// tables/ when this module was built in (and is loaded from) the build tree;
// else, as for the installed fano command, <prefix>/share/fano/tables of the
// prefix the module is installed under (<prefix>/FANO_PYTHON_INSTALL_DIR).
std::string cache_dir();

// A module installed with pip (FANO_PYTHON_PACKAGE) has no tables folder of
// its own: $FANO_TABLES, else the cache.
TableDir table_dir() {
  if (const char* env = std::getenv("FANO_TABLES"); env && *env) return {env, "FANO_TABLES"};
#ifdef FANO_PYTHON_PACKAGE
  if (true) return {cache_dir(), "cache"};
#endif
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&table_dir), &info) && info.dli_fname) {
    std::error_code ec;
    const fs::path self = fs::weakly_canonical(info.dli_fname, ec);
    const fs::path build = fs::weakly_canonical(FANO_BUILD_DIR, ec);
    if (!ec) {
      const auto rel = self.lexically_relative(build);
      if (!rel.empty() && *rel.begin() != "..") return {FANO_SOURCE_TABLE_DIR, "source tree"};
      // Strip the install folder's components from the module's folder.
      fs::path prefix = self.parent_path();
      const fs::path install_dir = fs::path(FANO_PYTHON_INSTALL_DIR).lexically_normal();
      bool matches = !install_dir.empty();  // empty: no install rules
      std::vector<fs::path> parts(install_dir.begin(), install_dir.end());
      for (auto it = parts.rbegin(); it != parts.rend() && matches; ++it) {
        if (it->empty()) continue;  // a trailing separator
        matches = prefix.filename() == *it;
        prefix = prefix.parent_path();
      }
      if (matches)
        return {(prefix / FANO_INSTALL_DATADIR / "fano" / "tables").string(), "installed"};
    }
  }
  return {FANO_INSTALL_TABLE_DIR, "installed"};
}

// The per-user cache folder tables are solved into on first use:
// $XDG_CACHE_HOME/fano (an absolute path, as the XDG spec asks), else
// ~/.cache/fano.
std::string cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg && fs::path(xdg).is_absolute())
    return (fs::path(xdg) / "fano").string();
  const char* home = std::getenv("HOME");
  if (!home || !*home) {
    const passwd* pw = ::getpwuid(::getuid());
    home = pw ? pw->pw_dir : nullptr;
  }
  if (!home || !*home)
    throw TablebaseError(TablebaseErrorKind::kIo,
                         "no cache folder for tables: neither XDG_CACHE_HOME nor HOME is set");
  return (fs::path(home) / ".cache" / "fano").string();
}

// The folder open_tablebase() reads a variant's table from: table_dir(), or
// the cache when the table is not there (a folder the user did not choose:
// the source tree's or the installed one; FANO_TABLES is kept).
TableDir table_dir_for(const Variant& v) {
  TableDir d = table_dir();
  if (d.source == "FANO_TABLES" || d.source == "cache") return d;
  std::error_code ec;
  if (fs::exists(default_tablebase_path(v, d.path), ec)) return d;
  return {cache_dir(), "cache"};
}

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
  const std::string variant =
      v ? (*v == kStandard ? std::string("fano.STANDARD")
                           : "fano.Variant(" + std::to_string(v->stack_cap) + ", '" +
                                 std::string(adjacency_name(v->adjacency)) + "')")
        : std::string("variant");
  throw TablebaseError(TablebaseErrorKind::kMissing,
                       what + " (fano.solve(" + variant + ", path='" + path +
                           "') creates it; fano.open_tablebase() with no path solves the "
                           "table into the cache folder " +
                           cache_dir() + " on first use)");
}

PyTablebase open_table(const std::optional<fs::path>& path, const std::optional<Variant>& v,
                       bool solve_missing) {
  // As the fano command: the default path is the variant's (standard unless
  // given) and must hold that variant; an explicit path holds its own variant
  // unless one is given. A missing default table is solved on first use (into
  // FANO_TABLES or the cache, see table_dir_for).
  const std::string p = path ? path->string() : table_path(v.value_or(kStandard));
  const std::optional<Variant> expected = path ? v : std::optional(v.value_or(kStandard));
  py::gil_scoped_release release;
  try {
    std::error_code ec;
    if (!path && solve_missing && !fs::exists(p, ec)) solve_into(*expected, p);
    Tablebase tb = fano::open_tablebase(p, expected);
    return PyTablebase{std::move(tb), p};
  } catch (const TablebaseError& e) {
    if (e.kind() == TablebaseErrorKind::kMissing) rethrow_missing(e, p, expected);
    throw;
  }
}

void check_variant(const PyTablebase& t, const Position& p) {
  if (!(p.variant == t.tb.variant()))
    throw py::value_error("position " + position_repr(p) + " is not of the table's variant " +
                          variant_repr(t.tb.variant()));
}

py::tuple outcome_tuple(Outcome o) {
  return py::make_tuple(std::string(value_name(o.value)),
                        o.value == Value::kDraw ? py::object(py::none()) : py::int_(o.plies));
}

Outcome probe_state(const Tablebase& tb, State st) {
  return probe_or_unreachable(tb, Rules(tb.variant()), st);
}

py::tuple probe(const PyTablebase& t, const Position& p) {
  check_variant(t, p);
  return outcome_tuple(probe_state(t.tb, p.state));
}

// A code as a State of the table's variant; ValueError as Position.from_code.
State checked_code(const PyTablebase& t, std::uint64_t code) {
  if (!is_valid_position(State{code}, t.tb.variant())) from_code(code, t.tb.variant());  // throws
  return State{code};
}

// An int code from Python: TypeError for another type, ValueError for a
// negative or too large int.
std::uint64_t code_arg(const py::handle& item, const std::string& what) {
  if (!PyLong_Check(item.ptr()) || PyBool_Check(item.ptr()))
    throw py::type_error(what + " must be a Position or an int code, not " + type_name(item));
  const unsigned long long c = PyLong_AsUnsignedLongLong(item.ptr());
  if (c == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    throw py::value_error(what + " " + py::str(item).cast<std::string>() +
                          " is not a 64-bit position code");
  }
  return c;
}

// Raises the error of item i of probe_many: its message prefixed with the index.
[[noreturn]] void fail_item(std::size_t i, PyObject* type, const std::string& message) {
  py::object exc =
      py::reinterpret_borrow<py::object>(type)("item " + std::to_string(i) + ": " + message);
  exc.attr("index") = i;
  PyErr_SetObject(type, exc.ptr());
  throw py::error_already_set();
}

py::list probe_many(const PyTablebase& t, const py::iterable& items) {
  std::vector<State> states;
  for (const py::handle& item : items) {
    const std::size_t i = states.size();
    if (py::isinstance<Position>(item)) {
      const Position& p = item.cast<const Position&>();
      if (!(p.variant == t.tb.variant()))
        fail_item(i, PyExc_ValueError,
                  "position " + position_repr(p) + " is not of the table's variant " +
                      variant_repr(t.tb.variant()));
      states.push_back(p.state);
    } else {
      const std::uint64_t code = code_arg(item, "item " + std::to_string(i));
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
      const auto o = t.tb.probe(states[i]);
      if (!o) {
        unreachable = i;
        break;
      }
      outcomes[i] = *o;
    }
  }
  if (unreachable)
    fail_item(*unreachable, g_unreachable,
              UnreachablePosition(t.tb, Rules(t.tb.variant()), states[*unreachable]).what());
  py::list out;
  for (const Outcome& o : outcomes) out.append(outcome_tuple(o));
  return out;
}

// The game to analyse: `moves` played from `position` (default the empty
// board; rule 3 applies to them), or `position` alone.
GameRecord game_for(const PyTablebase& t, const std::optional<Position>& position,
                    const std::optional<MovesArg>& moves) {
  if (!position && !moves) throw py::type_error("give a Position or moves=\"C4,t3,...\"");
  const Rules rules(t.tb.variant());
  State start = kEmptyBoard;
  if (position) {
    check_variant(t, *position);
    start = position->state;
  }
  if (moves) return GameRecord::from_moves(rules, start, moves_text(*moves));
  return GameRecord(rules, start);
}

PositionReport report(const PyTablebase& t, const std::optional<Position>& position,
                      const std::optional<MovesArg>& moves) {
  const GameRecord game = game_for(t, position, moves);
  py::gil_scoped_release release;
  return analyse(t.tb, game);
}

// probe() of an array of codes, without the GIL: (value uint8: 0 loss,
// 1 draw, 2 win, 255 invalid; plies uint16, 0 for a draw or an invalid
// entry; valid bool: the code is a position of the table's variant that some
// game reaches).
py::tuple probe_codes(const PyTablebase& t,
                      const py::array_t<std::uint64_t, py::array::c_style>& codes) {
  if (codes.ndim() != 1)
    throw py::value_error("probe_codes takes a one-dimensional array of codes, got " +
                          std::to_string(codes.ndim()) + " dimensions");
  const auto n = codes.shape(0);
  py::array_t<std::uint8_t> value(n);
  py::array_t<std::uint16_t> plies(n);
  py::array_t<bool> valid(n);
  const std::uint64_t* c = codes.data();
  std::uint8_t* v = value.mutable_data();
  std::uint16_t* p = plies.mutable_data();
  bool* ok = valid.mutable_data();
  {
    // Blocks of entries on all cores (each entry written once: the same
    // arrays for any thread count).
    py::gil_scoped_release release;
    const Variant variant = t.tb.variant();
    par::parallel_for(par::blocked_range<py::ssize_t>(0, n, 1 << 14), [&](const auto& r) {
      for (py::ssize_t i = r.begin(); i < r.end(); ++i) {
        const State st{c[i]};
        std::optional<Outcome> o;
        if (is_valid_position(st, variant)) o = t.tb.probe(st);
        ok[i] = o.has_value();
        v[i] = o ? std::uint8_t(o->value) : std::uint8_t(255);
        p[i] = o && o->value != Value::kDraw ? o->plies : 0;
      }
    });
  }
  return py::make_tuple(value, plies, valid);
}

py::dict header_dict(const TablebaseHeader& h) { return to_python(header_json(h)); }

py::dict classes(const PyTablebase& t) {
  const Tablebase& tb = t.tb;
  const auto n = py::ssize_t(tb.size());
  py::array_t<std::uint64_t> code(n);
  py::array_t<std::uint8_t> value(n);
  py::array_t<std::uint16_t> plies(n);
  py::array_t<std::uint32_t> orbit(n);
  std::uint64_t* c = code.mutable_data();
  std::uint8_t* v = value.mutable_data();
  std::uint16_t* p = plies.mutable_data();
  std::uint32_t* o = orbit.mutable_data();
  {
    py::gil_scoped_release release;
    for (py::ssize_t i = 0; i < n; ++i) {
      const State st = tb.position_at(std::size_t(i));
      const Outcome out = tb.outcome_at(std::size_t(i));
      c[i] = st.code;
      v[i] = std::uint8_t(out.value);
      p[i] = out.plies;
      o[i] = std::uint32_t(tb.symmetry().orbit_size(st));
    }
  }
  py::dict d;
  d["code"] = code;
  d["value"] = value;
  d["plies"] = plies;
  d["orbit"] = orbit;
  return d;
}

py::dict solve_variant(const Variant& v, const std::optional<fs::path>& path,
                       const std::optional<int>& threads) {
  if (threads && (*threads < 0 || *threads > 1024))
    throw py::value_error("threads must be 0..1024, got " + std::to_string(*threads));
  Json j;
  {
    py::gil_scoped_release release;
    SolveOptions opts;
    opts.threads = threads.value_or(0);
    const Solution sol = solve(v, opts);
    j = solution_json(sol);
    if (path) {
      const auto bytes = encode_solution(sol);
      if (const fs::path parent = path->parent_path(); !parent.empty())
        create_table_dir(parent.string());
      write_file_atomically(path->string(), bytes);
      j["tablebase"] = path->string();
      j["tablebase_bytes"] = bytes.size();
    }
    j["seconds"] = {{"enumerate", sol.times.enumerate},
                    {"graph", sol.times.graph},
                    {"retrograde", sol.times.retrograde}};
  }
  return to_python(j).cast<py::dict>();
}

// Raises a module exception type with the message (and TablebaseError's kind).
void raise(PyObject* type, const std::exception& e, const char* kind = nullptr) {
  py::object exc = py::reinterpret_borrow<py::object>(type)(e.what());
  if (kind) exc.attr("kind") = kind;
  PyErr_SetObject(type, exc.ptr());
}

}  // namespace
}  // namespace fano::python

PYBIND11_MODULE(fano, m) {
  using namespace fano;
  using namespace fano::python;
  namespace fs = std::filesystem;

  m.doc() =
      "Fano330-R-Morris: positions, moves, the solved tablebases and perfect play.\n\n"
      "Positions are written as in the fano command: seven stacks for spaces 1..7, each\n"
      "bottom to top (C white circle, T white triangle, c black circle, t black triangle,\n"
      "- empty), then w or b: '-/-/-/-/-/-/- w' is the empty board. Moves: 'C4', 'T4'\n"
      "(placements, the mover's colour), '7-5' (movements).\n\n"
      "Values are for the side to move: 'win', 'draw' or 'loss', with the plies until the\n"
      "game is over under perfect play (None for a draw).";
  m.attr("__version__") = kVersion;
  // Classes and functions say they come from `fano` (pickle finds them there)
  // also when this extension is fano.fano inside the pip-installed package.
  const py::object real_name = m.attr("__name__");
  m.attr("__name__") = "fano";

  // Exceptions. TablebaseError has `kind` ("missing", "not_a_file", "truncated",
  // "bad_magic", "bad_version", "checksum", "corrupt", "wrong_variant", "io").
  g_tablebase_error = PyErr_NewExceptionWithDoc(
      "fano.TablebaseError",
      "A tablebase file was refused or could not be written; `kind` says why (\"missing\", "
      "\"not_a_file\", \"truncated\", \"bad_magic\", \"bad_version\", \"checksum\", \"corrupt\", "
      "\"wrong_variant\", \"io\").",
      PyExc_RuntimeError, nullptr);
  g_unreachable = PyErr_NewExceptionWithDoc(
      "fano.UnreachablePosition",
      "A legal position that no game from the empty board reaches (the table does not hold it).",
      PyExc_ValueError, nullptr);
  g_missing = PyErr_NewExceptionWithDoc(
      "fano.MissingTablebaseError",
      "A table file that does not exist (kind \"missing\"): both a TablebaseError and a "
      "FileNotFoundError.",
      py::make_tuple(py::reinterpret_borrow<py::object>(g_tablebase_error),
                     py::reinterpret_borrow<py::object>(PyExc_FileNotFoundError))
          .release()
          .ptr(),
      nullptr);
  m.attr("TablebaseError") = py::reinterpret_borrow<py::object>(g_tablebase_error);
  m.attr("MissingTablebaseError") = py::reinterpret_borrow<py::object>(g_missing);
  m.attr("UnreachablePosition") = py::reinterpret_borrow<py::object>(g_unreachable);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const TablebaseError& e) {
      raise(e.kind() == TablebaseErrorKind::kMissing ? g_missing : g_tablebase_error, e,
            kind_name(e.kind()));
    } catch (const UnreachablePosition& e) {
      raise(g_unreachable, e);
    } catch (const NotationError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const py::cast_error& e) {
      // An argument of the wrong type met inside a call.
      PyErr_SetString(PyExc_TypeError, e.what());
    }
  });

  // ---- Variant
  py::class_<Variant>(m, "Variant",
                      "A rule variant: the stack cap (2 standard, 3) and where pieces move "
                      "('board': the printed board's edges; 'projective': any two spaces on a "
                      "common line). Immutable and hashable.")
      .def(py::init(&make_variant), py::arg("stack_cap") = 2, py::arg("adjacency") = "board",
           "Variant(stack_cap=2, adjacency='board'); ValueError for another cap or adjacency.")
      .def_property_readonly(
          "stack_cap", [](const Variant& v) { return v.stack_cap; },
          "Most pieces a stack may hold (2 or 3).")
      .def_property_readonly(
          "adjacency", [](const Variant& v) { return std::string(adjacency_name(v.adjacency)); },
          "'board' or 'projective'.")
      .def_static("from_name", &variant_named, py::arg("name"),
                  "The rules a name names: 'standard', 'cap3-projective-colour', "
                  "'standard-3c3t', ... (README, \"Rules\"); ValueError for another name.")
      .def_property_readonly(
          "line_rule", [](const Variant& v) { return std::string(lines_name(v.lines)); },
          "'colour-or-shape' (the rulebook) or 'colour' (colour-only lines).")
      .def_property_readonly(
          "circles", [](const Variant& v) { return v.circles; }, "Circles per player (1..3).")
      .def_property_readonly(
          "triangles", [](const Variant& v) { return v.triangles; }, "Triangles per player (1..3).")
      .def_property_readonly("slug", &variant_slug,
                             "Short name used for table files: 'standard', 'cap3-board', ...")
      .def_property_readonly("description", &variant_description,
                             "In words: 'stack cap 2, board adjacency'.")
      .def("__repr__", &variant_repr)
      .def("__eq__",
           [](const Variant& a, const py::object& b) {
             return py::isinstance<Variant>(b) && a == b.cast<const Variant&>();
           })
      .def("__hash__", [](const Variant& v) { return py::hash(py::str(variant_slug(v))); })
      .def(py::pickle(
          [](const Variant& v) {
            return py::make_tuple(v.stack_cap, std::string(adjacency_name(v.adjacency)),
                                  variant_slug(v));
          },
          [](const py::tuple& t) {
            if (t.size() >= 3) return variant_named(t[2].cast<std::string>());
            return make_variant(t[0].cast<int>(), t[1].cast<std::string>());
          }));
  m.attr("STANDARD") = py::cast(kStandard);
  py::list variants;
  for (const Variant& v : kAllVariants) variants.append(py::cast(v));
  m.attr("VARIANTS") = variants;

  // ---- Position
  py::class_<Position>(m, "Position",
                       "A position of a variant: the seven stacks and the side to move. "
                       "Immutable and hashable; play() returns a new Position.")
      .def(py::init(&parse), py::arg("text"), py::arg("variant") = kStandard,
           "Position(text, variant=STANDARD): as Position.parse.")
      .def_static("parse", &parse, py::arg("text"), py::arg("variant") = kStandard,
                  "Parses and checks a position in notation ('-/-/-/-/-/-/- w') against the "
                  "variant (stack cap, stacking rule, piece counts, side to move). Raises "
                  "ValueError naming the problem.")
      .def_static(
          "empty",
          [](const Variant& v) {
            return Position{kEmptyBoard, v};
          },
          py::arg("variant") = kStandard, "The empty board, White to move.")
      .def_static("from_code", &from_code, py::arg("code"), py::arg("variant") = kStandard,
                  "The position with this 64-bit code (see `code`); ValueError when the code is "
                  "not a valid position of the variant.")
      .def("__str__", [](const Position& p) { return format_position(p.state); })
      .def("__repr__", &position_repr)
      .def("__eq__",
           [](const Position& a, const py::object& b) {
             if (!py::isinstance<Position>(b)) return false;
             const Position& o = b.cast<const Position&>();
             return a.state == o.state && a.variant == o.variant;
           })
      .def("__hash__",
           [](const Position& p) {
             return py::hash(py::make_tuple(p.state.code, variant_slug(p.variant)));
           })
      .def_property_readonly(
          "to_move", [](const Position& p) { return colour_name(p.state.to_move()); },
          "'white' or 'black'.")
      .def_property_readonly(
          "code", [](const Position& p) { return p.state.code; },
          "The compact 64-bit code (core/include/fano/state.hpp): one per position.")
      .def_property_readonly(
          "variant", [](const Position& p) { return p.variant; }, "The position's Variant.")
      .def_property_readonly(
          "pieces_on_board", [](const Position& p) { return p.state.pieces_on_board(); },
          "Pieces on the board (placement ends at 8).")
      .def_property_readonly(
          "placement_phase", [](const Position& p) { return p.state.placement_phase(p.variant); },
          "True while pieces are still being placed.")
      .def("legal_moves", &legal_move_strings,
           "The legal moves in notation, in the rules' order (placements by shape, circle "
           "first, then space; movements by from-space then to-space). Empty when the game is "
           "over.")
      .def(py::pickle(
          [](const Position& p) { return py::make_tuple(format_position(p.state), p.variant); },
          [](const py::tuple& t) { return parse(t[0].cast<std::string>(), t[1].cast<Variant>()); }))
      .def("play", &play, py::arg("moves"),
           "The Position after a move ('C4', '7-5'), or a sequence of moves ('C4,t3' or "
           "['C4', 't3']). "
           "Raises ValueError for an illegal move or one played after the game has ended "
           "(a line, no move, or a repetition within the sequence).")
      .def("game_over", &game_over_dict,
           "None, or why the game is over here: {'reason': 'line'|'no_move', 'line': [1, 2, "
           "4] or None, 'loser': 'white'|'black', 'text': ...}. A Position has no history, "
           "so 'repetition' (rule 3) comes only from Tablebase.analyse(moves=...).");

  // ---- Tablebase
  py::class_<PyTablebase>(m, "Tablebase",
                          "A solved variant's table, checked and held in memory (open with "
                          "open_tablebase). Probing is thread-safe and releases the GIL in "
                          "probe_many, analyse and classes.")
      .def_property_readonly(
          "variant", [](const PyTablebase& t) { return t.tb.variant(); }, "The table's Variant.")
      .def_property_readonly(
          "path", [](const PyTablebase& t) { return t.path; }, "The file it was read from.")
      .def_property_readonly(
          "header", [](const PyTablebase& t) { return header_dict(t.tb.header()); },
          "The file's header: version, stack_cap, adjacency, symmetry_order, reachable, "
          "placement, movement, canonical (stored classes), win, loss, draw (over all "
          "reachable positions, side to move) and checksum.")
      .def(
          "__len__", [](const PyTablebase& t) { return t.tb.size(); },
          "The number of stored symmetry classes.")
      .def("__repr__",
           [](const PyTablebase& t) {
             return "<fano.Tablebase " + variant_repr(t.tb.variant()) + " '" + t.path + "', " +
                    std::to_string(t.tb.size()) + " classes>";
           })
      .def(
          "__enter__", [](const py::object& self) { return self; },
          "A Tablebase is a context manager: `with fano.open_tablebase() as tb:`.")
      .def(
          "__exit__",
          [](const PyTablebase&, const py::object&, const py::object&, const py::object&) {
            return false;
          },
          "Leaves the with block (the table stays usable: it is held in memory, no file is "
          "kept open).")
      .def(py::pickle([](const PyTablebase& t) { return py::make_tuple(t.path, t.tb.variant()); },
                      [](const py::tuple& t) {
                        return open_table(fs::path(t[0].cast<std::string>()), t[1].cast<Variant>(),
                                          false);
                      }))
      .def("probe", &probe, py::arg("position"),
           "(value, plies) for the side to move: value 'win', 'draw' or 'loss', plies the "
           "plies to the end under perfect play (None for a draw). No history (see analyse). "
           "Raises UnreachablePosition for a position no game reaches.")
      .def(
          "probe",
          [](const PyTablebase& t, std::uint64_t code) {
            return outcome_tuple(probe_state(t.tb, checked_code(t, code)));
          },
          py::arg("code"),
          "probe() of a position given by its code; ValueError for a code that is not a "
          "position of the table's variant (as Position.from_code).")
      .def("probe_codes", &probe_codes, py::arg("codes"),
           "probe() of a numpy array of codes (converted to uint64), vectorised, on all cores "
           "and without the GIL: a tuple (value, plies, valid) of arrays of the same length: value "
           "uint8 "
           "(0 loss, 1 draw, 2 win, as classes(); 255 where not valid), plies uint16 (0 for a "
           "draw or an invalid entry), valid bool (False for a code that is malformed, not a "
           "position of the table's variant, or unreachable). Never raises for an entry.")
      .def("probe_many", &probe_many, py::arg("positions"),
           "probe() of many positions (Positions or int codes, e.g. classes()['code']): a list "
           "of (value, plies) tuples in the same order. Probes without the GIL, so threads "
           "probe in parallel. Raises UnreachablePosition (or ValueError for an invalid code, "
           "TypeError for another type) for the first failing item, its message starting "
           "'item I: ' and its `index` attribute I.")
      .def(
          "analyse",
          [](const PyTablebase& t, const std::optional<Position>& position,
             const std::optional<MovesArg>& moves) {
            return to_python(report_json(report(t, position, moves)));
          },
          py::arg("position") = py::none(), py::kw_only(), py::arg("moves") = py::none(),
          "The report of 'fano query --json' as a dict: position, to_move, value, plies, "
          "table_value, table_plies, game_over, moves (every legal move rated, best first: "
          "move, position, result, plies, repeats), engine_move, pv, pv_end, history_note. "
          "Give a Position, or moves='C4,t3' (played from the empty board, or from the given "
          "position; the game's history applies: a repeated position is a draw, rule 3).")
      .def(
          "mainline",
          [](const PyTablebase& t, const std::optional<Position>& position,
             const std::optional<MovesArg>& moves) {
            return to_python(principal_variation_json(report(t, position, moves)));
          },
          py::arg("position") = py::none(), py::kw_only(), py::arg("moves") = py::none(),
          "The principal variation (the engine's play for both sides to the end of the game, "
          "or to the repetition that ends a draw) as the HTTP API's v2 /mainline object: "
          "position, to_move, value, plies, mainline (each move with its position and its "
          "mover's result and plies), end, winner; arguments as analyse().")
      .def("classes", &classes,
           "Every stored symmetry class as numpy arrays of equal length len(tb): 'code' "
           "(uint64, the canonical position's code), 'value' (uint8: 0 loss, 1 draw, 2 win, "
           "for the side to move), 'plies' (uint16, 0 for a draw), 'orbit' (uint32, the "
           "positions in the class; they sum to header['reachable']).");

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
      "default_tablebase_path", [](const Variant& v) { return table_path(v); },
      py::arg("variant") = kStandard,
      "Where open_tablebase() reads a variant's table (solving it there first when missing).");
  m.def("cache_dir", &cache_dir,
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
  m.def("solve", &solve_variant, py::arg("variant") = kStandard, py::arg("path") = py::none(),
        py::arg("threads") = py::none(),
        "Solves a variant (enumeration, retrograde analysis; the GIL is released) and, given a "
        "path, writes its table there atomically. Returns the counts as 'fano solve --json': "
        "stack_cap, adjacency, reachable, placement, movement, canonical, win, loss, draw, "
        "start {value, plies}, then tablebase and tablebase_bytes (with a path) and seconds. "
        "threads: worker threads (None or 0: all cores).");
  m.attr("__name__") = real_name;
}
