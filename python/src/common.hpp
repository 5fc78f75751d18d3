// What the topic files of the module `fano` share: the Python objects behind
// Position and Tablebase, argument conversions (moves, codes, arrays), the
// module's exception types and the JSON-to-Python conversion. Each topic file
// (variant.cpp, positions.cpp, tables.cpp, arrays.cpp, pandas.cpp, games.cpp)
// defines its bind_* function; module.cpp calls them in order.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <atomic>
#include <climits>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "fano/batch.hpp"
#include "fano/board.hpp"
#include "fano/game.hpp"
#include "fano/json.hpp"
#include "fano/parallel.hpp"
#include "fano/rules.hpp"
#include "fano/state.hpp"
#include "fano/tablebase.hpp"

namespace py = pybind11;

namespace fano::python {

namespace fs = std::filesystem;

// The exception types the module defines (created by bind_errors).
extern PyObject* g_tablebase_error;
extern PyObject* g_missing;
extern PyObject* g_unreachable;

// Moves as Python gives them: "C4,t3" or ["C4", "t3"].
using MovesArg = std::variant<std::string, std::vector<std::string>>;
std::string moves_text(const MovesArg& moves);

// The Python type name of an object, for TypeError messages.
std::string type_name(const py::handle& h);

// nlohmann JSON to Python objects (dicts keep the document's key order).
py::object to_python(const Json& j);

// ---------------------------------------------------------------- variants

// A Variant argument: a fano.Variant or the name of rules ('cap3-colour'), a
// ValueError naming an unknown name (pybind11's implicit conversion would
// turn that into "incompatible function arguments"). Shown as `str | Variant`.
struct VariantArg {
  Variant v = kStandard;
  operator const Variant&() const { return v; }  // NOLINT: an argument is its variant
};
using OptVariant = std::optional<VariantArg>;
inline std::optional<Variant> opt(const OptVariant& v) {
  return v ? std::optional<Variant>(v->v) : std::nullopt;
}

// The rules a name names (the library's one parser); ValueError with its message.
Variant variant_named(const std::string& name);
std::string variant_repr(const Variant& v);

// ---------------------------------------------------------------- positions

// A position of a variant (no game history: rule 3 needs a game, see
// Tablebase.analyse(moves=...)).
struct Position {
  State state;
  Variant variant;

  Rules rules() const { return Rules(variant); }
};

// A position as a Position or as its text ("-/-/-/C/-/-/- b"), read in the
// rules of the table it is asked of, as the command line and the API take it.
using PositionArg = std::variant<Position, std::string>;

Position parse(const std::string& text, const Variant& v);
Position from_code(std::uint64_t code, const Variant& v);
std::string position_repr(const Position& p);

// ---------------------------------------------------------------- tablebases

// A table opened from Python. close() lets it go: the calls that run
// without the GIL hold it (hold()) until they end, so a close() from another
// thread never frees a table in use.
struct PyTablebase {
  std::shared_ptr<const Tablebase> held;  // null once closed
  std::string path;                       // absolute
  Variant variant;
  // The index of probe_codes, built on first use (the GIL held: one builder).
  mutable std::shared_ptr<const CodeIndex> index;

