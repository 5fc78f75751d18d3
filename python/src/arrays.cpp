// The array calls: many positions parsed, canonicalised, formatted and probed
// at once, without the GIL, on all cores.

#include <string>

#include "common.hpp"
#include "fano/batch.hpp"
#include "fano/notation.hpp"
#include "fano/symmetry.hpp"

namespace fano::python {

// fano.canonical_codes: the canonical code of every entry.
py::array_t<std::uint64_t> canonical_codes_of(const py::handle& obj, const VariantArg& asked,
                                              const std::optional<int>& threads) {
  const Variant& v = asked;
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
py::array_t<std::uint64_t> parse_positions_of(const py::handle& obj, const VariantArg& asked,
                                              const std::optional<int>& threads) {
  const Variant& v = asked;
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
py::list format_positions_of(const py::handle& obj, const VariantArg& asked) {
  const Variant& v = asked;
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
py::tuple probe_codes(const PyTablebase& t, const py::handle& obj, const OptVariant& asked,
                      const std::optional<int>& threads) {
  check_codes_variant(t, opt(asked), "probe_codes()");
  const py::array_t<std::uint64_t> codes = codes_arg(obj);
  const std::shared_ptr<const CodeIndex> held_index = t.code_index();
  const CodeIndex& index = *held_index;
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

py::dict classes(const PyTablebase& t) {
  const auto keep = t.hold();
  const Tablebase& tb = *keep;
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

void bind_table_arrays(py::class_<PyTablebase>& tb) {
  tb.def("classes", &classes,
         "Every stored symmetry class as numpy arrays of equal length len(tb): 'code' "
         "(uint64, the canonical position's code), 'value' (uint8: 0 loss, 1 draw, 2 win, "
         "for the side to move), 'plies' (uint16, 0 for a draw), 'orbit' (uint32, the "
         "positions in the class; they sum to header['reachable']).");
}

void bind_arrays(py::module_& m) {
  m.def("parse_positions", &parse_positions_of, py::arg("texts"), standard_variant_arg(),
        py::kw_only(), py::arg("threads") = py::none(),
        "Position.parse() of a sequence of strings (a list, a numpy array of str, ...) at "
        "once, without the GIL: a uint64 array of their codes. ValueError for the first "
        "text that does not parse: 'item I: ' and the reason, with the attribute `index` I; "
        "TypeError for an item that is not a str.");
  m.def("canonical_codes", &canonical_codes_of, py::arg("codes"), standard_variant_arg(),
        py::kw_only(), py::arg("threads") = py::none(),
        "The canonical code (the least code of its symmetry class under the variant's rule "
        "symmetries, the code classes() stores) of each code of an integer array or "
        "sequence, without the GIL: a uint64 array. ValueError for the first code that is "
        "not a position of the variant: 'item I: ' and the reason (as Position.from_code), "
        "with the attribute `index` I.");
  m.def("format_positions", &format_positions_of, py::arg("codes"), standard_variant_arg(),
        "The notation of each code of an integer array or sequence: a list of str (str() of "
        "Position.from_code). ValueError as canonical_codes().");
}

}  // namespace fano::python
