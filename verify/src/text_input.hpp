// The text readers' shared steps (verify's perft tables and game records):
// lines, tokens, numbers, and errors that name the line. Internal to verify/.
#pragma once

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fano/verify.hpp"

namespace fano::verify::detail {

// (Appended piece by piece: GCC 12 warns, wrongly, of an overlapping copy in
// "'" + std::string(s) + "'" at -O3.)
inline std::string quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '\'';
  out += s;
  out += '\'';
  return out;
}

inline std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Splits text into lines (without the line break).
inline std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    const size_t nl = text.find('\n', start);
    const size_t end = nl == std::string_view::npos ? text.size() : nl;
    lines.push_back(text.substr(start, end - start));
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return lines;
}

inline std::vector<std::string_view> split_tokens(std::string_view s, std::string_view separators) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && separators.find(s[i]) != std::string_view::npos) ++i;
    size_t j = i;
    while (j < s.size() && separators.find(s[j]) == std::string_view::npos) ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// An unsigned decimal number that fits 64 bits, or nullopt.
inline std::optional<std::uint64_t> parse_u64(std::string_view s) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    const std::uint64_t d = std::uint64_t(c - '0');
    if (v > (std::numeric_limits<std::uint64_t>::max() - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

[[noreturn]] inline void input_error(int line, const std::string& what) {
  throw InputError("line " + std::to_string(line) + ": " + what);
}

// Refuses a line that is not text. Bytes that are not UTF-8 pass (a record's
// comment may be in another encoding; the JSON output replaces them), but a
// control character means binary data: reading on would only report noise.
inline void require_text(std::string_view line, int ln) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(line[i]);
    if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", c);
      input_error(ln, "a control character (byte " + std::string(hex) + ") at byte " +
                          std::to_string(i + 1) + ": not a line of text");
    }
  }
}
}  // namespace fano::verify::detail
