// The published depth counts: the table's text read line by line
// (PerftTableParser) and each row compared with the rules engine's perft.
#include <algorithm>
#include <cctype>

#include "fano/perft.hpp"
#include "fano/text.hpp"
#include "fano/verify.hpp"
#include "text_input.hpp"

namespace fano::verify {

using namespace detail;

PerftTable parse_perft_table(std::string_view text) {
  PerftTableParser parser;
  const auto lines = split_lines(text);
  for (size_t k = 0; k < lines.size(); ++k) parser.add_line(lines[k], int(k + 1));
  return parser.finish();
}

void PerftTableParser::add_line(std::string_view line, int ln) {
  require_text(line, ln);
  line = line.substr(0, line.find('#'));
  const auto tokens = split_tokens(line, " \t\r,");
  if (tokens.empty()) return;
  const char first = tokens[0][0];
  if (first >= '0' && first <= '9') {
    if (!header_line_)
      input_error(ln, "row " + quote(trim(line)) +
                          " comes before the header line (a line naming 'exact', "
                          "'cumulative', 'within' or 'paths' and 'expand-ended' or "
                          "'stop-at-end')");
    if (tokens.size() != 2)
      input_error(ln, tokens.size() < 2
                          ? "row " + quote(trim(line)) + " has no count: expected 'depth count'"
                          : "unexpected token " + quote(tokens[2]) + ": expected 'depth count'");
    const auto d = parse_u64(tokens[0]);
    if (!d || *d > 64)
      input_error(ln, "depth " + quote(tokens[0]) + " is not a number from 0 to 64");
    const auto c = parse_u64(tokens[1]);
    if (!c) input_error(ln, "count " + quote(tokens[1]) + " is not a non-negative integer");
    int& seen = depth_line_[size_t(*d)];
    if (seen)
      input_error(
          ln, "depth " + quote(tokens[0]) + " was already given on line " + std::to_string(seen));
    seen = ln;
    table_.rows.push_back({int(*d), *c, ln});
    return;
  }
  // A header line: keywords among other words.
  std::vector<PerftReading> readings;
  bool expand = false, stop = false;
  for (std::string_view tok : tokens) {
    std::string w = lower(tok);
    while (!w.empty() && !std::isalnum(static_cast<unsigned char>(w.back()))) w.pop_back();
    while (!w.empty() && !std::isalnum(static_cast<unsigned char>(w.front()))) w.erase(0, 1);
    if (const auto r = parse_perft_reading(w);
        r && std::find(readings.begin(), readings.end(), *r) == readings.end())
      readings.push_back(*r);
    expand |= w == "expand-ended";
    stop |= w == "stop-at-end";
  }
  if (readings.empty() && !expand && !stop)
    input_error(ln, "token " + quote(tokens[0]) +
                        " is neither a depth nor part of a header naming 'exact', "
                        "'cumulative', 'within' or 'paths' and 'expand-ended' or "
                        "'stop-at-end' (comment text out with '#')");
  if (header_line_)
    input_error(ln, "second header line (the first is line " + std::to_string(header_line_) + ")");
  if (readings.size() > 1)
    input_error(ln, "header names both '" + std::string(perft_reading_name(readings[0])) +
                        "' and '" + std::string(perft_reading_name(readings[1])) + "'");
  if (readings.empty())
    input_error(ln, "header names no count kind: add 'exact', 'cumulative', 'within' or 'paths'");
  if (expand && stop) input_error(ln, "header names both 'expand-ended' and 'stop-at-end'");
  if (!expand && !stop)
    input_error(ln, "header names no expansion rule: add 'expand-ended' or 'stop-at-end'");
  header_line_ = ln;
  table_.reading = readings[0];
  table_.expand_ended = expand;
}

PerftTable PerftTableParser::finish() const {
  if (!header_line_)
    throw InputError(
        "no header line: one line must name 'exact', 'cumulative', 'within' or 'paths' and "
        "'expand-ended' or 'stop-at-end'");
  if (table_.rows.empty()) throw InputError("no 'depth count' rows");
  return table_;
}

std::vector<PerftCheck> check_perft(const Rules& rules, const PerftTable& table,
                                    const Progress& progress) {
  int deepest = 0;
  for (const auto& r : table.rows) deepest = std::max(deepest, r.depth);
  const auto rows = deepest == 0
                        ? std::vector<PerftRow>{}
                        : perft(rules, deepest, table.expand_ended, [&](const PerftRow& r) {
                            if (progress)
                              progress("verify: perft depth " + std::to_string(r.depth) + ": " +
                                       std::to_string(r.positions) + " positions");
                          });
  std::vector<PerftCheck> out;
  for (const auto& r : table.rows) {
    const PerftReading reading = r.depth == 0 ? PerftReading::kExact : table.reading;
    const PerftRow& c = r.depth == 0 ? perft_root() : rows[size_t(r.depth - 1)];
    out.push_back({r.depth, r.line, r.count, perft_count(c, reading), reading});
  }
  return out;
}

}  // namespace fano::verify
