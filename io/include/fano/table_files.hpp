// Table files as every front end finds, opens and writes them: the tables
// folder, a table opened by path (checked before it is read whole), a table
// written atomically. POSIX file I/O; above the portable layers.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "fano/board.hpp"
#include "fano/tablebase.hpp"

namespace fano {

// Opens and checks a table file (size, magic, version, checksum, sections,
// and the variant if one is expected); the header is read and checked against
// the file's size before the rest is read. Throws TablebaseError naming the
// file and the problem; a missing file's message says how to create it.
Tablebase open_tablebase(const std::string& path, std::optional<Variant> expected = std::nullopt);

// Writes a table's bytes to path atomically (AtomicFileWriter of
// fano/files.hpp: over a regular file or a missing one, never creating
// folders). Throws TablebaseError (kNotAFile for a directory or special file,
// else kIo) naming the destination and the cause.
void write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes);

// Creates the tables folder `dir` (default_table_dir() when empty) and its
// parents when missing. Throws TablebaseError (kIo) naming the cause.
void create_table_dir(const std::string& dir = "");

// Where tables are looked for when no folder is given, and why.
struct TableDir {
  std::string path;
  std::string source;  // "FANO_TABLES", "source tree" or "installed"
};
// $FANO_TABLES if set; else, when the running program lives in this project's
// build tree, the source tree's tables/; else <prefix>/share/fano/tables next
// to the installed program (<prefix>/bin/..).
TableDir default_table_dir();

// Default location of a variant's table: DIR/<slug>.fanotb, DIR defaulting to
// default_table_dir().
std::string default_tablebase_path(const Variant& variant, const std::string& dir = "");

}  // namespace fano
