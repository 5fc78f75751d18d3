// Files as every front end reads and writes them, in one place: outputs
// published atomically and never over a special file ("-" is standard
// output), inputs read in lines of bounded length, and messages naming the
// real cause (a read-only file system, a permission, a full disk, a loop of
// symbolic links).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fano {

// Why a file could not be read or written.
enum class FileProblem {
  kMissing,   // no such file, or no folder for a new one (or no name at all)
  kNotAFile,  // a directory or special file (device, FIFO, socket) where a file is needed
  kTooLong,   // an input line longer than kMaxLineBytes
  kIo,        // anything else: permission, read-only file system, full disk, link loop
  kIsInput,   // an output that is the same file as an input of the command
};

// A file that could not be read (output() false) or written (true); what()
// is one line naming the file and the cause.
class FileError : public std::runtime_error {
 public:
  FileError(FileProblem problem, bool output, const std::string& what)
      : std::runtime_error(what), problem_(problem), output_(output) {}
  FileProblem problem() const { return problem_; }
  bool output() const { return output_; }

 private:
  FileProblem problem_;
  bool output_;
};

// The longest input line read (without its '\n'): 64 KiB.
inline constexpr std::size_t kMaxLineBytes = std::size_t(64) << 10;

// A file written in pieces and published atomically. The destination must be
// a regular file or missing, in an existing folder; a symbolic link is
// followed and its final target replaced (in the target's folder); a
// directory, device, FIFO or socket is refused. The bytes go to a temporary
// "<target>.tmp.<pid>[.<n>]" beside the target, held under flock while it
// exists; commit() flushes it and renames it over the target (keeping the
// old file's permissions). Destroyed without commit(), or on SIGINT or
// SIGTERM while those have their default action, the temporary is removed;
// a temporary whose lock is free (its writer was killed) is removed by the
// next writer of the same target. Throws FileError (output) naming the
// destination.
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(std::string path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;
  void write(std::span<const std::uint8_t> bytes);
  void write(std::string_view text) {
    write(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  }
  void commit();
  // The path as given, and the file it replaces (symbolic links followed).
  const std::string& path() const { return path_; }
  const std::string& target() const { return target_; }

 private:
  std::string path_, target_, tmp_;
  int fd_ = -1;
  int slot_ = -1;  // in the table of temporaries removed on a signal
};

// Writes `bytes` to `path` atomically (AtomicFileWriter), or to standard
// output when path is "-". Throws FileError (output).
void write_output(const std::string& path, std::span<const std::uint8_t> bytes);
void write_output(const std::string& path, std::string_view text);

// Writes every byte to standard output (file descriptor 1, after flushing
// std::cout). Throws FileError (output).
void write_stdout(std::span<const std::uint8_t> bytes);
void write_stdout(std::string_view text);

// Removes the temporaries of every AtomicFileWriter not yet committed, as
// SIGINT and SIGTERM do: for a process that must end at once (_Exit) while
// a writer may be open. Async-signal-safe.
void remove_unfinished_temporaries();

// Flushes std::cout and the C library's stdout and throws FileError (output)
// naming standard output and the cause when any byte written to them was
// lost (a full disk, a closed pipe, /dev/full): a command's report must not
// vanish with exit status 0.
void finish_stdout();

// Throws FileError (output, kIsInput) when `output` names the same file
// (device and inode, symbolic links followed) as `input`: writing it would
// replace the input the command reads. "-" and files that do not exist yet
// pass. `option` and `what` name the two in the message ("--out", "the
// tablebase").
void check_output_is_not_input(const std::string& output, const std::string& option,
                               const std::string& input, const std::string& what);

// Creates folder `path` and its missing parents; an existing folder is fine.
// Throws FileError (output) naming the cause (read-only file system,
// permission, a file in the way).
void create_folders(const std::string& path);

// Throws FileError (input) unless `path` is a file that can be opened for
// reading, naming the cause: no such file, a symbolic link to a missing file,
// a loop of symbolic links, permission, a directory; with regular_only, a
// device, FIFO or socket is refused too.
void check_readable_file(const std::string& path, bool regular_only);

// The lines of a file, or of standard input ("-"), read through a fixed
// buffer: a line longer than kMaxLineBytes is refused by its number, so
// memory stays bounded whatever the input. A directory is refused. A FIFO is
// opened as `cat` opens it: waiting for its writer, so that a writer that
// starts late is read rather than taken for an empty input. Throws FileError
// (input) naming the file.
class LineReader {
 public:
  explicit LineReader(const std::string& path);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  // The next line, without its '\n' (a last line without one counts); false
  // at the end of the input.
  bool next(std::string& line);
  // The number (from 1) of the line last returned.
  std::size_t line_number() const { return line_; }
  // The file's name in messages ("standard input" for "-").
  const std::string& name() const { return name_; }

 private:
  int fd_ = -1;
  bool owned_ = false;
  bool eof_ = false;
  std::string name_;
  std::vector<char> buf_;
  std::size_t begin_ = 0, end_ = 0, line_ = 0;
};

// A whole text input (a file, or "-" for standard input) read through
// LineReader, its lines joined by '\n' (line numbers are kept).
std::string read_text_lines(const std::string& path);

}  // namespace fano
