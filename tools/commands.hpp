// The `fano` subcommands. Each takes the arguments after its name and returns
// the process exit code; errors are thrown (see cli.hpp) and reported by main.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace fano {
struct GameReview;
}  // namespace fano

namespace fano::cli {

using Args = std::vector<std::string>;

int cmd_info(const Args& args);
int cmd_perft(const Args& args);
int cmd_solve(const Args& args);
int cmd_query(const Args& args);
int cmd_review(const Args& args);
int cmd_verify(const Args& args);
int cmd_bench(const Args& args);
int cmd_play(const Args& args);
int cmd_show(const Args& args);
int cmd_serve(const Args& args);
int cmd_export(const Args& args);
int cmd_facts(const Args& args);
int cmd_selfplay(const Args& args);
int cmd_rules(const Args& args);
int cmd_strategy(const Args& args);

// `fano serve`: runs fano-serve from the folder of this executable (the
// server's code lives there alone: every other command starts without it).
int exec_serve(const Args& args);

// The review of a game in words, each side's mistakes listed (`fano review`,
// and `fano play`'s review command).
void print_review(std::ostream& out, const GameReview& review);

// Runs a command, reporting its errors (one line, the exit code of their kind).
int run_command(const std::string& name, int (*run)(const Args&), const Args& args);
// Flushes stdout: `code`, or exit 6 when the output could not be written.
int finish_output(const std::string& name, int code);

}  // namespace fano::cli
