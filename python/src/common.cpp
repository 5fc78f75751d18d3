// Shared by the topic files: conversions, the module's exceptions and their
// translation from the libraries' errors (fano/errors.hpp).

#include "common.hpp"

#include <string>
#include <utility>

#include "fano/analysis.hpp"
#include "fano/errors.hpp"
#include "fano/game.hpp"
#include "fano/notation.hpp"

namespace fano::python {

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
      throw py::value_error("a list of moves holds one move per item, got " + quote(m));
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
namespace {
const char* kind_name(TablebaseErrorKind kind) { return error_info(kind).name.data(); }
}  // namespace

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

py::tuple outcome_tuple(Outcome o) {
  return py::make_tuple(std::string(value_name(o.value)),
                        o.value == Value::kDraw ? py::object(py::none()) : py::int_(o.plies));
}

// An int code from Python: TypeError for another type, ValueError for a
// negative or too large int.
namespace {

// True for a bool or numpy's bool_ (both have __index__ in some numpy versions).
bool is_bool(PyObject* o) {
  if (PyBool_Check(o)) return true;
  const char* name = Py_TYPE(o)->tp_name;
  return std::string_view(name) == "numpy.bool_";
}

}  // namespace

py::object as_int(PyObject* item) {
  if (PyLong_Check(item)) return py::reinterpret_borrow<py::object>(item);
  if (is_bool(item) || PyFloat_Check(item) || !PyIndex_Check(item)) return {};
  PyObject* i = PyNumber_Index(item);
  if (!i) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(i);
}

std::uint64_t code_arg(const py::handle& item, const std::string& what, const char* expected) {
  const py::object i = PyBool_Check(item.ptr()) ? py::object() : as_int(item.ptr());
  if (!i) throw py::type_error(what + " must be " + expected + ", not " + type_name(item));
  const unsigned long long c = PyLong_AsUnsignedLongLong(i.ptr());
  if (c == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    throw py::value_error(what + " " + py::str(i).cast<std::string>() +
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

void require_numpy() {
  // The GIL is held here, so a plain flag will do.
  static bool ready = false;
  if (ready) return;
  // Python's import first: a thread that finds another importing numpy waits
  // on the import's own lock, without the GIL. Only then pybind11's lookup,
  // which keeps its result in a function-local static while holding the GIL:
  // with numpy imported it runs no Python code, so no other thread can enter
  // it meanwhile and wait on its guard for good.
  py::module_::import("numpy");
  py::detail::npy_api::get();
  ready = true;
}

// An array of position codes from Python: a numpy array or a sequence of
// ints, as a one-dimensional C-contiguous uint64 array. TypeError for
// anything but integers; ValueError for another shape. `negative` is set
// when a signed input holds a negative entry (it becomes a code no position
// has: bits above the side to move).
py::array_t<std::uint64_t> codes_arg(const py::handle& obj, bool* negative) {
  require_numpy();
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
      const py::object int_item = as_int(PyList_GET_ITEM(items.ptr(), py::ssize_t(i)));
      if (!int_item)
        throw py::type_error("item " + std::to_string(i) + " must be an int code, not " +
                             type_name(PyList_GET_ITEM(items.ptr(), py::ssize_t(i))));
      PyObject* item = int_item.ptr();
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

// Raises a module exception type with the message (and TablebaseError's kind).
static void raise(PyObject* type, const std::exception& e, const char* kind = nullptr) {
  py::object exc = py::reinterpret_borrow<py::object>(type)(e.what());
  if (kind) exc.attr("kind") = kind;
  PyErr_SetObject(type, exc.ptr());
}

void bind_errors(py::module_& m) {
  // Exceptions. TablebaseError has `kind` ("missing", "not_a_file", "truncated",
  // "bad_magic", "bad_version", "checksum", "corrupt", "wrong_variant", "io").
  g_tablebase_error = PyErr_NewExceptionWithDoc(
      "fano.TablebaseError",
      "A tablebase file was refused or could not be written; `kind` says why (\"missing\", "
      "\"not_a_file\", \"truncated\", \"bad_magic\", \"bad_version\", \"checksum\", \"corrupt\", "
      "\"wrong_variant\", \"io\").",
      PyExc_OSError, nullptr);
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

}  // namespace fano::python
