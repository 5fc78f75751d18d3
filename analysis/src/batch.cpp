#include "fano/batch.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <exception>
#include <string>

#include "fano/analysis.hpp"
#include "fano/analysis_json.hpp"
#include "fano/game.hpp"
#include "fano/json.hpp"
#include "fano/notation.hpp"
#include "fano/text.hpp"

namespace fano {
namespace {

constexpr std::string_view kMovesPrefix = "moves:";

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

void answer_batch_item(const Tablebase& tb, const Rules& rules, std::string_view line,
                       bool value_only, std::string& out) {
  const std::string_view text = trim(line);
  if (text.substr(0, kMovesPrefix.size()) == kMovesPrefix) {
    const GameRecord game =
        GameRecord::from_moves(rules, kEmptyBoard, text.substr(kMovesPrefix.size()));
    const PositionReport r = analyse(tb, game);
    if (value_only)
      append_value_only(out, r.position, r.value);
    else
      out += json_text(report_json(r)) + "\n";
    return;
  }
  const State st = parse_position(text, rules.variant);
  if (!value_only) {
    out += json_text(report_json(analyse(tb, GameRecord(rules, st)))) + "\n";
    return;
  }
  append_value_only(out, st, probe_or_unreachable(tb, rules, st), text);
}

bool answer_batch_line(const Tablebase& tb, const Rules& rules, const BatchLine& line,
                       bool value_only, std::string& out) {
  const std::size_t size = out.size();
  try {
    answer_batch_item(tb, rules, line.text, value_only, out);
    return true;
  } catch (const std::exception& e) {
    out.resize(size);
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

CodeIndex::CodeIndex(const Tablebase& tb) : variant_(tb.variant()), symmetry_(tb.symmetry()) {
  std::size_t size = 16;
  while (size < 2 * tb.size() + 16) size *= 2;
  shift_ = 64 - std::countr_zero(size);
  slots_.assign(size, Slot{kEmpty, 0, 0});
  for (std::size_t i = 0; i < tb.size(); ++i) {
    const std::uint64_t code = tb.position_at(i).code;
    const Outcome o = tb.outcome_at(i);
    std::size_t s = home(code);
    while (slots_[s].code != kEmpty) s = (s + 1) & (size - 1);
    slots_[s] =
        Slot{code, o.value == Value::kDraw ? std::uint16_t(0) : o.plies, std::uint8_t(o.value)};
  }
}

void CodeIndex::probe(std::span<const std::uint64_t> codes, const ProbeArrays& out) const {
  // Groups of kGroup entries: canonical codes and prefetched slots first, so
  // the group's cache misses overlap, then the lookups.
  constexpr std::size_t kGroup = 16;
  const std::size_t mask = slots_.size() - 1;
  std::uint64_t canon[kGroup];
  std::size_t at[kGroup];
  for (std::size_t base = 0; base < codes.size(); base += kGroup) {
    const std::size_t n = std::min(kGroup, codes.size() - base);
    for (std::size_t k = 0; k < n; ++k) {
      const State st{codes[base + k]};
      canon[k] = is_valid_position(st, variant_) ? symmetry_.canonical(st).code : kEmpty;
      at[k] = home(canon[k]);
      __builtin_prefetch(&slots_[at[k]]);
    }
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t i = base + k;
      const Slot* hit = nullptr;
      if (canon[k] != kEmpty)
        for (std::size_t s = at[k];; s = (s + 1) & mask) {
          if (slots_[s].code == canon[k]) {
            hit = &slots_[s];
            break;
          }
          if (slots_[s].code == kEmpty) break;
        }
      out.valid[i] = hit != nullptr;
      out.value[i] = hit ? hit->value : kNoValue;
      out.plies[i] = hit ? hit->plies : 0;
    }
  }
}

std::optional<std::size_t> canonical_codes(const Symmetry& sym, const Variant& variant,
                                           std::span<const std::uint64_t> codes,
                                           std::span<std::uint64_t> out) {
  for (std::size_t i = 0; i < codes.size(); ++i) {
    const State st{codes[i]};
    if (!is_valid_position(st, variant)) return i;
    out[i] = sym.canonical(st).code;
  }
  return std::nullopt;
}

std::optional<std::size_t> parse_positions(std::span<const std::string_view> texts,
                                           const Variant& variant, std::span<std::uint64_t> out) {
  for (std::size_t i = 0; i < texts.size(); ++i) {
    try {
      out[i] = parse_position(texts[i], variant).code;
    } catch (const NotationError&) {
      return i;
    }
  }
  return std::nullopt;
}

std::string code_error(std::uint64_t code, const Variant& variant) {
  if (is_valid_position(State{code}, variant)) return "";
  const std::string name = "code " + std::to_string(code);
  if (code >> (kSideBit + 1)) return name + " has bits set above the side to move";
  for (int s = 0; s < kSpaces; ++s)
    if (!kStackInfo[std::uint8_t(code >> (kStackBits * s))].valid)
      return name + " has a malformed stack on space " + std::to_string(s + 1);
  try {
    parse_position(format_position(State{code}), variant);
  } catch (const NotationError& e) {
    return e.what();
  }
  return name + " is not a position of the variant";  // is_valid_position and parse disagree
}

}  // namespace fano
