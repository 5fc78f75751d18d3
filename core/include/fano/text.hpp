// Text helpers shared by every reader of typed input (the command's prompt,
// batch files, verify's files, the Python module's signatures): one
// definition of the white space a line is trimmed of.
#pragma once

#include <string_view>

namespace fano {

// The white space around a typed token: space, tab, and the line and page
// breaks a file or terminal may leave at a line's ends.
inline constexpr std::string_view kWhiteSpace = " \t\r\n\f\v";

// `s` without its leading and trailing white space (empty when all of it is).
constexpr std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(kWhiteSpace);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(kWhiteSpace) - first + 1);
}

}  // namespace fano
