// The array calls: many positions parsed, canonicalised, formatted and probed
// at once, without the GIL, on all cores.

#include <algorithm>
#include <string>

#include "common.hpp"
#include "fano/actions.hpp"
#include "fano/analysis.hpp"
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
  require_numpy();
  const Variant& v = asked;
  if (py::isinstance<py::str>(obj))
    throw py::type_error(
        "parse_positions takes a sequence of strings or the bytes of a file of lines, not "
        "one string (Position.parse parses one)");
  std::vector<std::string_view> texts;
  // Lines of a file's bytes (open(f, 'rb').read()): one position a line, with
  // no Python string made for each (the bytes object holds them while the
  // GIL is released; a bytearray or memoryview is copied first).
  py::bytes blob;
  const bool lines = py::isinstance<py::bytes>(obj) || PyByteArray_Check(obj.ptr()) ||
                     PyMemoryView_Check(obj.ptr());
  if (lines) {
    PyObject* b = PyBytes_FromObject(obj.ptr());  // a new reference (the same bytes object)
    if (!b) throw py::error_already_set();
    blob = py::reinterpret_steal<py::bytes>(b);
    char* data = nullptr;
    Py_ssize_t size = 0;
    if (PyBytes_AsStringAndSize(blob.ptr(), &data, &size) != 0) throw py::error_already_set();
    std::string_view rest(data, std::size_t(size));
    while (!rest.empty()) {
      const auto end = rest.find('\n');
      std::string_view line = rest.substr(0, end);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      texts.push_back(line);
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    }
  }
  // The strings' UTF-8 bytes, held by the list while the GIL is released.
  const py::list items = lines ? py::list() : py::list(py::iter(obj));
  const std::size_t n = lines ? texts.size() : items.size();
  if (!lines) texts.resize(n);
  for (std::size_t i = 0; i < (lines ? 0 : n); ++i) {
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
  require_numpy();
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

namespace {

// The rated moves (no history: the bare positions, as probe) of every code,
// in blocks on all cores without the GIL: per code, its moves in the rules'
// order with their results. ValueError (item I) for a code that is not a
// position of the variant, UnreachablePosition for one no game reaches.
std::vector<std::vector<RatedMove>> rated_moves_of(const PyTablebase& t, const py::handle& obj,
                                                   const OptVariant& asked,
                                                   const std::optional<int>& threads,
                                                   const char* call) {
  check_codes_variant(t, opt(asked), call);
  bool negative = false;
  const py::array_t<std::uint64_t> codes = codes_arg(obj, &negative);
  const auto keep = t.hold();
  const Tablebase& tb = *keep;
  const Rules rules(t.variant);
  const auto n = codes.shape(0);
  const std::uint64_t* c = codes.data();
  std::vector<std::vector<RatedMove>> out(static_cast<std::size_t>(n));
  FirstBad invalid, unreachable;
  for_blocks(n, threads, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const State st{c[i]};
      if (!is_valid_position(st, t.variant)) {
        invalid.offer(i);
        return;
      }
      if (!tb.probe(st)) {
        unreachable.offer(i);
        return;
      }
      auto moves = rate_moves(tb, rules, st);
      // Back to the rules' order (rate_moves sorts best first).
      std::stable_sort(moves.begin(), moves.end(), [](const RatedMove& x, const RatedMove& y) {
        return action_of(x.move) < action_of(y.move);
      });
      out[i] = std::move(moves);
    }
  });
  const std::size_t bad = std::min(invalid.index.load(), unreachable.index.load());
  if (bad != SIZE_MAX) {
    if (bad == invalid.index.load())
      fail_item(bad, PyExc_ValueError,
                negative && std::int64_t(c[bad]) < 0
                    ? "a negative number is not a position code"
                    : code_error(c[bad], t.variant) + " (" + variant_repr(t.variant) + ")");
    fail_item(bad, g_unreachable, UnreachablePosition(tb, rules, State{c[bad]}).what());
  }
  return out;
}

// A move keeps its position's value when its result has the best move's value.
bool keeps_value(const std::vector<RatedMove>& moves, const RatedMove& m) {
  Value best = Value::kLoss;
  for (const RatedMove& x : moves)
    if (int(x.result.value) > int(best)) best = x.result.value;
  return m.result.value == best;
}

