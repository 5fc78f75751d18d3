// Table files as every front end finds, opens and writes them: the tables
// folder, a table opened by path (checked before it is read whole), a table
// written atomically. POSIX file I/O; above the portable layers.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "fano/board.hpp"
#include "fano/tablebase.hpp"

namespace fano {

class AtomicFileWriter;  // fano/files.hpp

// Opens and checks a table file (size, magic, version, checksum, sections,
// and the variant if one is expected); the header is read and checked against
// the file's size before the rest is read. Throws TablebaseError naming the
// file and the problem; a missing file's message says how to create it.
Tablebase open_tablebase(const std::string& path, std::optional<Variant> expected = std::nullopt);

// The header of a table file, checked as open_tablebase checks it (the
// file's size, magic, version, sections; the variant if one is expected)
// without reading the rest: what holding the table will take is known
// (header.canonical classes) before it is decoded. Throws as open_tablebase.
TablebaseHeader read_tablebase_header(const std::string& path,
                                      std::optional<Variant> expected = std::nullopt);

// Writes a table's bytes to path atomically (AtomicFileWriter of
// fano/files.hpp: over a regular file or a missing one, never creating
// folders). Throws TablebaseError (kNotAFile for a directory or special file,
// else kIo) naming the destination and the cause.
void write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes);

// write_file_atomically in two steps: the constructor checks the destination
// and makes its temporary, so a command refuses a folder that does not exist
// before a long solve, not after it; write_and_commit publishes the bytes.
// Throws as write_file_atomically.
class TableFileWriter {
 public:
  explicit TableFileWriter(const std::string& path);
  ~TableFileWriter();
  void write_and_commit(std::span<const std::uint8_t> bytes);

 private:
  std::unique_ptr<AtomicFileWriter> file_;
};

// Creates the tables folder `dir` (default_table_dir() when empty) and its
// parents when missing. Throws TablebaseError (kIo) naming the cause.
void create_table_dir(const std::string& dir = "");

// Where tables are looked for when no folder is given, and why.
struct TableDir {
  std::string path;
  std::string source;  // "FANO_TABLES", "source tree", "installed" or "cache"
};
// The one answer to "which tables folder" for a program or module whose file
// is `binary`, installed as <prefix>/<install_dir>/<file> (the fano command:
// "bin"; the Python module: its site-packages folder):
//   1. $FANO_TABLES if set;
//   2. run from a build tree of this project, the source tree's tables/ (the
//      build tree's marker file kBuildTreeMarker, in an ancestor folder of
//      `binary`, names it: no build-tree path is compiled into a library);
//   3. <prefix>/share/fano/tables when `binary` sits in <prefix>/<install_dir>;
//   4. `fallback` ("installed").
TableDir table_dir_for_binary(const std::string& binary, const std::string& install_dir,
                              const std::string& fallback);
// The marker file a build tree holds at its top: one line, the source tree's tables folder.
inline constexpr const char* kBuildTreeMarker = "fano-source-tables.txt";
// table_dir_for_binary for the running program (/proc/self/exe, "bin"),
// falling back to /usr/local/share/fano/tables.
TableDir default_table_dir();

// The per-user cache folder of tables solved on first use (the Python
// module's default tables): $XDG_CACHE_HOME/fano when that is an absolute
// path (as the XDG spec asks), else ~/.cache/fano ($HOME, else the password
// database). Throws TablebaseError (kIo) when no home folder is known.
std::string user_cache_dir();

// The folder of the default tables for a program without a folder of its own
// (the pip-installed Python module): $FANO_TABLES if set, else
// user_cache_dir() ("cache").
TableDir table_dir_without_install();

// The folder a variant's default table is read from, given the default
// folder `base`: `base` itself when the user chose it ($FANO_TABLES), when it
// is the cache, or when it holds the table; otherwise (a source tree's or
// installed folder without that table) the per-user cache, when the table is
// there or `solve_missing` (the caller solves it into the cache). Every front
// end reads default tables through this one search.
TableDir table_dir_for_variant(const Variant& variant, const TableDir& base, bool solve_missing);

// Default location of a variant's table: DIR/<slug>.fanotb, DIR defaulting to
// default_table_dir().
std::string default_tablebase_path(const Variant& variant, const std::string& dir = "");

// Which table file to open and which variant it must hold, for every front
// end: an explicit `file` holds its own variant unless one is asked for; with
// no file, the default file of the asked variant (the standard game when none
// is asked) in `dir` (when empty: table_dir_for_variant of default_table_dir(),
// so a table the Python module solved into the cache is found), which must
// hold it.
struct TableChoice {
  std::string path;
  std::optional<Variant> expected;  // nullopt: the file's own variant
};
TableChoice choose_table(const std::optional<std::string>& file,
                         const std::optional<Variant>& variant, const std::string& dir = "");

}  // namespace fano
