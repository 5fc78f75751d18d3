// `fano serve`: fano-serve, run in place of this process (same pid, so that
// SIGTERM and SIGINT reach the server), from the folder of this executable.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "cli.hpp"
#include "commands.hpp"

namespace fano::cli {

int exec_serve(const Args& args) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec)
    throw UsageError("cannot find the fano-serve executable (no /proc/self/exe)", kExitInternal);
  std::string server = (self.parent_path() / "fano-serve").string();
  std::vector<std::string> storage{server};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  ::execv(server.c_str(), argv.data());
  throw UsageError(
      "cannot run " + server + " (the server, installed beside fano): " + std::strerror(errno),
      kExitInternal);
}

}  // namespace fano::cli
