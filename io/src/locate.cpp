// The default tables folder (see default_table_dir in tablebase.hpp).
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "fano/table_files.hpp"

namespace fano {
namespace {

namespace fs = std::filesystem;

// Whether `path` lies inside `dir` (both made absolute and normal).
bool inside(const fs::path& path, const fs::path& dir) {
  const fs::path p = path.lexically_normal(), d = dir.lexically_normal();
  auto pi = p.begin();
  for (auto di = d.begin(); di != d.end(); ++di, ++pi) {
    if (di->empty()) continue;  // a trailing separator
    if (pi == p.end() || *pi != *di) return false;
  }
  return true;
}

}  // namespace

TableDir default_table_dir() {
  if (const char* env = std::getenv("FANO_TABLES"); env && *env) return {env, "FANO_TABLES"};
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && inside(exe, fs::weakly_canonical(FANO_BUILD_DIR, ec)))
    return {FANO_SOURCE_TABLE_DIR, "source tree"};
  // An installed program: <prefix>/bin/fano reads <prefix>/share/fano/tables.
  const fs::path prefix = ec ? fs::path("/usr/local") : exe.parent_path().parent_path();
  return {(prefix / FANO_INSTALL_DATADIR / "fano" / "tables").string(), "installed"};
}

std::string default_tablebase_path(const Variant& variant, const std::string& dir) {
  const std::string d = dir.empty() ? default_table_dir().path : dir;
  return (fs::path(d) / (variant_slug(variant) + ".fanotb")).string();
}

}  // namespace fano
