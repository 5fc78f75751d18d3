#include "fano/batch.hpp"

#include <charconv>
#include <exception>

#include "fano/analysis.hpp"
#include "fano/analysis_json.hpp"
#include "fano/game.hpp"
#include "fano/json.hpp"
#include "fano/notation.hpp"

namespace fano {
namespace {

constexpr std::string_view kSpace = " \t\r\f\v";
constexpr std::string_view kMovesPrefix = "moves:";

std::string_view trim(std::string_view s) {
  const auto b = s.find_first_not_of(kSpace);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(kSpace) - b + 1);
}

// `text` is the position as written, when it parsed: it is its notation
// already unless white space other than one ' ' separates the side to move.
void append_value_only(std::string& out, State st, Outcome o, std::string_view text = {}) {
  // The bytes nlohmann-json's compact dump gives for the same object.
  out += "{\"position\":\"";
  const std::size_t n = text.size();
  if (n >= 3 && text[n - 2] == ' ' && text[n - 3] != ' ' && text[n - 3] != '\t')
    out += text;
  else
    out += format_position(st);
  out += "\",\"value\":\"";
  out += value_name(o.value);
  out += "\",\"plies\":";
  if (o.value == Value::kDraw) {
    out += "null}\n";
    return;
  }
  char buf[8];
  const auto r = std::to_chars(buf, buf + sizeof buf, o.plies);
  out.append(buf, r.ptr);
  out += "}\n";
}

}  // namespace

bool blank_batch_line(std::string_view text) { return trim(text).empty(); }

bool answer_batch_line(const Tablebase& tb, const Rules& rules, const BatchLine& line,
                       bool value_only, std::string& out) {
  const std::string_view text = trim(line.text);
  try {
    if (text.substr(0, kMovesPrefix.size()) == kMovesPrefix) {
      const GameRecord game =
          GameRecord::from_moves(rules, kEmptyBoard, text.substr(kMovesPrefix.size()));
      const PositionReport r = analyse(tb, game);
      if (value_only)
        append_value_only(out, r.position, r.value);
      else
        out += json_text(report_json(r)) + "\n";
      return true;
    }
    const State st = parse_position(text, rules.variant);
    if (!value_only) {
      out += json_text(report_json(analyse(tb, GameRecord(rules, st)))) + "\n";
      return true;
    }
    append_value_only(out, st, probe_or_unreachable(tb, rules, st), text);
    return true;
  } catch (const std::exception& e) {
    out += json_text(Json{{"line", line.number}, {"input", line.text}, {"error", e.what()}});
    out += '\n';
    return false;
  }
}

std::size_t answer_batch_text(const Tablebase& tb, const Rules& rules, std::string_view text,
                              std::size_t first_line, bool value_only, std::string& out) {
  std::size_t bad = 0, number = first_line;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const BatchLine item{line, number++};
    if (!blank_batch_line(line)) bad += !answer_batch_line(tb, rules, item, value_only, out);
  }
  return bad;
}

std::size_t answer_batch_lines(const Tablebase& tb, const Rules& rules,
                               std::span<const BatchLine> lines, bool value_only,
                               std::string& out) {
  std::size_t bad = 0;
  for (const BatchLine& line : lines)
    if (!blank_batch_line(line.text)) bad += !answer_batch_line(tb, rules, line, value_only, out);
  return bad;
}

}  // namespace fano
