#include "fano/rules_options.hpp"

#include <array>

#include "fano/notation.hpp"

namespace fano {

namespace {

constexpr std::array<RulesOptionValue, 2> kCaps{{
    {"2", 2, "the rulebook's game"},
    {"3", 3, "a third piece on a stack of two, as the rules summary allows"},
}};
constexpr std::array<RulesOptionValue, 2> kAdjacencies{{
    {"board", int(Adjacency::kBoard), "along the printed board's 15 edges"},
    {"projective", int(Adjacency::kProjective), "between any two spaces on a common line"},
}};
constexpr std::array<RulesOptionValue, 2> kLineRules{{
    {"colour-or-shape", int(Lines::kColourOrShape), "one colour or one shape, as in the rulebook"},
    {"colour", int(Lines::kColourOnly), "one colour only, as in the Korean text"},
}};
constexpr std::array<RulesOptionValue, 3> kCounts{{
    {"1", 1, ""},
    {"2", 2, ""},
    {"3", 3, ""},
}};

const std::array<RulesOption, kRulesOptionCount> kOptions{{
    {"stack_cap", "stack-cap", "Stack cap", "the most pieces a stack may hold", true, true, kCaps,
     2, "the base name: standard and projective are cap 2, cap3 and cap3-projective cap 3",
     [](const Variant& v) { return v.stack_cap; },
     [](Variant& v, int code) { v.stack_cap = code; }},
    {"adjacency", "adjacency", "Adjacency", "which spaces a piece may move between", false, true,
     kAdjacencies, int(Adjacency::kBoard),
     "the base name: standard and cap3 are on the board, projective and cap3-projective not",
     [](const Variant& v) { return int(v.adjacency); },
     [](Variant& v, int code) { v.adjacency = Adjacency(code); }},
    {"line_rule", "line-rule", "Losing lines", "which lines of three tops lose", false, false,
     kLineRules, int(Lines::kColourOrShape), "the suffix -colour for colour-only lines",
     [](const Variant& v) { return int(v.lines); },
     [](Variant& v, int code) { v.lines = Lines(code); }},
    {"circles", "circles", "Circles", "circles per player", true, false, kCounts, 2,
     "the suffix -<c>c<t>t when the material is not two of each",
     [](const Variant& v) { return v.circles; }, [](Variant& v, int code) { v.circles = code; }},
    {"triangles", "triangles", "Triangles", "triangles per player", true, false, kCounts, 2,
     "the suffix -<c>c<t>t when the material is not two of each",
     [](const Variant& v) { return v.triangles; },
     [](Variant& v, int code) { v.triangles = code; }},
}};

}  // namespace

std::optional<int> RulesOption::parse(std::string_view text) const {
  for (const RulesOptionValue& value : values)
    if (value.text == text) return value.code;
  // The colour-only reading's older spelling, still read.
  if (key == "line_rule" && text == "colour-only") return int(Lines::kColourOnly);
  return std::nullopt;
}

std::string_view RulesOption::text_of(int code) const {
  for (const RulesOptionValue& value : values)
    if (value.code == code) return value.text;
  return "?";
}

std::string RulesOption::value_text(const RulesOptionValue& value) const {
  std::string out;
  if (!numeric) out += '\'';
  out.append(value.text);
  if (!numeric) out += '\'';
  return out;
}

std::string RulesOption::values_text(bool with_help) const {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += i + 1 == values.size() ? " or " : ", ";
    out += value_text(values[i]);
    if (with_help && !values[i].help.empty()) {
      out += " (";
      out.append(values[i].help);
      out += ')';
    }
  }
  return out;
}

std::string RulesOption::values_error(std::string_view got) const {
  return "must be " + values_text(false) + ", got " + quote(got);
}

std::span<const RulesOption> rules_options() { return kOptions; }

const RulesOption* find_rules_option(std::string_view key_or_flag) {
  for (const RulesOption& option : kOptions)
    if (option.key == key_or_flag || option.flag == key_or_flag) return &option;
  return nullptr;
}

}  // namespace fano
