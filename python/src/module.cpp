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

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "fano/analysis.hpp"
#include "fano/analysis_json.hpp"
#include "fano/batch.hpp"
#include "fano/board.hpp"
#include "fano/export.hpp"
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

// The name of an error kind, as the `kind` attribute of fano.TablebaseError
// (the shared table of error kinds, fano/errors.hpp; its names are literals).
const char* kind_name(TablebaseErrorKind kind) { return error_info(kind).name.data(); }

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
  if (const std::string why = code_error(code, v); !why.empty()) throw NotationError(why);
  return {State{code}, v};
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
  // The index of probe_codes, built on first use (the GIL held: one builder).
  mutable std::shared_ptr<const CodeIndex> index;

  const CodeIndex& code_index() const {
    if (!index) index = std::make_shared<const CodeIndex>(tb);
    return *index;
  }
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
  const bool found = dladdr(reinterpret_cast<void*>(&table_dir), &info) && info.dli_fname;
  return table_dir_for_binary(found ? info.dli_fname : "", FANO_PYTHON_INSTALL_DIR,
                              FANO_INSTALL_TABLE_DIR);
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
  // As the fano command (choose_table). A missing default table is solved on
  // first use (into FANO_TABLES or the cache, see table_dir_for).
  const TableChoice choice = choose_table(path ? std::optional(path->string()) : std::nullopt, v,
                                          table_dir_for(v.value_or(kStandard)).path);
  const std::string& p = choice.path;
  const std::optional<Variant>& expected = choice.expected;
  py::gil_scoped_release release;
  try {
    std::error_code ec;
    if (!path && solve_missing && !fs::exists(p, ec)) solve_into(*expected, p);
    Tablebase tb = fano::open_tablebase(p, expected);
    return PyTablebase{std::move(tb), p, nullptr};
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

// A bare code does not say which rules it was made under, and a code of the
// standard game is also a legal position of cap 3 with another value: probed
// there it would be answered silently and wrongly. So every call that takes
// codes takes their variant too (STANDARD when not said, as everywhere in the
// module), and a table of other rules refuses them.
void check_codes_variant(const PyTablebase& t, const std::optional<Variant>& stated,
                         const char* call) {
  const Variant v = stated.value_or(kStandard);
  if (v == t.tb.variant()) return;
  throw py::value_error(std::string(call) + ": codes of " + variant_repr(v) +
                        (stated ? "" : " (variant= not given: STANDARD)") +
                        " cannot be probed in a table of " + variant_repr(t.tb.variant()) +
                        "; pass the variant the codes were made under, e.g. variant=tb.variant");
}

// Tablebase.probe: a Position (its own variant), or an int code made under
// `variant`.
py::tuple probe(const PyTablebase& t, const py::handle& item, const std::optional<Variant>& v) {
  if (py::isinstance<Position>(item)) {
    const Position& p = item.cast<const Position&>();
    if (v && !(*v == p.variant))
      throw py::value_error("probe(): variant= " + variant_repr(*v) + " is not the variant of " +
                            position_repr(p));
    check_variant(t, p);
    return outcome_tuple(probe_state(t.tb, p.state));
  }
  const std::uint64_t code = code_arg(item, "position");
  check_codes_variant(t, v, "probe()");
  return outcome_tuple(probe_state(t.tb, checked_code(t, code)));
}

// Raises the error of item i of probe_many: its message prefixed with the index.
[[noreturn]] void fail_item(std::size_t i, PyObject* type, const std::string& message) {
  py::object exc =
      py::reinterpret_borrow<py::object>(type)("item " + std::to_string(i) + ": " + message);
  exc.attr("index") = i;
  PyErr_SetObject(type, exc.ptr());
  throw py::error_already_set();
}

py::list probe_many(const PyTablebase& t, const py::iterable& items,
                    const std::optional<Variant>& codes_variant) {
  std::vector<State> states;
  bool checked = false;  // the codes' variant, at the first code
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

// ---------------------------------------------------------------- arrays

// Runs f(begin, end) over blocks of [0, n) on all cores (or `threads`), with
// the GIL released; each entry is written by one block, so the arrays are the
// same for any thread count.
template <class F>
void for_blocks(py::ssize_t n, const std::optional<int>& threads, const F& f) {
  if (threads && (*threads < 0 || *threads > 1024))
    throw py::value_error("threads must be 0..1024, got " + std::to_string(*threads));
  py::gil_scoped_release release;
  const auto run = [&] {
    par::parallel_for(par::blocked_range<py::ssize_t>(0, n, 1 << 14),
                      [&](const auto& r) { f(std::size_t(r.begin()), std::size_t(r.end())); });
  };
  if (threads && *threads > 0) {
    par::task_arena arena(*threads);
    arena.execute(run);
  } else {
    run();
  }
}

// An array of position codes from Python: a numpy array or a sequence of
// ints, as a one-dimensional C-contiguous uint64 array. TypeError for
// anything but integers; ValueError for another shape. `negative` is set
// when a signed input holds a negative entry (it becomes a code no position
// has: bits above the side to move).
py::array_t<std::uint64_t> codes_arg(const py::handle& obj, bool* negative = nullptr) {
  if (negative) *negative = false;
  if (!py::isinstance<py::array>(obj)) {
    // A sequence of Python ints, one at a time as probe(code) converts them
    // (numpy would make floats of a list mixing large and small ints). A
    // negative int becomes a code no position has (all bits set).
    if (py::isinstance<py::str>(obj) || !py::hasattr(obj, "__iter__"))
      throw py::type_error("codes must be an array or a sequence of int codes, not " +
                           type_name(obj));
    const py::list items = py::list(py::iter(obj));
    py::array_t<std::uint64_t> out(py::ssize_t(items.size()));
    std::uint64_t* o = out.mutable_data();
    for (std::size_t i = 0; i < items.size(); ++i) {
      PyObject* item = PyList_GET_ITEM(items.ptr(), py::ssize_t(i));
      if (!PyLong_Check(item) || PyBool_Check(item))
        throw py::type_error("item " + std::to_string(i) + " must be an int code, not " +
                             type_name(item));
      int overflow = 0;
      const long long signed_value = PyLong_AsLongLongAndOverflow(item, &overflow);
      if (overflow == 0 && signed_value < 0) {
        if (negative) *negative = true;
        o[i] = ~std::uint64_t(0);
        continue;
      }
      const unsigned long long c = PyLong_AsUnsignedLongLong(item);
      if (PyErr_Occurred()) {
        PyErr_Clear();
        throw py::value_error("item " + std::to_string(i) + ": " +
                              py::str(item).cast<std::string>() + " is not a 64-bit position code");
      }
      o[i] = c;
    }
    return out;
  }
  const auto a = py::reinterpret_borrow<py::array>(obj);
  if (a.ndim() != 1)
    throw py::value_error("codes must be a one-dimensional array, got " + std::to_string(a.ndim()) +
                          " dimensions");
  const char kind = a.dtype().kind();
  if (a.size() == 0) return py::array_t<std::uint64_t>(0);
  if (kind != 'u' && kind != 'i')
    throw py::type_error("codes must be integers, not an array of " +
                         py::str(a.dtype()).cast<std::string>());
  if (kind == 'i' && negative) {
    const py::module_ np = py::module_::import("numpy");
    *negative = np.attr("any")(np.attr("less")(a, 0)).cast<bool>();
  }
  // Signed entries convert as C++ does: a negative one sets the high bits (a
  // code no position has).
  return py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>::ensure(a);
}

// The first failing entry over the blocks of an array call (blocks finish in
// any order; the least index is the first).
struct FirstBad {
  std::atomic<std::size_t> index{SIZE_MAX};
  void offer(std::size_t i) {
    std::size_t cur = index.load();
    while (i < cur && !index.compare_exchange_weak(cur, i)) {
    }
  }
};

// fano.canonical_codes: the canonical code of every entry.
py::array_t<std::uint64_t> canonical_codes_of(const py::handle& obj, const Variant& v,
                                              const std::optional<int>& threads) {
  bool negative = false;
  const py::array_t<std::uint64_t> codes = codes_arg(obj, &negative);
  const auto n = codes.shape(0);
  py::array_t<std::uint64_t> out(n);
  const std::uint64_t* c = codes.data();
  std::uint64_t* o = out.mutable_data();
  const Symmetry& sym = symmetry_of(v);
  FirstBad bad;
  for_blocks(n, threads, [&](std::size_t b, std::size_t e) {
    if (const auto i = canonical_codes(sym, v, {c + b, e - b}, {o + b, e - b})) bad.offer(b + *i);
  });
  if (const std::size_t i = bad.index; i != SIZE_MAX)
    fail_item(i, PyExc_ValueError,
              negative && std::int64_t(c[i]) < 0
                  ? "a negative number is not a position code"
                  : code_error(c[i], v) + " (" + variant_repr(v) + ")");
  return out;
}

// fano.parse_positions: the code of every notation string.
py::array_t<std::uint64_t> parse_positions_of(const py::handle& obj, const Variant& v,
                                              const std::optional<int>& threads) {
  if (py::isinstance<py::str>(obj) || py::isinstance<py::bytes>(obj))
    throw py::type_error(
        "parse_positions takes a sequence of strings, not one string "
        "(Position.parse parses one)");
  // The strings' UTF-8 bytes, held by the list while the GIL is released.
  const py::list items = py::list(py::iter(obj));
  const std::size_t n = items.size();
  std::vector<std::string_view> texts(n);
  for (std::size_t i = 0; i < n; ++i) {
    PyObject* item = PyList_GET_ITEM(items.ptr(), py::ssize_t(i));
    if (!PyUnicode_Check(item))
      throw py::type_error("item " + std::to_string(i) + " must be a str, not " + type_name(item));
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(item, &size);
    if (!data) throw py::error_already_set();
    texts[i] = {data, std::size_t(size)};
  }
  const auto len = py::ssize_t(n);
  py::array_t<std::uint64_t> out(len);
  std::uint64_t* o = out.mutable_data();
  FirstBad bad;
  for_blocks(len, threads, [&](std::size_t b, std::size_t e) {
    if (const auto i = parse_positions({texts.data() + b, e - b}, v, {o + b, e - b}))
      bad.offer(b + *i);
  });
  if (const std::size_t i = bad.index; i != SIZE_MAX) {
    try {
      parse_position(texts[i], v);
    } catch (const NotationError& e) {
      fail_item(i, PyExc_ValueError, e.what());
    }
  }
  return out;
}

// fano.format_positions: the notation of every code (ValueError naming the
// first code that is not a position of the variant).
py::list format_positions_of(const py::handle& obj, const Variant& v) {
  bool negative = false;
  const py::array_t<std::uint64_t> codes = codes_arg(obj, &negative);
  const std::uint64_t* c = codes.data();
  py::list out(codes.shape(0));
  for (py::ssize_t i = 0; i < codes.shape(0); ++i) {
    if (!is_valid_position(State{c[i]}, v))
      fail_item(std::size_t(i), PyExc_ValueError,
                negative && std::int64_t(c[i]) < 0
                    ? "a negative number is not a position code"
                    : code_error(c[i], v) + " (" + variant_repr(v) + ")");
    out[std::size_t(i)] = py::str(format_position(State{c[i]}));
  }
  return out;
}

// Tablebase.probe_codes: (value, plies, valid) arrays.
py::tuple probe_codes(const PyTablebase& t, const py::handle& obj,
                      const std::optional<Variant>& codes_variant,
                      const std::optional<int>& threads) {
  check_codes_variant(t, codes_variant, "probe_codes()");
  const py::array_t<std::uint64_t> codes = codes_arg(obj);
  const CodeIndex& index = t.code_index();
  const auto n = codes.shape(0);
  py::array_t<std::uint8_t> value(n);
  py::array_t<std::uint16_t> plies(n);
  py::array_t<bool> valid(n);
  const std::uint64_t* c = codes.data();
  std::uint8_t* v = value.mutable_data();
  std::uint16_t* p = plies.mutable_data();
  bool* ok = valid.mutable_data();
  for_blocks(n, threads, [&](std::size_t b, std::size_t e) {
    index.probe({c + b, e - b}, ProbeArrays{{v + b, e - b}, {p + b, e - b}, {ok + b, e - b}});
  });
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

// ---------------------------------------------------------------- pandas

// pandas, or an ImportError saying who needs it and how to get it.
py::module_ import_pandas() {
  try {
    return py::module_::import("pandas");
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_ImportError)) throw;
    PyErr_SetString(PyExc_ImportError,
                    "Tablebase.to_pandas() needs pandas, which is not installed (Debian: apt "
                    "install python3-pandas; elsewhere: pip install pandas); classes() and "
                    "probe_codes() give the same columns as numpy arrays without it");
    throw py::error_already_set();
  }
}

// The rows of a DataFrame: a code each, its value (kNoValue where the table
// has none), plies and, for classes, the orbit size.
struct FrameRows {
  std::vector<std::uint64_t> code;
  std::vector<std::uint8_t> value;
  std::vector<std::uint16_t> plies;
  std::vector<std::uint32_t> orbit;

  void add(const ExportRow& r, bool classes) {
    code.push_back(r.position.code);
    value.push_back(std::uint8_t(r.outcome.value));
    plies.push_back(r.outcome.plies);
    if (classes) orbit.push_back(r.orbit);
  }
};

template <class T>
py::array_t<T> to_array(const std::vector<T>& v) {
  const auto len = py::ssize_t(v.size());
  py::array_t<T> a(len);
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

// The DataFrame of `rows` with the columns of `fano export` (export_columns:
// the schema's words), in its order: position (str, None where the code is
// not a position of the variant), to_move and phase (categories), pieces
// (UInt8), value (ordered categories loss < draw < win), plies (UInt16, <NA>
// for a draw or no value), orbit (classes) and code (uint64).
py::object make_frame(const FrameRows& rows, const Variant& v, bool classes) {
  const py::module_ pd = import_pandas();
  const std::size_t n = rows.code.size();
  const auto len = py::ssize_t(n);
  py::list position(n);
  py::array_t<std::int8_t> to_move(len), phase(len), value(len);
  py::array_t<std::uint8_t> pieces(len);
  py::array_t<bool> pieces_na(len), plies_na(len);
  for (std::size_t i = 0; i < n; ++i) {
    const State st{rows.code[i]};
    const bool ok = is_valid_position(st, v);
    position[i] = ok ? py::object(py::str(format_position(st))) : py::object(py::none());
    to_move.mutable_data()[i] = ok ? std::int8_t(st.to_move() == Colour::kBlack) : -1;
    phase.mutable_data()[i] = ok ? std::int8_t(!st.placement_phase(v)) : -1;
    pieces.mutable_data()[i] = ok ? std::uint8_t(st.pieces_on_board()) : 0;
    pieces_na.mutable_data()[i] = !ok;
    const std::uint8_t val = rows.value[i];
    value.mutable_data()[i] = val == kNoValue ? -1 : std::int8_t(val);
    plies_na.mutable_data()[i] = val == kNoValue || val == std::uint8_t(Value::kDraw);
  }
  const py::object categorical = pd.attr("Categorical").attr("from_codes");
  const py::object integers = pd.attr("arrays").attr("IntegerArray");
  std::map<std::string_view, py::object> columns{
      {"position", position},
      {"to_move", categorical(to_move, py::make_tuple("white", "black"))},
      {"phase", categorical(phase, py::make_tuple("placement", "movement"))},
      {"pieces", integers(pieces, pieces_na)},
      {"value",
       categorical(value, py::make_tuple("loss", "draw", "win"), py::arg("ordered") = true)},
      {"plies", integers(to_array(rows.plies), plies_na)},
      {"orbit", to_array(rows.orbit)},
      {"code", to_array(rows.code)}};
  py::dict frame;
  for (const std::string_view name : export_columns(classes))
    frame[py::str(std::string(name))] = columns.at(name);
  return pd.attr("DataFrame")(frame);
}

// Tablebase.to_pandas.
py::object to_pandas(const PyTablebase& t, const std::optional<py::object>& codes,
                     const std::string& rows_of, const std::optional<Variant>& codes_variant) {
  if (rows_of != "classes" && rows_of != "positions")
    throw py::value_error("rows must be 'classes' or 'positions', got '" + rows_of + "'");
  import_pandas();  // before any work
  FrameRows rows;
  if (codes_variant && !codes)
    throw py::value_error("variant= is the variant of codes=; give both");
  if (codes) {
    if (rows_of != "classes") throw py::value_error("give codes or rows='positions', not both");
    const py::tuple r = probe_codes(t, *codes, codes_variant, std::nullopt);
    const auto c = codes_arg(*codes);
    const auto value = r[0].cast<py::array_t<std::uint8_t>>();
    const auto plies = r[1].cast<py::array_t<std::uint16_t>>();
    rows.code.assign(c.data(), c.data() + c.size());
    rows.value.assign(value.data(), value.data() + value.size());
    rows.plies.assign(plies.data(), plies.data() + plies.size());
    return make_frame(rows, t.tb.variant(), false);
  }
  const bool classes = rows_of == "classes";
  {
    py::gil_scoped_release release;
    const auto add = [&](std::span<const ExportRow> chunk) {
      for (const ExportRow& r : chunk) rows.add(r, classes);
    };
    if (classes)
      for_each_class(t.tb, add);
    else
      for_each_reachable(t.tb, add);
  }
  return make_frame(rows, t.tb.variant(), classes);
}

// ---------------------------------------------------------------- the module, by stage

void bind_errors(py::module_& m) {
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
}

void bind_variant(py::module_& m) {
  py::class_<Variant>(m, "Variant",
                      "A rule variant: the stack cap (2 standard, 3) and where pieces move "
                      "('board': the printed board's edges; 'projective': any two spaces on a "
                      "common line). Immutable and hashable.")
      .def(py::init(&make_variant), py::arg("stack_cap") = 2, py::arg("adjacency") = "board",
           "Variant(stack_cap=2, adjacency='board'); ValueError for another cap or adjacency.")
      .def(py::init(&variant_named), py::arg("name"),
           "Variant('standard-colour'): the rules a name names, as Variant.from_name; a name "
           "is accepted wherever a Variant is (variant='cap3-3c1t').")
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
  // A name where a Variant is expected: Position.parse(text, 'cap3-colour').
  py::implicitly_convertible<py::str, Variant>();
  m.attr("STANDARD") = py::cast(kStandard);
  py::list variants, every;
  for (const Variant& v : kAllVariants) variants.append(py::cast(v));
  for (const Variant& v : every_rules()) every.append(py::cast(v));
  m.attr("VARIANTS") = variants;
  m.attr("EVERY_RULES") = every;
}

py::class_<Position> bind_position(py::module_& m) {
  return py::class_<Position>(m, "Position",
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
          "Pieces on the board (placement ends when all the rules' pieces are placed: 8 in the "
          "rulebook).")
      .def_property_readonly(
          "placement_phase", [](const Position& p) { return p.state.placement_phase(p.variant); },
          "True while pieces are still being placed.");
}

// What a Position does: its moves, the game end, pickling.
void bind_moves(py::class_<Position>& position) {
  position
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
           "so 'repetition' (rule 3) comes only from Tablebase.analyse(moves=...).")
      .def(
          "is_terminal", [](const Position& p) { return game_end(p.rules(), p.state).has_value(); },
          "True when the game is over here (game_over() is not None), as pyspiel's "
          "State.is_terminal().")
      .def(
          "returns",
          [](const Position& p) {
            const auto end = game_end(p.rules(), p.state);
            if (!end || !end->loser) return py::make_tuple(0, 0);
            return *end->loser == Colour::kWhite ? py::make_tuple(-1, 1) : py::make_tuple(1, -1);
          },
          "(white, black) as pyspiel's State.returns(): (-1, 1) or (1, -1) when the game is "
          "over here, (0, 0) otherwise.");
}

// The class with its file, conventions and size; the other stages add its calls.
py::class_<PyTablebase> bind_tablebase(py::module_& m) {
  return py::class_<PyTablebase>(m, "Tablebase",
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
                      }));
}

