// Shared pieces of the `fano` command: options, errors, JSON and output helpers.
#pragma once

#include <boost/program_options.hpp>
#include <chrono>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "fano/board.hpp"
#include "fano/errors.hpp"
#include "fano/game.hpp"
#include "fano/json.hpp"
#include "fano/rules.hpp"
#include "fano/stopwatch.hpp"
#include "fano/tablebase.hpp"
#include "fano/value.hpp"

namespace fano::cli {

namespace po = boost::program_options;

// Exit codes, read from the shared table of error kinds (fano/errors.hpp;
// README, "Exit codes").
constexpr int exit_code_for(ErrorKind kind) { return error_info(kind).exit_code; }
inline constexpr int kExitInternal = exit_code_for(ErrorKind::kInternal);
inline constexpr int kExitUsage = exit_code_for(ErrorKind::kBadInput);
inline constexpr int kExitUnreachable = exit_code_for(ErrorKind::kUnreachable);
inline constexpr int kExitCheckFailed = exit_code_for(ErrorKind::kCheckFailed);
inline constexpr int kExitCannotListen = exit_code_for(ErrorKind::kCannotListen);
inline constexpr int kExitCannotWrite = exit_code_for(ErrorKind::kCannotWrite);

// A user error: printed as "fano <cmd>: <message>" on one line, exit code `code`.
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& what, int code = kExitUsage)
      : std::runtime_error(what), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

// The value of an output option (--out, --svg): a file name, or "-" for
// stdout. Throws UsageError for an empty one.
std::string output_path_from(const po::variables_map& vm, const std::string& option,
                             bool stdout_ok = true);

// --stack-cap and --adjacency.
void add_variant_options(po::options_description& desc);
Variant variant_from(const po::variables_map& vm);
// Whether any rules option (--rules, --stack-cap, ...) was given.
bool variant_given(const po::variables_map& vm);

// --threads/-j N, declared once for every parallel command: its default, its
// least value (serve needs one worker; 0 elsewhere means all cores) and 1024
// at most. threads_from refuses a value outside that range (a usage error).
struct ThreadsOption {
  int default_value = 0;
  int minimum = 0;
  const char* help = "worker threads";
};
void add_threads_option(po::options_description& desc, const ThreadsOption& option = {});
int threads_from(const po::variables_map& vm, const ThreadsOption& option = {});

// --json: one JSON document on stdout instead of text.
void add_json_option(po::options_description& desc, const char* help = "print JSON");

// --tb FILE and --tables DIR; resolves the table path for a variant.
void add_table_options(po::options_description& desc);
std::string table_path_from(const po::variables_map& vm, const Variant& variant);

// The table for a variant: --tb FILE or the default path. With --tb and no
// variant flag the file's own variant is accepted; otherwise it must match.
// The variant is updated to the table's.
Tablebase open_table(const po::variables_map& vm, Variant& variant);

// --position/-p (also the first positional argument) and --moves/-m.
void add_position_options(po::options_description& desc, po::positional_options_description& pos);
// Throws unless exactly one of --position and --moves is given.
void require_one_position(const po::variables_map& vm, const std::string& command);
// The game given by --position (no history) or --moves (from the empty board,
// rule 3 applied); exactly one is required. Throws NotationError.
GameRecord game_from(const po::variables_map& vm, const Rules& rules, const std::string& command);

// Parses argv for one subcommand. Returns nullopt after printing --help.
std::optional<po::variables_map> parse(const std::string& command, const std::string& synopsis,
                                       const std::string& about, po::options_description& desc,
                                       const po::positional_options_description* positional,
                                       const std::vector<std::string>& args);

// The width help text wraps at: $COLUMNS, else the terminal's (stdout), else 80.
unsigned help_width();
// Text wrapped at width, line by line; an indented line keeps its indent (and 4
// more columns on its continuation lines).
std::string wrap_paragraphs(const std::string& text, unsigned width);
// A command's help: usage, about (wrapped) and the options (wrapped at the same width).
void print_help(std::ostream& out, const std::string& command, const std::string& synopsis,
                const std::string& about, const po::options_description& desc);

// A line of moves as the command prints it and reads it back: "C4,t3,4-7".
std::string moves_text(const std::vector<Move>& moves);

// One JSON document on one line of stdout.
void print_json(const Json& j);

// "0.048 s": a duration for people, rounded to milliseconds.
std::string seconds_text(double seconds);

// A message's text made safe for a terminal and kept on one line: control
// characters (C0, DEL and C1, so also '\n') become \n, \r, \t or \xNN, and
// bytes that are not UTF-8 become \xNN; other text is kept. Arguments and
// input files reach messages through here, so that their bytes never drive
// the terminal (escape sequences) or split a message over lines.
std::string printable(std::string_view text);

// "fano <command>: <message>" on stderr, on one line (printable).
void print_error(const std::string& command, const std::string& message);

// Progress line on stderr (suppressed with FANO_QUIET=1).
void progress(const std::string& line);

}  // namespace fano::cli
