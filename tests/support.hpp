// Helpers shared by every test: the variants for parameterised suites, seeded
// random playouts, running the fano tool (FANO_BIN) and capturing its exit
// status and output, temporary folders, whole files, JSON output parsed with
// nlohmann-json, the CLI's documented exit codes and re-sealing a damaged table.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "fano/notation.hpp"
#include "fano/rules.hpp"
#include "fano/tablebase.hpp"

namespace fano {

// How GoogleTest prints a Variant parameter (the test's listing, a failure's
// "GetParam() = ..."): its name, not its bytes. Found by argument-dependent
// lookup, so it lives in Variant's namespace.
inline void PrintTo(const Variant& v, std::ostream* os) { *os << variant_slug(v); }

}  // namespace fano

namespace fano::testing {

// A test name for a variant parameter: its slug with '-' made '_'.
inline std::string variant_param_name(const ::testing::TestParamInfo<Variant>& info) {
  std::string s = variant_slug(info.param);
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

// The moves of `moves` that do not form a line, or all of them when every move
// does: a careful playout picks among these to go deep into the movement phase.
inline std::vector<Move> careful_moves(State st, const std::vector<Move>& moves) {
  std::vector<Move> safe;
  for (const Move& m : moves)
    if (!formed_lines(apply_move(st, m))) safe.push_back(m);
  return safe.empty() ? moves : safe;
}

// Every position visited by a random playout from the empty board (the empty
// board included), stopping when the game is over or after max_plies. A
// careful playout avoids moves that form a line whenever it can, so that it
// reaches deep into the movement phase; a uniform one mostly ends early.
inline std::vector<State> playout(const Rules& rules, std::mt19937& rng, int max_plies,
                                  bool careful) {
  std::vector<State> out{kEmptyBoard};
  State st = kEmptyBoard;
  for (int ply = 0; ply < max_plies && game_over(rules, st) == GameOver::kNone; ++ply) {
    std::vector<Move> moves = legal_moves(rules, st);
    if (careful) moves = careful_moves(st, moves);
    st = apply_move(st, moves[rng() % moves.size()]);
    out.push_back(st);
  }
  return out;
}

// Distinct positions from `games` seeded playouts of up to max_plies moves,
// alternately careful and uniform, keeping only the positions at most
// kept_plies moves into each game (the later ones still draw from rng).
inline std::vector<State> sample_positions(const Variant& v, int games, unsigned seed,
                                           int max_plies = 60, int kept_plies = 60) {
  const Rules rules(v);
  std::mt19937 rng(seed);
  std::unordered_set<std::uint64_t> seen;
  std::vector<State> out;
  for (int g = 0; g < games; ++g) {
    const std::vector<State> game = playout(rules, rng, max_plies, g % 2 == 0);
    for (int ply = 0; ply < int(game.size()) && ply <= kept_plies; ++ply)
      if (seen.insert(game[ply].code).second) out.push_back(game[ply]);
  }
  return out;
}

namespace fs = std::filesystem;

struct RunResult {
  int exit_code = -1;  // when the process exited normally
  int signal = 0;      // non-zero when it was killed by a signal (a crash)
  std::string out, err;

  bool crashed() const { return signal != 0; }
  // The number of lines on stderr (a final line without '\n' counts).
  int err_lines() const {
    int n = 0;
    for (char c : err) n += c == '\n';
    return n + (!err.empty() && err.back() != '\n');
  }
};

inline std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline std::vector<std::uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<std::uint8_t>((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
}

inline void write_bytes(const fs::path& p, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

inline void write_text(const fs::path& p, std::string_view text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

// A fresh folder under the system temporary folder, removed on destruction.
class TempDir {
 public:
  TempDir() {
    std::string templ = (fs::temp_directory_path() / "fano-test-XXXXXX").string();
    if (!::mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
    path_ = templ;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

// Starts FANO_BIN with args (stdout and stderr to the given files, stdin from
// in_file, each /dev/null when empty; FANO_QUIET=1). Returns the child's pid.
inline pid_t spawn_fano(const std::vector<std::string>& args, const std::string& out_file = "",
                        const std::string& err_file = "", const std::string& in_file = "") {
  std::vector<std::string> storage{FANO_BIN};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    const int in = ::open(in_file.empty() ? "/dev/null" : in_file.c_str(), O_RDONLY);
    const int out = ::open(out_file.empty() ? "/dev/null" : out_file.c_str(),
                           O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open(err_file.empty() ? "/dev/null" : err_file.c_str(),
                           O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0) ::_exit(127);
    ::dup2(in, 0), ::dup2(out, 1), ::dup2(err, 2);
    ::setenv("FANO_QUIET", "1", 1);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

inline RunResult wait_fano(pid_t pid) {
  RunResult r;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

// Runs FANO_BIN with args to completion, capturing stdout and stderr.
inline RunResult run_fano(const std::vector<std::string>& args) {
  TempDir dir;
  const std::string out = (dir / "out").string(), err = (dir / "err").string();
  RunResult r = wait_fano(spawn_fano(args, out, err));
  r.out = read_text(out);
  r.err = read_text(err);
  return r;
}

// Runs FANO_BIN with args and `input` on stdin (a file, not a terminal).
inline RunResult run_fano_with_input(const std::vector<std::string>& args,
                                     const std::string& input) {
  TempDir dir;
  const fs::path in = dir / "in", out = dir / "out", err = dir / "err";
  {
    std::ofstream f(in, std::ios::binary);
    f << input;
  }
  RunResult r = wait_fano(spawn_fano(args, out.string(), err.string(), in.string()));
  r.out = read_text(out);
  r.err = read_text(err);
  return r;
}

// s in single quotes for the shell.
inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs a shell command line through popen, appending its stdout to `out`.
// Returns its wait status, or nothing when popen fails.
inline std::optional<int> run_shell(const std::string& cmd, std::string& out) {
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) return std::nullopt;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  return ::pclose(pipe);
}

// Runs `fano <args>` through the shell (args is shell text; FANO_QUIET=1),
// capturing stdout, and stderr with it when with_stderr (else discarded).
// exit_code is -1 when the tool did not exit normally or could not be run.
inline RunResult run_fano_shell(const std::string& args, bool with_stderr = true) {
  const std::string cmd = "FANO_QUIET=1 " + shell_quote(FANO_BIN) + " " + args +
                          (with_stderr ? " 2>&1" : " 2>/dev/null");
  RunResult r;
  const std::optional<int> status = run_shell(cmd, r.out);
  if (!status) return RunResult{};
  r.exit_code = WIFEXITED(*status) ? WEXITSTATUS(*status) : -1;
  if (WIFSIGNALED(*status)) r.signal = WTERMSIG(*status);
  return r;
}

// "fano a b c", for failure messages.
inline std::string command_line(const std::vector<std::string>& args) {
  std::string s = "fano";
  for (const std::string& a : args) s += " '" + a + "'";
  return s;
}

// The exit code the CLI documents for a tablebase error kind (README, "Exit
// codes"), written out here independently of the tool's mapping.
inline int exit_code_of(TablebaseErrorKind kind) {
  switch (kind) {
    case TablebaseErrorKind::kMissing:
      return 10;
    case TablebaseErrorKind::kNotAFile:
      return 11;
    case TablebaseErrorKind::kTruncated:
      return 12;
    case TablebaseErrorKind::kBadMagic:
      return 13;
    case TablebaseErrorKind::kBadVersion:
      return 14;
    case TablebaseErrorKind::kChecksum:
      return 15;
    case TablebaseErrorKind::kCorrupt:
      return 16;
    case TablebaseErrorKind::kWrongVariant:
      return 17;
    case TablebaseErrorKind::kIo:
      return 18;
    default:  // not a table kind
      return -1;
  }
}

// Recomputes a damaged table's checksum (the library's own function), so that
// only the deliberate damage remains.
inline void reseal(std::vector<std::uint8_t>& b) {
  if (b.size() < sizeof(TablebaseHeader)) return;
  const std::uint64_t sum = tablebase_checksum(b);
  std::memcpy(b.data() + offsetof(TablebaseHeader, checksum), &sum, sizeof sum);
}

// The tool's JSON output (one document), parsed; fails the test on bad JSON.
inline nlohmann::json parse_json(const std::string& text) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    ADD_FAILURE() << "not JSON (" << e.what() << "): " << text;
    return nullptr;
  }
}

// Everything a socket receives until the peer closes it (*closed = true) or
// `wait_ms` pass in silence (the server tests' raw clients).
inline std::string read_until_closed(int fd, int wait_ms, bool* closed = nullptr) {
  std::string out;
  char buf[4096];
  if (closed) *closed = false;
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, wait_ms) <= 0) break;
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) {
      if (closed) *closed = true;
      break;
    }
    out.append(buf, std::size_t(n));
  }
  return out;
}

}  // namespace fano::testing
