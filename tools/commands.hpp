// The `fano` subcommands. Each takes the arguments after its name and returns
// the process exit code; errors are thrown (see cli.hpp) and reported by main.
#pragma once

#include <string>
#include <vector>

namespace fano::cli {

using Args = std::vector<std::string>;

int cmd_info(const Args& args);
int cmd_perft(const Args& args);
int cmd_solve(const Args& args);
int cmd_query(const Args& args);
int cmd_verify(const Args& args);
int cmd_bench(const Args& args);
int cmd_play(const Args& args);
int cmd_show(const Args& args);
int cmd_serve(const Args& args);
int cmd_export(const Args& args);
int cmd_facts(const Args& args);
int cmd_selfplay(const Args& args);

}  // namespace fano::cli
