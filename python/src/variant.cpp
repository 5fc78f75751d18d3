// fano.Variant: the rules as data, and the names of rules wherever a Variant
// is expected.

#include <string>

#include "common.hpp"
#include "fano/board.hpp"

namespace fano::python {

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

}  // namespace fano::python
