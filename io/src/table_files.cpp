// Table files: opening a table by path (its header checked before the rest
// is read), writing one atomically, and the tables folder.
#include "fano/table_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "fano/files.hpp"
#include "fano/rules_options.hpp"

namespace fano {
namespace {

[[noreturn]] void refuse(TablebaseErrorKind kind, const std::string& name, const std::string& why) {
  throw TablebaseError(kind, name + ": " + why);
}

// How to write the missing table at `path`, for the message: "run 'fano
// solve --stack-cap 3' to create it", with --tables or --out when path is not
// the variant's default.
std::string solve_hint(const std::string& path, const std::optional<Variant>& v) {
  namespace fs = std::filesystem;
  auto quoted = [](const std::string& s) {
    if (s.find_first_not_of(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+") ==
        std::string::npos)
      return s;
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
  };
  std::string cmd = "fano solve";
  if (!v) {
    std::string flags;
    for (const RulesOption& option : rules_options()) flags += ", --" + std::string(option.flag);
    return "run '" + cmd + " --out " + quoted(path) +
           "' with the variant's options (--rules NAME, or " + flags.substr(2) + ") to create it";
  }
  // The options that differ from the rulebook's game, as the command's flags.
  for (const RulesOption& option : rules_options())
    if (option.get(*v) != option.default_code)
      cmd += " --" + std::string(option.flag) + " " + std::string(option.text_of(option.get(*v)));
  const fs::path p(path);
  if (path != default_tablebase_path(*v)) {
    if (p.filename() == variant_slug(*v) + ".fanotb" && p.has_parent_path())
      cmd += " --tables " + quoted(p.parent_path().string());
    else
      cmd += " --out " + quoted(path);
  }
  return "run '" + cmd + "' to create it";
}

// Reads exactly size bytes at offset from fd; false on a short read.
bool read_exactly(int fd, std::uint8_t* out, std::size_t size, off_t offset) {
  while (size > 0) {
    const ssize_t n = ::pread(fd, out, size, offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    out += n, size -= std::size_t(n), offset += n;
  }
  return true;
}

}  // namespace

namespace {
// A table file's FileError as the TablebaseError of write_file_atomically.
[[noreturn]] void rethrow_as_table_error(const FileError& e) {
  throw TablebaseError(e.problem() == FileProblem::kNotAFile ? TablebaseErrorKind::kNotAFile
                                                             : TablebaseErrorKind::kIo,
                       e.what());
}
}  // namespace

TableFileWriter::TableFileWriter(const std::string& path) {
  try {
    file_ = std::make_unique<AtomicFileWriter>(path);
  } catch (const FileError& e) {
    rethrow_as_table_error(e);
  }
}

TableFileWriter::~TableFileWriter() = default;

void TableFileWriter::write_and_commit(std::span<const std::uint8_t> bytes) {
  try {
    file_->write(bytes);
    file_->commit();
  } catch (const FileError& e) {
    rethrow_as_table_error(e);
  }
}

void write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes) {
  TableFileWriter(path).write_and_commit(bytes);
}

void create_table_dir(const std::string& dir) {
  try {
    create_folders(dir.empty() ? default_table_dir().path : dir);
  } catch (const FileError& e) {
    throw TablebaseError(TablebaseErrorKind::kIo, e.what());
  }
}

namespace {

// An open table file, its header read and checked against its size.
struct CheckedFile {
  int fd = -1;
  std::uint64_t size = 0;
  TablebaseHeader header{};
  CheckedFile(const CheckedFile&) = delete;
  CheckedFile& operator=(const CheckedFile&) = delete;
  CheckedFile() = default;
  ~CheckedFile() {
    if (fd >= 0) ::close(fd);
  }
};

void open_checked(const std::string& path, const std::optional<Variant>& expected, CheckedFile& f) {
  try {
    check_readable_file(path, true);
  } catch (const FileError& e) {
    // The real cause (a link loop, a permission, a directory); the way to
    // create the table only when it is truly missing.
    if (e.problem() == FileProblem::kMissing)
      throw TablebaseError(TablebaseErrorKind::kMissing,
                           std::string(e.what()) + " (" + solve_hint(path, expected) + ")");
    throw TablebaseError(e.problem() == FileProblem::kNotAFile ? TablebaseErrorKind::kNotAFile
                                                               : TablebaseErrorKind::kIo,
                         e.what());
  }
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0) refuse(TablebaseErrorKind::kIo, path, "cannot be opened for reading");
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) refuse(TablebaseErrorKind::kIo, path, "cannot be examined");
  f.size = std::uint64_t(st.st_size);
  // The header first: a file whose size the header does not announce is
  // refused before the rest is read (a huge file with a bad header costs one read).
  TablebaseHeader& h = f.header;
  const std::size_t head = std::size_t(std::min<std::uint64_t>(f.size, sizeof h));
  if (!read_exactly(f.fd, reinterpret_cast<std::uint8_t*>(&h), head, 0))
    refuse(TablebaseErrorKind::kIo, path, "read failed");
  check_tablebase_header(h, f.size, path);
  if (f.size > max_tablebase_bytes(h))
    refuse(TablebaseErrorKind::kCorrupt, path,
           "is " + std::to_string(f.size) + " bytes, larger than any tablebase can be");
}

}  // namespace

TablebaseHeader read_tablebase_header(const std::string& path, std::optional<Variant> expected) {
  CheckedFile f;
  open_checked(path, expected, f);
  // As Tablebase::from_bytes refuses them once the file is read.
  const std::optional<Variant> named = header_variant(f.header);
  if (!named) refuse(TablebaseErrorKind::kCorrupt, path, "names an unknown variant");
  if (expected && *expected != *named)
    refuse(TablebaseErrorKind::kWrongVariant, path,
           "holds the " + variant_description(*named) + " variant, not the requested " +
               variant_description(*expected));
  if (f.header.canonical > max_tablebase_classes(f.header))
    refuse(TablebaseErrorKind::kCorrupt, path, "announces more classes than its rules allow");
  return f.header;
}

Tablebase open_tablebase(const std::string& path, std::optional<Variant> expected) {
  CheckedFile f;
  open_checked(path, expected, f);
  std::vector<std::uint8_t> bytes(f.size);
  std::memcpy(bytes.data(), &f.header, sizeof f.header);
  if (!read_exactly(f.fd, bytes.data() + sizeof f.header, f.size - sizeof f.header,
                    off_t(sizeof f.header)))
    refuse(TablebaseErrorKind::kIo, path, "read failed");
  return Tablebase::from_bytes(bytes, path, expected);
}

}  // namespace fano
