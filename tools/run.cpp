// Running one command as a process: its errors reported on one line with
// their exit codes, then stdout finished. Shared by `fano` and `fano-serve`.
#include <exception>
#include <iostream>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/analysis.hpp"
#include "fano/files.hpp"
#include "fano/notation.hpp"
#include "fano/tablebase.hpp"

namespace fano::cli {

int run_command(const std::string& name, int (*run)(const Args&), const Args& args) {
  try {
    return run(args);
  } catch (const UsageError& e) {
    print_error(name, e.what());
    return e.code();
  } catch (const TablebaseError& e) {
    print_error(name, e.what());
    return exit_code_for(e.kind());
  } catch (const FileError& e) {
    // An input that cannot be read is bad input; an output gets its own code.
    print_error(name, e.what());
    return e.output() ? kExitCannotWrite : kExitUsage;
  } catch (const UnreachablePosition& e) {
    print_error(name, e.what());
    return kExitUnreachable;
  } catch (const NotationError& e) {
    print_error(name, e.what());
    return kExitUsage;
  } catch (const std::bad_alloc&) {
    print_error(name, "out of memory");
    return kExitInternal;
  } catch (const std::exception& e) {
    print_error(name, e.what());
    return kExitInternal;
  }
}

int finish_output(const std::string& name, int code) {
  // Every command's report reaches stdout, or the command fails: a write
  // error there (a full disk, /dev/full) is an output error, exit 6, unless
  // the command has already failed for another reason.
  try {
    finish_stdout();
  } catch (const FileError& e) {
    std::cerr << "fano" << (name.empty() ? "" : " " + printable(name)) << ": "
              << printable(e.what()) << "\n";
    return code == 0 ? kExitCannotWrite : code;
  }
  return code;
}

}  // namespace fano::cli
