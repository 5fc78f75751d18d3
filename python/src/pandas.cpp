// Tablebase.export and Tablebase.to_pandas: the rows of `fano export`, written
// by the io layer as the command writes them, or as a DataFrame (pandas is
// optional: an ImportError naming it when missing).

#include <algorithm>
#include <map>
#include <span>
#include <string>
#include <string_view>

#include "common.hpp"
#include "fano/export.hpp"
#include "fano/notation.hpp"

namespace fano::python {

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
  require_numpy();
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
  require_numpy();
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
                     const std::string& rows_of, const OptVariant& codes_variant) {
  if (rows_of != "classes" && rows_of != "positions")
    throw py::value_error("rows must be 'classes' or 'positions', got " + quote(rows_of));
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
    return make_frame(rows, t.variant, false);
  }
  const bool classes = rows_of == "classes";
  const auto keep = t.hold();
  {
    py::gil_scoped_release release;
    const auto add = [&](std::span<const ExportRow> chunk) {
      for (const ExportRow& r : chunk) rows.add(r, classes);
    };
    if (classes)
      for_each_class(*keep, add);
    else
      for_each_reachable(*keep, add);
  }
  return make_frame(rows, t.variant, classes);
}

void bind_pandas(py::class_<PyTablebase>& tb) {
  tb.def(
        "export",
        [](const PyTablebase& t, const fs::path& path, const std::string& format, bool classes,
           bool zstd) {
          if (format != "csv" && format != "jsonl")
            throw py::value_error("format must be 'csv' or 'jsonl', got " + quote(format));
          const auto keep = t.hold();
          py::gil_scoped_release release;
          return export_table(*keep, path.string(),
                              format == "csv" ? ExportFormat::kCsv : ExportFormat::kJsonl, classes,
                              zstd)
              .rows;
        },
        py::arg("path"), py::kw_only(), py::arg("format") = "csv", py::arg("classes") = false,
        py::arg("zstd") = false,
        "Writes the table as 'fano export' does, the same bytes (every reachable position in "
        "ascending code, or every stored class with classes=True; csv or jsonl; zstd), to "
        "`path` atomically, without the GIL and without pandas; returns the rows written.")
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

}  // namespace fano::python