void bind_probes(py::class_<PyTablebase>& tb) {
  tb.def("probe", &probe, py::arg("position"), py::kw_only(), py::arg("variant") = py::none(),
         "(value, plies) for the side to move: value 'win', 'draw' or 'loss', plies the "
         "plies to the end under perfect play (None for a draw). No history (see analyse). "
         "Raises UnreachablePosition for a position no game reaches. `position` is a "
         "Position or an int code made under `variant` (STANDARD if not given): ValueError "
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
             const std::optional<Variant>& v) {
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
              if (!is_valid_position(State{code}, t.tb.variant())) return fallback;
              st = State{code};
            }
            const auto o = t.tb.probe(st);
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

void bind_analysis(py::class_<PyTablebase>& tb) {
  tb.def(
        "analyse",
        [](const PyTablebase& t, const std::optional<Position>& position,
           const std::optional<MovesArg>& moves) {
          return to_python(report_json(report(t, position, moves)));
        },
        py::arg("position") = py::none(), py::kw_only(), py::arg("moves") = py::none(),
        "The report of 'fano query --json' as a dict: position, to_move, value, plies, "
        "table_value, table_plies, game_over, moves (every legal move rated, best first: "
        "move, position, result, plies, repeats), engine_move, pv, pv_end, pv_continues_drawn "
        "(a drawn pv cut at 100 plies with no repetition yet), history_note. "
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
          "mover's result and plies), end, winner, continues_drawn (a drawn line cut at 100 "
          "plies with no repetition yet); arguments as analyse().");
}

void bind_table_arrays(py::class_<PyTablebase>& tb) {
  tb.def("classes", &classes,
         "Every stored symmetry class as numpy arrays of equal length len(tb): 'code' "
         "(uint64, the canonical position's code), 'value' (uint8: 0 loss, 1 draw, 2 win, "
         "for the side to move), 'plies' (uint16, 0 for a draw), 'orbit' (uint32, the "
         "positions in the class; they sum to header['reachable']).")
      .def("to_pandas", &to_pandas, py::arg("codes") = py::none(), py::kw_only(),
           py::arg("rows") = "classes", py::arg("variant") = py::none(),
           "A pandas DataFrame with the columns of 'fano export' (the schema's words): "
           "position, to_move, phase, pieces, value, plies, orbit (classes only), code. "
           "rows='classes' (default): one row per stored class, as 'fano export --classes'; "
           "rows='positions': one row per reachable position, as 'fano export' (ascending "
           "code); codes=array: one row per code, the probe_codes() result, variant= as there "
           "(value and plies "
           "<NA> where not valid; position, to_move, phase and pieces <NA> where the code is "
           "not a position of the variant). value is an ordered categorical (loss < draw < "
           "win), to_move and phase categoricals, plies and pieces nullable integers (plies "
           "<NA> for a draw). ImportError naming the package when pandas is not installed.");
}

void bind_arrays(py::module_& m) {
  m.def("parse_positions", &parse_positions_of, py::arg("texts"), py::arg("variant") = kStandard,
        py::kw_only(), py::arg("threads") = py::none(),
        "Position.parse() of a sequence of strings (a list, a numpy array of str, ...) at "
        "once, without the GIL: a uint64 array of their codes. ValueError for the first "
        "text that does not parse: 'item I: ' and the reason, with the attribute `index` I; "
        "TypeError for an item that is not a str.");
  m.def("canonical_codes", &canonical_codes_of, py::arg("codes"), py::arg("variant") = kStandard,
        py::kw_only(), py::arg("threads") = py::none(),
        "The canonical code (the least code of its symmetry class under the variant's rule "
        "symmetries, the code classes() stores) of each code of an integer array or "
        "sequence, without the GIL: a uint64 array. ValueError for the first code that is "
        "not a position of the variant: 'item I: ' and the reason (as Position.from_code), "
        "with the attribute `index` I.");
  m.def("format_positions", &format_positions_of, py::arg("codes"), py::arg("variant") = kStandard,
        "The notation of each code of an integer array or sequence: a list of str (str() of "
        "Position.from_code). ValueError as canonical_codes().");
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
}

}  // namespace
}  // namespace fano::python

