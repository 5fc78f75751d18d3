// fano-serve: `fano serve` as its own executable, so that the HTTP server's
// code is loaded by `fano serve` alone (`fano` runs it from its own folder).
#include <string>
#include <vector>

#include "commands.hpp"

int main(int argc, char** argv) {
  const fano::cli::Args args(argv + 1, argv + argc);
  return fano::cli::finish_output("serve",
                                  fano::cli::run_command("serve", fano::cli::cmd_serve, args));
}
