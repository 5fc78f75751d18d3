// fano: the Fano330-R-Morris solver's command-line tool.
#include <tbb/version.h>
#include <zstd.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/tablebase.hpp"
#include "fano/version.hpp"

namespace {

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const fano::cli::Args&);
};

const Command kCommands[] = {
    {"rules", "the rules options and every reading of the rules, by name", fano::cli::cmd_rules},
    {"info", "the variant's lines, edges and symmetry groups", fano::cli::cmd_info},
    {"perft", "count distinct positions by depth from the empty board", fano::cli::cmd_perft},
    {"solve", "solve every reachable position and write the tablebase", fano::cli::cmd_solve},
    {"query", "value, plies and every move's result for a position", fano::cli::cmd_query},
    {"review", "a game's mistakes, move by move, against perfect play", fano::cli::cmd_review},
    {"play", "play against perfect play, or watch the engine play itself", fano::cli::cmd_play},
    {"show", "draw a position: text board, or an SVG picture with --svg", fano::cli::cmd_show},
    {"serve", "serve the solved game over HTTP: a JSON API and a browser explorer",
     fano::cli::exec_serve},
    {"export", "every reachable position (or class) with its value, as CSV or JSON lines",
     fano::cli::cmd_export},
    {"verify", "check a tablebase, published depth counts or game records", fano::cli::cmd_verify},
    {"facts", "distinct actions, shortest games, board mirrorings and the longest forced win",
     fano::cli::cmd_facts},
    {"bench", "measure every stage's speed and the table's size on this machine",
     fano::cli::cmd_bench},
    {"selfplay", "seeded games between two players and their statistics", fano::cli::cmd_selfplay},
    {"strategy", "whether a player's rule secures the game's value, or a shortest refutation",
     fano::cli::cmd_strategy},
};

void usage(std::ostream& out) {
  out << "usage: fano <command> [options]   ('fano help <command>' or 'fano <command> --help' "
         "for details)\n       fano --version\n\n"
         "Solver for Fano330-R-Morris, the ruthless stacking game on the Fano plane.\n\n"
         "commands:\n";
  std::size_t width = 0;  // the longest name and a space: the summaries line up
  for (const Command& c : kCommands) width = std::max(width, std::string_view(c.name).size() + 1);
  for (const Command& c : kCommands) {
    std::string name = c.name;
    name.resize(width, ' ');
    out << "  " << name << c.summary << "\n";
  }
  out << "\nexamples:\n  fano solve\n  fano query \"-/-/-/C/-/-/- b\"\n  fano play --as black\n"
         "  fano help query\n";
}

// The version, the commit built and the libraries' versions (compiled against, and run with).
void version(std::ostream& out) {
  out << "fano " << fano::kVersion << " (commit " << fano::kGitCommit << ")\n"
      << "zstd " << ZSTD_versionString() << "\n"
      << "oneTBB " << TBB_runtime_version() << " (built with " << TBB_VERSION_STRING << ")\n";
}

int dispatch(std::string& name, std::vector<std::string>& args) {
  if (name == "--version" || name == "-V" || name == "version") {
    version(std::cout);
    return 0;
  }
  if (name == "help" && !args.empty()) {
    // "fano help CMD" is "fano CMD --help".
    name = args.front();
    args = {"--help"};
  } else if (name == "--help" || name == "-h" || name == "help") {
    usage(std::cout);
    return 0;
  }
  for (const Command& c : kCommands)
    if (name == c.name) return fano::cli::run_command(name, c.run, args);
  std::cerr << "fano: unknown command '" << fano::cli::printable(name) << "' (see 'fano --help')\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(std::cerr);
    return 2;
  }
  std::string name = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  const int code = dispatch(name, args);
  return fano::cli::finish_output(name, code);
}