PYBIND11_MODULE(fano, m) {
  using namespace fano::python;

  m.doc() =
      "Fano330-R-Morris: positions, moves, the solved tablebases and perfect play.\n\n"
      "Positions are written as in the fano command: seven stacks for spaces 1..7, each\n"
      "bottom to top (C white circle, T white triangle, c black circle, t black triangle,\n"
      "- empty), then w or b: '-/-/-/-/-/-/- w' is the empty board. Moves: 'C4', 'T4'\n"
      "(placements, the mover's colour), '7-5' (movements).\n\n"
      "Values are for the side to move: 'win', 'draw' or 'loss', with the plies until the\n"
      "game is over under perfect play (None for a draw).";
  m.attr("__version__") = fano::kVersion;
  // Classes and functions say they come from `fano` (pickle finds them there)
  // also when this extension is fano.fano inside the pip-installed package.
  const py::object real_name = m.attr("__name__");
  m.attr("__name__") = "fano";

  bind_errors(m);
  bind_variant(m);
  py::class_<Position> position = bind_position(m);
  bind_moves(position);
  bind_arrays(m);
  py::class_<PyTablebase> tb = bind_tablebase(m);
  bind_probes(tb);
  bind_analysis(tb);
  bind_table_arrays(tb);
  bind_files(m);
  m.attr("__name__") = real_name;
}
