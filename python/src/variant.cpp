// fano.Variant: the rules as data, and the names of rules wherever a Variant
// is expected.

#include <optional>
#include <string>
#include <utility>

#include "common.hpp"
#include "fano/board.hpp"
#include "fano/json.hpp"
#include "fano/rules_options.hpp"

namespace fano::python {

// ---------------------------------------------------------------- variants

// One keyword of Variant(...): an int for a numeric option, a str for a named
// one, among the option's values (fano/rules_options.hpp).
static void set_rules_option(Variant& v, const RulesOption& option, const py::handle& value) {
  const std::string key(option.key);
  std::string text;
  if (option.numeric) {
    if (py::isinstance<py::bool_>(value) || !py::hasattr(value, "__index__"))
      throw py::type_error(key + " must be an int, not " +
                           std::string(py::str(value.get_type().attr("__name__"))));
    text = std::to_string(value.attr("__index__")().cast<long long>());
  } else {
    if (!py::isinstance<py::str>(value))
      throw py::type_error(key + " must be a str, not " +
                           std::string(py::str(value.get_type().attr("__name__"))));
    text = value.cast<std::string>();
  }
  const std::optional<int> code = option.parse(text);
  if (!code) throw py::value_error(key + " " + option.values_error(text));
  option.set(v, *code);
}

namespace {

// An option's value in Python: the int of a numeric option, else its text.
py::object rules_option_value(const RulesOption& option, const Variant& v) {
  if (option.numeric) return py::int_(option.get(v));
  return py::str(std::string(option.text_of(option.get(v))));
}

// Pickled as a dict of the options' keywords (what Variant(**state) takes);
// the older tuple (stack_cap, adjacency, slug) still loads by its name.
// (A py::object, as __setstate__ takes: pybind11 wants the two the same.)
py::object variant_state(const Variant& v) {
  py::dict state;
  for (const RulesOption& option : rules_options())
    state[py::str(std::string(option.key))] = rules_option_value(option, v);
  return state;
}

Variant variant_from_state(const py::object& state) {
  Variant v;
  if (py::isinstance<py::dict>(state)) {
    const py::dict given = state.cast<py::dict>();
    for (const RulesOption& option : rules_options())
      if (const py::str key(std::string(option.key)); given.contains(key))
        set_rules_option(v, option, given[key]);
    return v;
  }
  const py::tuple old = state.cast<py::tuple>();
  if (old.size() >= 3) return variant_named(old[2].cast<std::string>());
  set_rules_option(v, *find_rules_option("stack_cap"), old[0]);
  set_rules_option(v, *find_rules_option("adjacency"), old[1]);
  return v;
}

// One read-only property per rules option, named by its keyword.
void def_rules_properties(py::class_<Variant>& cls) {
  for (const RulesOption& option : rules_options()) {
    const std::string doc =
        std::string(option.help) + " (" + option.values_text(/*with_help=*/false) + ")";
    cls.def_property_readonly(
        std::string(option.key).c_str(),
        [&option](const Variant& v) { return rules_option_value(option, v); }, doc.c_str());
  }
}

// Variant(stack_cap=2, adjacency='board', line_rule='colour-or-shape',
// circles=2, triangles=2): one keyword per rules option, named, defaulted and
// checked by the description, so that a new option is a new keyword.
template <std::size_t... I>
void def_rules_constructor(py::class_<Variant>& cls, std::index_sequence<I...>) {
  const auto options = rules_options();
  const auto default_of = [](const RulesOption& option) -> py::object {
    if (option.numeric) return py::int_(option.default_code);
    return py::str(std::string(option.text_of(option.default_code)));
  };
  std::string doc = "Variant(";
  for (std::size_t i = 0; i < options.size(); ++i) {
    const RulesOption& option = options[i];
    doc += (i ? ", " : "") + std::string(option.key) + "=" + (option.numeric ? "" : "'") +
           std::string(option.text_of(option.default_code)) + (option.numeric ? "" : "'");
  }
  doc +=
      "): the rules by their options (fano.rules_options() lists them); ValueError for a "
      "value out of range, TypeError for one of another type.";
  cls.def(py::init([](const decltype((void)I, py::object())&... values) {
            Variant v;
            const py::object given[] = {values...};
            for (std::size_t i = 0; i < rules_options().size(); ++i)
              set_rules_option(v, rules_options()[i], given[i]);
            return v;
          }),
          py::arg(options[I].key.data()) = default_of(options[I])..., doc.c_str());
}

}  // namespace

// The rules a name names (the library's one parser); ValueError with its message.
Variant variant_named(const std::string& name) {
  const auto v = variant_from_name(name);
  if (!v) throw py::value_error(variant_name_error(name));
  return *v;
}

// Variant(stack_cap=2, adjacency='board'): the base options' keywords (the
// others are the rulebook's); any other reading by its name.
std::string variant_repr(const Variant& v) {
  if (!v.rulebook_material_and_lines()) return "Variant.from_name('" + variant_slug(v) + "')";
  std::string out = "Variant(";
  for (const RulesOption& option : rules_options()) {
    if (!option.base) continue;
    const std::string text(option.text_of(option.get(v)));
    out += (out.size() > 8 ? ", " : "") + std::string(option.key) + "=" +
           (option.numeric ? text : "'" + text + "'");
  }
  return out + ")";
}

void bind_variant(py::module_& m) {
  py::class_<Variant> cls(m, "Variant",
                          "A rule variant: the stack cap (2 standard, 3) and where pieces move "
                          "('board': the printed board's edges; 'projective': any two spaces on a "
                          "common line). Immutable and hashable.");
  // The name first: a str is a name; anything else goes to the options' keywords.
  cls.def(py::init(&variant_named), py::arg("name"),
          "Variant('standard-colour'): the rules a name names, as Variant.from_name; a name "
          "is accepted wherever a Variant is (variant='cap3-3c1t').");
  def_rules_constructor(cls, std::make_index_sequence<kRulesOptionCount>());
  def_rules_properties(cls);
  cls.def_static("from_name", &variant_named, py::arg("name"),
                 "The rules a name names: 'standard', 'cap3-projective-colour', "
                 "'standard-3c3t', ... (README, \"Rules\"); ValueError for another name.")
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
      .def(py::pickle(&variant_state, &variant_from_state));
  // A name where a Variant is expected: Position.parse(text, 'cap3-colour').
  py::implicitly_convertible<py::str, Variant>();
  m.def(
      "rules_options",
      [] { return py::module_::import("json").attr("loads")(rules_options_json().dump()); },
      "The rules options' description, as `fano rules --json` gives it: a list of dicts "
      "with key (the Variant keyword), flag, label, help, values, default and name_part.");
  m.attr("STANDARD") = py::cast(kStandard);
  py::list variants, every;
  for (const Variant& v : kAllVariants) variants.append(py::cast(v));
  for (const Variant& v : every_rules()) every.append(py::cast(v));
  m.attr("VARIANTS") = variants;
  m.attr("EVERY_RULES") = every;
}

}  // namespace fano::python