template <class T, class Select, class Emit>
py::tuple ragged(const std::vector<std::vector<RatedMove>>& all, const Select& select,
                 const Emit& emit) {
  require_numpy();
  const auto n = py::ssize_t(all.size());
  py::array_t<std::int64_t> offsets(n + 1);
  std::int64_t* off = offsets.mutable_data();
  off[0] = 0;
  for (py::ssize_t i = 0; i < n; ++i) {
    std::int64_t k = 0;
    for (const RatedMove& m : all[std::size_t(i)]) k += select(all[std::size_t(i)], m);
    off[i + 1] = off[i] + k;
  }
  py::array_t<T> values(off[n]);
  T* v = values.mutable_data();
  for (py::ssize_t i = 0; i < n; ++i)
    for (const RatedMove& m : all[std::size_t(i)])
      if (select(all[std::size_t(i)], m)) *v++ = emit(m);
  return py::make_tuple(offsets, values);
}

}  // namespace

void bind_table_arrays(py::class_<PyTablebase>& tb) {
  tb.def(
        "children",
        [](const PyTablebase& t, const py::handle& codes, const OptVariant& v,
           const std::optional<int>& threads) {
          const auto all = rated_moves_of(t, codes, v, threads, "children()");
          return ragged<std::uint64_t>(
              all, [](const auto&, const RatedMove&) { return true; },
              [](const RatedMove& m) { return m.child.code; });
        },
        py::arg("codes"), py::kw_only(), py::arg("variant") = py::none(),
        py::arg("threads") = py::none(),
        "The positions after every legal move of each code (none where the game is over), "
        "in the order of Game.legal_actions(), as two arrays (offsets int64 of length n + 1, "
        "children uint64): the children of code i are children[offsets[i]:offsets[i + 1]]. "
        "Codes as probe_codes(); ValueError or UnreachablePosition (item I) for the first "
        "code that is not a position of the table's variant or that no game reaches.")
      .def(
          "best_moves",
          [](const PyTablebase& t, const py::handle& codes, const OptVariant& v,
             const std::optional<int>& threads) {
            const auto all = rated_moves_of(t, codes, v, threads, "best_moves()");
            return ragged<std::uint8_t>(
                all, [](const auto& moves, const RatedMove& m) { return keeps_value(moves, m); },
                [](const RatedMove& m) { return std::uint8_t(action_of(m.move)); });
          },
          py::arg("codes"), py::kw_only(), py::arg("variant") = py::none(),
          py::arg("threads") = py::none(),
          "The value-keeping moves of each code (whose result has the value of the position: "
          "the wins of a won position, the draws of a drawn one, every move of a lost one), "
          "as Game actions, in the layout of children(): (offsets int64, actions uint8). No "
          "history (rule 3 needs a game: see Tablebase.analyse).")
      .def(
          "keeping_counts",
          [](const PyTablebase& t, const py::handle& codes, const OptVariant& v,
             const std::optional<int>& threads) {
            const auto all = rated_moves_of(t, codes, v, threads, "keeping_counts()");
            require_numpy();
            py::array_t<std::uint8_t> out(py::ssize_t(all.size()));
            std::uint8_t* o = out.mutable_data();
            for (const auto& moves : all) {
              int k = 0;
              for (const RatedMove& m : moves) k += keeps_value(moves, m);
              *o++ = std::uint8_t(k);
            }
            return out;
          },
          py::arg("codes"), py::kw_only(), py::arg("variant") = py::none(),
          py::arg("threads") = py::none(),
          "The number of value-keeping moves of each code (see best_moves; 0 where the game is "
          "over), a uint8 array.")
      .def("classes", &classes,
           "Every stored symmetry class as numpy arrays of equal length len(tb): 'code' "
           "(uint64, the canonical position's code), 'value' (uint8: 0 loss, 1 draw, 2 win, "
           "for the side to move), 'plies' (uint16, 0 for a draw), 'orbit' (uint32, the "
           "positions in the class; they sum to header['reachable']).");
}

void bind_arrays(py::module_& m) {
  m.def("parse_positions", &parse_positions_of, py::arg("texts"), standard_variant_arg(),
        py::kw_only(), py::arg("threads") = py::none(),
        "Position.parse() of a sequence of strings (a list, a numpy array of str, ...), or of "
        "the lines of a file's bytes (open(path, 'rb').read(): no Python string is made per "
        "line), at once, without the GIL: a uint64 array of their codes. ValueError for the first "
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
