// fano: the Fano330-R-Morris solver's command-line tool.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/analysis.hpp"
#include "fano/notation.hpp"
#include "fano/tablebase.hpp"

namespace {

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const fano::cli::Args&);
};

const Command kCommands[] = {
    {"info", "the variant's lines, edges and symmetry groups", fano::cli::cmd_info},
    {"perft", "count distinct positions by depth from the empty board", fano::cli::cmd_perft},
    {"solve", "solve every reachable position and write the tablebase", fano::cli::cmd_solve},
    {"query", "value, plies and every move's result for a position", fano::cli::cmd_query},
    {"play", "play against perfect play, or watch the engine play itself", fano::cli::cmd_play},
    {"show", "draw a position: text board, or an SVG picture with --svg", fano::cli::cmd_show},
    {"serve", "serve the solved game over HTTP: a JSON API and a browser explorer", fano::cli::cmd_serve},
    {"export", "every reachable position (or class) with its value, as CSV or JSON lines",
     fano::cli::cmd_export},
    {"verify", "check a tablebase, published depth counts or game records", fano::cli::cmd_verify},
    {"facts", "distinct actions, shortest games, board mirrorings and the longest forced win",
     fano::cli::cmd_facts},
    {"bench", "measure every stage's speed and the table's size on this machine",
     fano::cli::cmd_bench},
};

void usage(std::ostream& out) {
  out << "usage: fano <command> [options]   ('fano <command> --help' for details)\n\n"
         "Solver for Fano330-R-Morris, the ruthless stacking game on the Fano plane.\n\n"
         "commands:\n";
  for (const Command& c : kCommands) {
    std::string name = c.name;
    name.resize(8, ' ');
    out << "  " << name << c.summary << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(std::cerr);
    return 2;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    usage(std::cout);
    return 0;
  }
  const std::vector<std::string> args(argv + 2, argv + argc);
  for (const Command& c : kCommands) {
    if (name != c.name) continue;
    try {
      return c.run(args);
    } catch (const fano::cli::UsageError& e) {
      std::cerr << "fano " << name << ": " << e.what() << "\n";
      return e.code();
    } catch (const fano::TablebaseError& e) {
      std::cerr << "fano " << name << ": " << e.what() << "\n";
      return fano::cli::exit_code_for(e.kind());
    } catch (const fano::UnreachablePosition& e) {
      std::cerr << "fano " << name << ": " << e.what() << "\n";
      return fano::cli::kExitUnreachable;
    } catch (const fano::NotationError& e) {
      std::cerr << "fano " << name << ": " << e.what() << "\n";
      return fano::cli::kExitUsage;
    } catch (const std::bad_alloc&) {
      std::cerr << "fano " << name << ": out of memory\n";
      return fano::cli::kExitInternal;
    } catch (const std::exception& e) {
      std::cerr << "fano " << name << ": " << e.what() << "\n";
      return fano::cli::kExitInternal;
    }
  }
  std::cerr << "fano: unknown command '" << name << "' (see 'fano --help')\n";
  return 2;
}
