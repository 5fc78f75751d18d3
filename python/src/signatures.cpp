// Text signatures for inspect.signature() and help(): pybind11 writes each
// function's typed signature as the first line of its docstring, which
// inspect cannot read, and gives its functions no __text_signature__. This
// pass, run once the module is bound, puts CPython's own form in front of
// each docstring ("probe(self, /, position, *, variant=None)\n--\n\n"),
// built from pybind11's line, so the real names and defaults show and the
// typed line stays in the text help() prints. A class with one constructor
// gets the same in its type's doc ("Position(text, variant='standard')").
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common.hpp"
#include "fano/text.hpp"

namespace fano::python {
namespace {

// The parameter list of pybind11's first line "name(a: T, b: U = d) -> R",
// split at its top-level commas; nullopt when the line is not of that form.
std::optional<std::vector<std::string_view>> parameters(std::string_view doc,
                                                        std::string_view name) {
  if (doc.substr(0, name.size()) != name || doc.size() <= name.size() || doc[name.size()] != '(')
    return std::nullopt;
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t start = name.size() + 1;
  char quote = 0;
  for (std::size_t i = start; i < doc.size(); ++i) {
    const char c = doc[i];
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(' || c == '[') {
      ++depth;
    } else if ((c == ')' || c == ']') && depth > 0) {
      --depth;
    } else if (c == ')' || (c == ',' && depth == 0)) {
      if (const auto p = trim(doc.substr(start, i - start)); !p.empty()) out.push_back(p);
      start = i + 1;
      if (c == ')') return out;
    } else if (c == '\n') {
      break;
    }
  }
  return std::nullopt;
}

// A default as inspect reads it: a literal stays; STANDARD (a Variant, which
// is no literal) is written as the name that means it; anything else as ....
std::string default_text(std::string_view d) {
  if (d == "None" || d == "True" || d == "False") return std::string(d);
  if (!d.empty() && (d.front() == '\'' || d.front() == '"')) return std::string(d);
  if (!d.empty() && d.find_first_not_of("-0123456789.") == std::string_view::npos)
    return std::string(d);
  if (d == "STANDARD") return "'standard'";
  return "...";
}

// "name(...)\n--\n\n" for a function whose first docstring line is
// pybind11's, or empty. `self`: the first parameter is the bound object.
std::string text_signature(std::string_view doc, std::string_view name, std::string_view shown,
                           bool method, bool drop_self) {
  const auto params = parameters(doc, name);
  if (!params) return {};
  std::string out = std::string(shown) + "(";
  bool first = true;
  const auto add = [&](const std::string& p) {
    out += (first ? "" : ", ") + p;
    first = false;
  };
  for (std::size_t i = 0; i < params->size(); ++i) {
    const std::string_view p = (*params)[i];
    if (i == 0 && method) {
      if (!drop_self) {
        // Not "$self": pybind11's functions carry a __self__ (their record),
        // so inspect would take them for bound and drop it twice.
        add("self");
        add("/");
      }
      continue;
    }
    if (p == "*" || p == "/") {
      add(std::string(p));
      continue;
    }
    const auto colon = p.find(':');
    const auto equals = p.find(" = ");
    std::string_view pname = trim(p.substr(0, std::min(colon, equals)));
    std::string text(pname);
    if (equals != std::string_view::npos) text += "=" + default_text(trim(p.substr(equals + 3)));
    add(text);
  }
  return out + ")\n--\n\n";
}

// The C function behind a module or class attribute (a plain builtin, an
// instance method or a static method), or null.
PyCFunctionObject* c_function(PyObject* attr, bool* is_static) {
  *is_static = false;
  if (PyInstanceMethod_Check(attr)) attr = PyInstanceMethod_GET_FUNCTION(attr);
  if (Py_IS_TYPE(attr, &PyStaticMethod_Type)) {
    *is_static = true;
    const py::object f = py::reinterpret_borrow<py::object>(attr).attr("__func__");
    attr = f.ptr();  // the static method holds the function
  }
  if (!PyCFunction_Check(attr)) return nullptr;
  return reinterpret_cast<PyCFunctionObject*>(attr);
}

// Puts the text signature in front of a function's docstring (once).
void sign_function(PyCFunctionObject* f, bool method) {
  const char* doc = f->m_ml->ml_doc;
  if (!doc || std::strstr(doc, "\n--\n\n")) return;
  const std::string sig = text_signature(doc, f->m_ml->ml_name, f->m_ml->ml_name, method, false);
  if (sig.empty()) return;
  // pybind11 made the docstring with strdup and frees it with free().
  char* text = strdup((sig + doc).c_str());
  if (!text) throw std::bad_alloc();
  std::free(const_cast<char*>(f->m_ml->ml_doc));
  f->m_ml->ml_doc = text;
}

// A class: its methods, and its constructor's signature in the type's doc.
void sign_class(const py::handle& cls) {
  auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  const py::dict attrs = py::reinterpret_borrow<py::dict>(type->tp_dict);
  for (const auto& [key, value] : attrs) {
    bool is_static = false;
    PyCFunctionObject* f = c_function(value.ptr(), &is_static);
    if (!f) continue;
    const std::string name = py::str(key);
    // The constructor's signature also goes into the type's doc (help(cls)).
    if (name == "__init__" && f->m_ml->ml_doc && type->tp_doc) {
      const std::string class_name = py::str(cls.attr("__name__"));
      const std::string sig =
          text_signature(f->m_ml->ml_doc, "__init__", class_name, true, /*drop_self=*/true);
      if (!sig.empty() && !std::strstr(type->tp_doc, "\n--\n\n")) {
        // pybind11 made the type's doc with PyObject_MALLOC, and the type frees it.
        const std::string text = sig + type->tp_doc;
        auto* doc = static_cast<char*>(PyObject_Malloc(text.size() + 1));
        if (!doc) throw std::bad_alloc();
        std::memcpy(doc, text.c_str(), text.size() + 1);
        PyObject_Free(const_cast<char*>(type->tp_doc));
        type->tp_doc = doc;
      }
    }
    sign_function(f, !is_static);
  }
}

}  // namespace

void add_text_signatures(py::module_& m) {
  for (const auto& [key, value] : py::reinterpret_borrow<py::dict>(m.attr("__dict__"))) {
    if (PyType_Check(value.ptr())) {
      if (py::str(value.attr("__module__")).cast<std::string>() == "fano") sign_class(value);
      continue;
    }
    bool is_static = false;
    if (PyCFunctionObject* f = c_function(value.ptr(), &is_static)) sign_function(f, false);
  }
}

}  // namespace fano::python
