// The kinds of error every front end reports, and how each front end reports
// them: the one table the CLI's exit codes, the HTTP API's statuses and the
// Python module's exception kinds are read from (docs/cli.md, "Exit codes").
//
// A library throws an exception that carries (or implies) a kind; a front end
// looks the kind up here and never decides a code of its own.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace fano {

enum class ErrorKind : std::uint8_t {
  kInternal,      // an unexpected error (a bug)
  kBadInput,      // bad arguments or notation, an input file that cannot be read
  kUnreachable,   // a legal position that no game reaches
  kCheckFailed,   // a verification found an error
  kCannotListen,  // the server's address or port cannot be bound
  kCannotWrite,   // an output file or standard output cannot be written
  // A tablebase file refused or not written (tablebase/FORMAT.md).
  kMissing,       // no such file
  kNotAFile,      // a directory or special file
  kTruncated,     // shorter than its header announces
  kBadMagic,      // not a tablebase
  kBadVersion,    // a format version this reader does not read
  kChecksum,      // damaged
  kCorrupt,       // checksum right but contents inconsistent
  kWrongVariant,  // a table of another variant
  kIo,            // a read or write failed
  // The HTTP API's own refusals (never a CLI exit; their codes keep the table whole).
  kNotFound,          // no such route, or a name that is no reading of the rules
  kMethodNotAllowed,  // a method the route does not take
  kTooLarge,          // more items than the route takes
  kUnavailable,       // not now: an analysis stopped, a table still being solved
};

// How one kind is reported: its name (the `kind` of Python's TablebaseError and
// of JSON errors), the CLI's exit code and the HTTP status.
struct ErrorKindInfo {
  ErrorKind kind;
  std::string_view name;
  int exit_code;
  int http_status;
};

// Indexed by ErrorKind. Exit codes 10..18 are the table kinds, in order.
inline constexpr std::array<ErrorKindInfo, 19> kErrorKinds{{
    {ErrorKind::kInternal, "internal", 1, 500},
    {ErrorKind::kBadInput, "bad_input", 2, 400},
    {ErrorKind::kUnreachable, "unreachable", 3, 422},
    {ErrorKind::kCheckFailed, "check_failed", 4, 500},
    {ErrorKind::kCannotListen, "cannot_listen", 5, 500},
    {ErrorKind::kCannotWrite, "cannot_write", 6, 500},
    {ErrorKind::kMissing, "missing", 10, 404},
    {ErrorKind::kNotAFile, "not_a_file", 11, 500},
    {ErrorKind::kTruncated, "truncated", 12, 500},
    {ErrorKind::kBadMagic, "bad_magic", 13, 500},
    {ErrorKind::kBadVersion, "bad_version", 14, 500},
    {ErrorKind::kChecksum, "checksum", 15, 500},
    {ErrorKind::kCorrupt, "corrupt", 16, 500},
    {ErrorKind::kWrongVariant, "wrong_variant", 17, 500},
    {ErrorKind::kIo, "io", 18, 500},
    {ErrorKind::kNotFound, "not_found", 19, 404},
    {ErrorKind::kMethodNotAllowed, "method_not_allowed", 20, 405},
    {ErrorKind::kTooLarge, "too_large", 21, 413},
    {ErrorKind::kUnavailable, "unavailable", 22, 503},
}};

constexpr const ErrorKindInfo& error_info(ErrorKind kind) { return kErrorKinds[std::size_t(kind)]; }

// The table is indexed by kind: each row sits at its kind's index.
static_assert([] {
  for (std::size_t i = 0; i < kErrorKinds.size(); ++i)
    if (std::size_t(kErrorKinds[i].kind) != i) return false;
  return true;
}());

}  // namespace fano
