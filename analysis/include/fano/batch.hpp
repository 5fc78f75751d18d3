// Answers for `fano query --batch`: one input line (a position, or "moves:"
// and a move list from the empty board, rule 3 applied) gives one JSON line.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "fano/rules.hpp"
#include "fano/tablebase.hpp"

namespace fano {

struct BatchLine {
  std::string_view text;  // without its '\n'
  std::size_t number;     // 1-based line number in the input
};

// True for a line with nothing but white space (skipped: no answer).
bool blank_batch_line(std::string_view text);

// Appends the answer to one line and '\n': report_json(analyse(...)) of the
// position, or with value_only {"position":"...","value":"win","plies":5}
// (plies null for a draw); for a bad line {"line":N,"input":"...","error":"..."}.
// Returns false for a bad line. Thread-safe (the table is only probed).
bool answer_batch_line(const Tablebase& tb, const Rules& rules, const BatchLine& line,
                       bool value_only, std::string& out);

// Answers each non-blank line in order; returns the number of bad lines.
std::size_t answer_batch_lines(const Tablebase& tb, const Rules& rules,
                               std::span<const BatchLine> lines, bool value_only, std::string& out);

// The same for the lines of `text` ('\n'-separated, a '\r' before it
// dropped; a last line without '\n' counts), numbered from first_line.
std::size_t answer_batch_text(const Tablebase& tb, const Rules& rules, std::string_view text,
                              std::size_t first_line, bool value_only, std::string& out);

}  // namespace fano