  // The table; ValueError once closed.
  std::shared_ptr<const Tablebase> hold() const;
  const Tablebase& table() const { return *hold(); }
  std::shared_ptr<const CodeIndex> code_index() const;
  void close() {
    held.reset();
    index.reset();
  }
};

// A game in progress (fano.Game): the record with its history, and its rules.
struct PyGame {
  GameRecord record;
  Variant variant;
};

PyTablebase open_table(const std::optional<fs::path>& path, const OptVariant& v,
                       bool solve_missing);
void check_variant(const PyTablebase& t, const Position& p);
py::tuple outcome_tuple(Outcome o);
// A bare code's variant (STANDARD when not said) against the table's: ValueError
// naming `call` when they differ.
void check_codes_variant(const PyTablebase& t, const std::optional<Variant>& stated,
                         const char* call);
py::dict header_dict(const TablebaseHeader& h);

// ---------------------------------------------------------------- codes and arrays

// An int of Python, or of numpy: the item as a Python int (a new reference),
// or null when it is not an integer (a bool, a float, anything else).
py::object as_int(PyObject* item);

// An int code from Python (an int or a numpy integer: anything with
// __index__ but a bool): TypeError "<what> must be <expected>, not <type>" for
// another type, ValueError for a negative or too large int.
std::uint64_t code_arg(const py::handle& item, const std::string& what,
                       const char* expected = "a Position or an int code");

// Raises the error of item i of an array call: its message prefixed with the
// index, which is also the exception's `index` attribute.
[[noreturn]] void fail_item(std::size_t i, PyObject* type, const std::string& message);

// Imports numpy and looks its C API up, once; every call that makes or reads
// an array calls it first. numpy is not imported with the module: it is most
// of a script's start (20 MiB and a fifth of a second of a `fano export`'s
// whole work from Python) and the scalar calls, the files and the solver do
// without it.
void require_numpy();

// An array of position codes from Python: a numpy array or a sequence of
// ints, as a one-dimensional C-contiguous uint64 array. TypeError for
// anything but integers; ValueError for another shape. `negative` is set
// when a signed input holds a negative entry (it becomes a code no position
// has: bits above the side to move).
py::array_t<std::uint64_t> codes_arg(const py::handle& obj, bool* negative = nullptr);

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

// Probes codes of the table's variant: (value, plies, valid) arrays.
py::tuple probe_codes(const PyTablebase& t, const py::handle& obj, const OptVariant& codes_variant,
                      const std::optional<int>& threads);

// ---------------------------------------------------------------- the module, by topic

void bind_errors(py::module_& m);                        // common.cpp
void bind_variant(py::module_& m);                       // variant.cpp
py::class_<Position> bind_position(py::module_& m);      // positions.cpp
void bind_moves(py::class_<Position>& position);         // positions.cpp
void bind_arrays(py::module_& m);                        // arrays.cpp
py::class_<PyTablebase> bind_tablebase(py::module_& m);  // tables.cpp
void bind_probes(py::class_<PyTablebase>& tb);           // tables.cpp
void bind_analysis(py::class_<PyTablebase>& tb);         // tables.cpp
void bind_table_arrays(py::class_<PyTablebase>& tb);     // arrays.cpp
void bind_pandas(py::class_<PyTablebase>& tb);           // pandas.cpp
void bind_files(py::module_& m);
void bind_games(py::module_& m);  // games.cpp                         // tables.cpp
// Last: inspect's text signatures from pybind11's docstrings (signatures.cpp).
void add_text_signatures(py::module_& m);

}  // namespace fano::python

namespace pybind11::detail {

// The module's classes refuse an object whose constructor never ran
// (Position.__new__(Position)): pybind11 would hand the calls memory it
// allocates then and never initialises. pickle makes objects through
// __new__ too, but __setstate__ constructs them before any call reads them.
template <class T>
struct initialised_caster : type_caster_base<T> {
  bool load(handle src, bool convert) {
    const auto* info = get_type_info(typeid(T));
    if (src && info && PyObject_TypeCheck(src.ptr(), info->type)) {
      auto* inst = reinterpret_cast<instance*>(src.ptr());
      if (!inst->get_value_and_holder(info).holder_constructed())
        throw type_error("this fano." +
                         str(handle(reinterpret_cast<PyObject*>(info->type)).attr("__name__"))
                             .cast<std::string>() +
                         " object is not initialised (made by __new__ without its constructor)");
    }
    return type_caster_base<T>::load(src, convert);
  }
};
template <>
struct type_caster<fano::Variant> : initialised_caster<fano::Variant> {};
template <>
struct type_caster<fano::python::Position> : initialised_caster<fano::python::Position> {};
template <>
struct type_caster<fano::python::PyTablebase> : initialised_caster<fano::python::PyTablebase> {};
template <>
struct type_caster<fano::python::PyGame> : initialised_caster<fano::python::PyGame> {};

template <>
struct type_caster<fano::python::VariantArg> {
  PYBIND11_TYPE_CASTER(fano::python::VariantArg, const_name("str | Variant"));
  bool load(handle src, bool) {
    if (isinstance<fano::Variant>(src)) {
      value.v = src.cast<fano::Variant>();
      return true;
    }
    if (isinstance<str>(src)) {
      value.v = fano::python::variant_named(src.cast<std::string>());  // ValueError
      return true;
    }
    return false;
  }
  static handle cast(const fano::python::VariantArg& a, return_value_policy, handle) {
    return pybind11::cast(a.v).release();
  }
};
}  // namespace pybind11::detail

namespace fano::python {
// The argument `variant` defaulting to STANDARD (shown so in signatures).
inline py::arg_v standard_variant_arg() { return py::arg_v("variant", VariantArg{}, "STANDARD"); }
}  // namespace fano::python
