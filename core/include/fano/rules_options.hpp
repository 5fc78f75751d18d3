// The rules options as data: one row per option of the rules value (`Variant`).
//
// Every front end reads this list instead of spelling the options out: the
// CLI's flags and their help (tools/cli.cpp), the JSON of a rules value
// (`variant_json`), the table header's fields (tablebase/), Python's keywords
// (python/), the HTTP API's `/api/v2/rules` and the page's picker (through
// that route), and the schema (checked against it by a test). To add a rules
// option: a field in `Variant`, a row in `rules_options()` (core/src/
// rules_options.cpp), and the rules code that reads the field.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "fano/board.hpp"

namespace fano {

// One value an option takes: its text (a CLI word, a JSON string or the
// decimal of a number) and the field's value.
struct RulesOptionValue {
  std::string_view text;
  int code;
  std::string_view help;  // what it means, for help texts and the page
};

struct RulesOption {
  std::string_view key;    // JSON field, Python keyword, header field: "stack_cap"
  std::string_view flag;   // CLI flag without "--": "stack-cap"
  std::string_view label;  // a short title for a picker: "Stack cap"
  std::string_view help;   // one sentence for the CLI's help and the page
  bool numeric;            // JSON and Python take the number, else the text
  // Part of the base name (standard, cap3-projective, ...) and of every rules
  // JSON; the others are name suffixes, in JSON only where they differ from
  // the rulebook's lines and material.
  bool base;
  std::span<const RulesOptionValue> values;
  int default_code;                 // the rulebook's game
  std::string_view name_part;       // how the option shows in a rules name
  int (*get)(const Variant&);       // the field's value
  void (*set)(Variant&, int code);  // sets the field (code among `values`)

  // The value with this text ("board", "3"), or nullopt.
  std::optional<int> parse(std::string_view text) const;
  // The text of a value's code ("board", "3").
  std::string_view text_of(int code) const;
  // "2 or 3", "'board' or 'projective'", with each value's help in
  // parentheses if asked.
  std::string values_text(bool with_help) const;
  std::string value_text(const RulesOptionValue& value) const;
  // "must be 2 or 3, got '4'": why `got` is not a value (for a one-line error
  // a front end prefixes with its spelling of the option's name).
  std::string values_error(std::string_view got) const;
};

// How many options there are: for a front end that needs the count at compile
// time (Python's keyword arguments); the list's size, checked where it is built.
inline constexpr std::size_t kRulesOptionCount = 5;

// Every option, in the order of the rules name's parts.
std::span<const RulesOption> rules_options();
// The option with this key or flag, or nullptr.
const RulesOption* find_rules_option(std::string_view key_or_flag);

}  // namespace fano
