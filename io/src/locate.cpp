// The default tables folder and the per-user cache (see table_dir_for_binary
// and table_dir_for_variant in table_files.hpp).
#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "fano/table_files.hpp"

namespace fano {
namespace {

namespace fs = std::filesystem;

// The source tables folder named by a build tree's marker in an ancestor
// folder of `binary`, or empty.
std::string build_tree_tables(const fs::path& binary) {
  std::error_code ec;
  for (fs::path dir = binary.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    std::ifstream marker(dir / kBuildTreeMarker);
    std::string line;
    if (marker && std::getline(marker, line) && !line.empty()) return line;
    if (dir == dir.root_path()) break;
  }
  return {};
}

// <prefix> when binary's folder is <prefix>/<install_dir>, else nullopt.
std::optional<fs::path> install_prefix(const fs::path& binary, const fs::path& install_dir) {
  fs::path prefix = binary.parent_path();
  bool any = false;
  const fs::path rel = install_dir.lexically_normal();
  std::vector<fs::path> parts(rel.begin(), rel.end());
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if (it->empty() || *it == ".") continue;  // a trailing separator
    if (prefix.filename() != *it) return std::nullopt;
    prefix = prefix.parent_path();
    any = true;
  }
  if (!any) return std::nullopt;
  return prefix;
}

}  // namespace

TableDir table_dir_for_binary(const std::string& binary, const std::string& install_dir,
                              const std::string& fallback) {
  if (const char* env = std::getenv("FANO_TABLES"); env && *env) return {env, "FANO_TABLES"};
  std::error_code ec;
  const fs::path self = fs::weakly_canonical(binary, ec);
  if (ec || self.empty()) return {fallback, "installed"};
  if (std::string src = build_tree_tables(self); !src.empty()) return {src, "source tree"};
  if (const auto prefix = install_prefix(self, install_dir))
    return {(*prefix / FANO_INSTALL_DATADIR / "fano" / "tables").string(), "installed"};
  return {fallback, "installed"};
}

TableDir default_table_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const std::string fallback =
      (fs::path("/usr/local") / FANO_INSTALL_DATADIR / "fano" / "tables").string();
  return table_dir_for_binary(ec ? std::string() : exe.string(), "bin", fallback);
}

std::string user_cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg && fs::path(xdg).is_absolute())
    return (fs::path(xdg) / "fano").string();
  const char* home = std::getenv("HOME");
  if (!home || !*home) {
    const passwd* pw = ::getpwuid(::getuid());
    home = pw ? pw->pw_dir : nullptr;
  }
  if (!home || !*home)
    throw TablebaseError(TablebaseErrorKind::kIo,
                         "no cache folder for tables: neither XDG_CACHE_HOME nor HOME is set "
                         "(set FANO_TABLES to a folder for the tables)");
  return (fs::path(home) / ".cache" / "fano").string();
}

TableDir table_dir_without_install() {
  if (const char* env = std::getenv("FANO_TABLES"); env && *env) return {env, "FANO_TABLES"};
  return {user_cache_dir(), "cache"};
}

TableDir table_dir_for_variant(const Variant& variant, const TableDir& base, bool solve_missing) {
  if (base.source == "FANO_TABLES" || base.source == "cache") return base;
  std::error_code ec;
  if (fs::exists(default_tablebase_path(variant, base.path), ec)) return base;
  if (solve_missing) return {user_cache_dir(), "cache"};
  try {
    TableDir cache{user_cache_dir(), "cache"};
    if (fs::exists(default_tablebase_path(variant, cache.path), ec)) return cache;
  } catch (const TablebaseError&) {
    // No home folder: no cache to look in.
  }
  return base;
}

std::string default_tablebase_path(const Variant& variant, const std::string& dir) {
  const std::string d = dir.empty() ? default_table_dir().path : dir;
  return (fs::path(d) / (variant_slug(variant) + ".fanotb")).string();
}

TableChoice choose_table(const std::optional<std::string>& file,
                         const std::optional<Variant>& variant, const std::string& dir) {
  if (file) return {*file, variant};
  const Variant v = variant.value_or(kStandard);
  if (dir.empty())
    return {default_tablebase_path(v, table_dir_for_variant(v, default_table_dir(), false).path),
            v};
  return {default_tablebase_path(v, dir), v};
}

}  // namespace fano
