#include "fano/tablebase.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

#include "fano/buffer.hpp"
#include "fano/numbering.hpp"
#include "fano/rules.hpp"

namespace fano {
namespace {

// zstd levels per section, measured on the standard table (zstd 1.5.4, `zstd
// -b`): the codes compress best for their time at 6 (level 3: 51471 bytes, 6:
// 47025 at 43 MB/s, 9: 45199 at 26 MB/s, 19: 43718 at 1.5 MB/s); the outcomes
// are smallest at 1 short of the slow levels (1: 32615 bytes at 144 MB/s, 3:
// 34213, 6: 35261, 15: 31565 at 3.5 MB/s).
constexpr int kCodesZstdLevel = 6, kOutcomesZstdLevel = 1;

// One byte per outcome: 0 draw, 1 + p a win in p plies (p <= 126),
// 128 + p a loss in p plies (p <= 127).
std::uint8_t outcome_byte(Outcome o) {
  if (o.value == Value::kDraw) return 0;
  if (o.value == Value::kWin) {
    if (o.plies > 126)
      throw std::runtime_error("win too long for the format: " + std::to_string(o.plies));
    return std::uint8_t(1 + o.plies);
  }
  if (o.plies > 127)
    throw std::runtime_error("loss too long for the format: " + std::to_string(o.plies));
  return std::uint8_t(128 + o.plies);
}

Outcome outcome_from_byte(std::uint8_t b) {
  if (b == 0) return Outcome{Value::kDraw, 0};
  if (b < 128) return Outcome{Value::kWin, std::uint16_t(b - 1)};
  return Outcome{Value::kLoss, std::uint16_t(b - 128)};
}

// One zstd frame of `raw`. Each thread keeps its compression context: a fresh
// one allocates (and faults in) megabytes of tables on every call, which took
// longer than compressing the standard table itself.
UninitVector<std::uint8_t> compress(std::span<const std::uint8_t> raw, int level) {
  struct Context {
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    ~Context() { ZSTD_freeCCtx(cctx); }
  };
  thread_local Context context;
  if (context.cctx == nullptr) throw std::bad_alloc();
  UninitVector<std::uint8_t> out(ZSTD_compressBound(raw.size()));
  const size_t n =
      ZSTD_compressCCtx(context.cctx, out.data(), out.size(), raw.data(), raw.size(), level);
  if (ZSTD_isError(n)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

std::uint64_t header_checksum(TablebaseHeader h, std::span<const std::uint8_t> payload) {
  h.checksum = 0;
  std::array<std::uint8_t, sizeof h> raw;
  std::memcpy(raw.data(), &h, sizeof h);
  return fnv1a64(payload, fnv1a64(raw));
}

[[noreturn]] void refuse(TablebaseErrorKind kind, const std::string& name, const std::string& why) {
  throw TablebaseError(kind, name + ": " + why);
}

std::vector<std::uint8_t> decompress_exact(std::span<const std::uint8_t> frame,
                                           std::uint64_t expect, const std::string& name,
                                           const char* section) {
  const unsigned long long size = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size != expect)
    refuse(TablebaseErrorKind::kCorrupt, name,
           std::string("the ") + section + " section is damaged");
  std::vector<std::uint8_t> out(size);
  const size_t n = ZSTD_decompress(out.data(), out.size(), frame.data(), frame.size());
  if (ZSTD_isError(n) || n != size)
    refuse(TablebaseErrorKind::kCorrupt, name,
           std::string("the ") + section + " section does not decompress");
  return out;
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
  if (!v)
    return "run '" + cmd + " --out " + quoted(path) +
           "' with the variant's flags (--stack-cap, --adjacency) to create it";
  if (v->stack_cap != 2) cmd += " --stack-cap " + std::to_string(v->stack_cap);
  if (v->adjacency != Adjacency::kBoard)
    cmd += " --adjacency " + std::string(adjacency_name(v->adjacency));
  const fs::path p(path);
  if (path != default_tablebase_path(*v)) {
    if (p.filename() == variant_slug(*v) + ".fanotb" && p.has_parent_path())
      cmd += " --tables " + quoted(p.parent_path().string());
    else
      cmd += " --out " + quoted(path);
  }
  return "run '" + cmd + "' to create it";
}

}  // namespace

std::uint64_t fnv1a64(std::span<const std::uint8_t> bytes, std::uint64_t h) {
  for (std::uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ull;
  return h;
}

// Both sections are built in fixed slices of classes in parallel (each
// slice's byte count first, then its bytes at their offsets), so the bytes are
// the same for any thread count.
constexpr std::size_t kSlice = std::size_t(1) << 14;

// Where each slice of n classes starts in a section: bytes_in(c, first, end)
// counts slice c's bytes (classes [first, end)), on all slices in parallel;
// returns at[c] = the bytes before slice c (at[slices] = the section's size).
template <class BytesIn>
std::vector<std::size_t> slice_offsets(std::size_t n, BytesIn&& bytes_in) {
  const std::size_t slices = (n + kSlice - 1) / kSlice;
  std::vector<std::size_t> at(slices + 1, 0);
  tbb::parallel_for(std::size_t(0), slices, [&](std::size_t c) {
    at[c + 1] = bytes_in(c, c * kSlice, std::min(n, (c + 1) * kSlice));
  });
  for (std::size_t c = 0; c < slices; ++c) at[c + 1] += at[c];
  return at;
}

CodesSection encode_codes_section(const Variant& variant, std::span<const std::uint64_t> codes) {
  // Differences between successive class numbers (the first from 0) as
  // LEB128 varints.
  const Numbering digits(variant.stack_cap);
  const std::size_t n = codes.size(), slices = (n + kSlice - 1) / kSlice;
  UninitVector<std::uint64_t> numbers(n);  // class numbers (< 2^39)
  const auto varint_bytes = [](std::uint64_t d) {
    return std::size_t(1) + (std::bit_width(d) - 1 + (d == 0)) / 7;
  };
  const auto at = slice_offsets(n, [&](std::size_t c, std::size_t first, std::size_t end) {
    for (std::size_t i = first; i < end; ++i) {
      const State st{codes[i]};
      if (i > 0 && codes[i] <= codes[i - 1])
        throw std::invalid_argument("codes must be strictly ascending");
      if (!digits.valid(st)) throw std::invalid_argument("invalid state code");
      numbers[i] = digits.number(st);
    }
    // Numbers grow with the codes, so each slice's first delta needs only
    // the previous number, which the class before the slice also computes
    // from its code here.
    std::uint64_t prev = c == 0 ? 0 : digits.number(State{codes[first - 1]});
    std::size_t bytes = 0;
    for (std::size_t i = first; i < end; ++i)
      bytes += varint_bytes(numbers[i] - prev), prev = numbers[i];
    return bytes;
  });
  UninitVector<std::uint8_t> deltas(at[slices]);
  tbb::parallel_for(std::size_t(0), slices, [&](std::size_t c) {
    std::uint8_t* out = deltas.data() + at[c];
    for (std::size_t i = c * kSlice, e = std::min(n, i + kSlice); i < e; ++i) {
      std::uint64_t d = numbers[i] - (i == 0 ? 0 : numbers[i - 1]);
      do {
        *out++ = std::uint8_t((d & 0x7f) | (d > 0x7f ? 0x80 : 0));
        d >>= 7;
      } while (d);
    }
  });
  return {variant, n, compress(deltas, kCodesZstdLevel)};
}

std::vector<std::uint8_t> encode_tablebase(const Variant& variant, const TablebaseCounts& counts,
                                           std::span<const std::uint64_t> codes,
                                           std::span<const Outcome> outcomes,
                                           const CodesSection* codes_section) {
  if (codes.size() != outcomes.size())
    throw std::invalid_argument("codes and outcomes differ in size");
  if (codes_section &&
      (codes_section->classes != codes.size() || !(codes_section->variant == variant)))
    throw std::invalid_argument("the codes section was built for other codes");
  // Outcomes: one byte per class without a standing line; both sections are
  // compressed at once. Half the classes have a standing line, at random, so
  // both passes are written without a branch on it.
  const std::size_t n = codes.size(), slices = (n + kSlice - 1) / kSlice;
  UninitVector<std::uint8_t> stands(n);  // 1 where a line stands
  const auto at = slice_offsets(n, [&](std::size_t, std::size_t first, std::size_t end) {
    std::size_t bytes = 0;
    bool wrong = false;
    for (std::size_t i = first; i < end; ++i) {
      const bool line = formed_lines(State{codes[i]}) != 0;
      stands[i] = line;
      bytes += !line;
      wrong |= line & (outcomes[i] != Outcome{Value::kWin, 0});
    }
    if (wrong) throw std::invalid_argument("a position with a standing line must be a win in 0");
    return bytes;
  });
  UninitVector<std::uint8_t> raw_outcomes(at[slices]);
  tbb::parallel_for(std::size_t(0), slices, [&](std::size_t c) {
    // Every class's byte is written and kept where no line stands.
    std::array<std::uint8_t, kSlice> bytes;
    std::size_t k = 0;
    for (std::size_t i = c * kSlice, e = std::min(n, i + kSlice); i < e; ++i)
      bytes[k] = outcome_byte(outcomes[i]), k += !stands[i];
    std::copy_n(bytes.begin(), k, raw_outcomes.data() + at[c]);
  });
  CodesSection built;
  UninitVector<std::uint8_t> outcomes_z;
  tbb::parallel_invoke(
      [&] {
        if (!codes_section) built = encode_codes_section(variant, codes);
      },
      [&] { outcomes_z = compress(raw_outcomes, kOutcomesZstdLevel); });
  const UninitVector<std::uint8_t>& codes_z = codes_section ? codes_section->bytes : built.bytes;

  TablebaseHeader h{};
  std::memcpy(h.magic, kTablebaseMagic, sizeof h.magic);
  h.version = kTablebaseVersion;
  h.header_size = sizeof(TablebaseHeader);
  h.stack_cap = std::uint8_t(variant.stack_cap);
  h.adjacency = std::uint8_t(variant.adjacency);
  h.symmetry_order = std::uint16_t(rule_symmetries(variant.adjacency).size());
  h.reachable = counts.reachable, h.placement = counts.placement, h.movement = counts.movement;
  h.canonical = codes.size();
  h.win = counts.win, h.loss = counts.loss, h.draw = counts.draw;
  h.codes_bytes = codes_z.size();
  h.outcomes_bytes = outcomes_z.size();
  // The header is stored as its in-memory image, which is the little-endian
  // layout on every machine this project builds for.
  static_assert(std::endian::native == std::endian::little, "the format is little-endian");
  std::vector<std::uint8_t> file(sizeof h + codes_z.size() + outcomes_z.size());
  std::copy(codes_z.begin(), codes_z.end(), file.begin() + sizeof h);
  std::copy(outcomes_z.begin(), outcomes_z.end(), file.begin() + sizeof h + codes_z.size());
  h.checksum = header_checksum(h, std::span(file).subspan(sizeof h));
  std::memcpy(file.data(), &h, sizeof h);
  return file;
}

void write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes) {
  try {
    AtomicFileWriter out(path);
    out.write(bytes);
    out.commit();
  } catch (const FileError& e) {
    throw TablebaseError(e.problem() == FileProblem::kNotAFile ? TablebaseErrorKind::kNotAFile
                                                               : TablebaseErrorKind::kIo,
                         e.what());
  }
}

void create_table_dir(const std::string& dir) {
  try {
    create_folders(dir.empty() ? default_table_dir().path : dir);
  } catch (const FileError& e) {
    throw TablebaseError(TablebaseErrorKind::kIo, e.what());
  }
}

namespace {

// The checks that need only the header and the file's size: magic, version,
// header size and that the sections announced fill the file exactly.
void check_header(const TablebaseHeader& h, std::uint64_t file_size, const std::string& name) {
  if (file_size == 0) refuse(TablebaseErrorKind::kTruncated, name, "is empty");
  if (file_size < sizeof h)
    refuse(TablebaseErrorKind::kTruncated, name,
           "is truncated: " + std::to_string(file_size) + " bytes, shorter than the " +
               std::to_string(sizeof h) + "-byte header");
  if (std::memcmp(h.magic, kTablebaseMagic, sizeof h.magic) != 0)
    refuse(TablebaseErrorKind::kBadMagic, name, "is not a Fano tablebase (wrong magic number)");
  if (h.version != kTablebaseVersion)
    refuse(TablebaseErrorKind::kBadVersion, name,
           "has format version " + std::to_string(h.version) + "; this program reads version " +
               std::to_string(kTablebaseVersion) +
               (h.version < kTablebaseVersion
                    ? " (older tables lack the shape-swap symmetry: run 'fano solve' again)"
                    : ""));
  if (h.header_size != sizeof h)
    refuse(TablebaseErrorKind::kCorrupt, name, "has a damaged header (header size)");
  const std::uint64_t payload = file_size - sizeof h;
  if (h.codes_bytes > payload || h.outcomes_bytes > payload - h.codes_bytes)
    refuse(TablebaseErrorKind::kTruncated, name,
           "is truncated: " + std::to_string(file_size) + " bytes, the header announces " +
               std::to_string(sizeof h + h.codes_bytes + h.outcomes_bytes));
  if (h.codes_bytes + h.outcomes_bytes != payload)
    refuse(TablebaseErrorKind::kCorrupt, name,
           "has trailing bytes after its sections (" +
               std::to_string(payload - h.codes_bytes - h.outcomes_bytes) + " bytes)");
}

// No table is larger: at most kMaxClasses classes, each at most a 10-byte
// varint and an outcome byte, compressed (zstd's bound), plus the header.
constexpr std::uint64_t kMaxClasses = std::uint64_t(1) << 24;
const std::uint64_t kMaxFileBytes = sizeof(TablebaseHeader) +
                                    ZSTD_compressBound(10 * kMaxClasses + 10) +
                                    ZSTD_compressBound(kMaxClasses);

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

Tablebase Tablebase::open(const std::string& path, std::optional<Variant> expected) {
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
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) refuse(TablebaseErrorKind::kIo, path, "cannot be opened for reading");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) refuse(TablebaseErrorKind::kIo, path, "cannot be examined");
  const std::uint64_t size = std::uint64_t(st.st_size);
  // The header first: a file whose size the header does not announce is
  // refused before the rest is read (a huge file with a bad header costs one read).
  TablebaseHeader h{};
  const std::size_t head = std::size_t(std::min<std::uint64_t>(size, sizeof h));
  if (!read_exactly(fd, reinterpret_cast<std::uint8_t*>(&h), head, 0))
    refuse(TablebaseErrorKind::kIo, path, "read failed");
  check_header(h, size, path);
  if (size > kMaxFileBytes)
    refuse(TablebaseErrorKind::kCorrupt, path,
           "is " + std::to_string(size) + " bytes, larger than any tablebase can be");
  std::vector<std::uint8_t> bytes(size);
  std::memcpy(bytes.data(), &h, sizeof h);
  if (!read_exactly(fd, bytes.data() + sizeof h, size - sizeof h, off_t(sizeof h)))
    refuse(TablebaseErrorKind::kIo, path, "read failed");
  return from_bytes(bytes, path, expected);
}

Tablebase Tablebase::from_bytes(std::span<const std::uint8_t> bytes, const std::string& name,
                                std::optional<Variant> expected) {
  TablebaseHeader h{};
  if (!bytes.empty()) std::memcpy(&h, bytes.data(), std::min(bytes.size(), sizeof h));
  check_header(h, bytes.size(), name);
  if (header_checksum(h, bytes.subspan(sizeof h)) != h.checksum)
    refuse(TablebaseErrorKind::kChecksum, name, "checksum mismatch: the file is damaged");
  if ((h.stack_cap != 2 && h.stack_cap != 3) || h.adjacency > 1)
    refuse(TablebaseErrorKind::kCorrupt, name, "names an unknown variant");
  const Variant v{h.stack_cap, Adjacency(h.adjacency)};
  if (expected && *expected != v)
    refuse(TablebaseErrorKind::kWrongVariant, name,
           "holds the " + variant_description(v) + " variant, not the requested " +
               variant_description(*expected));
  Tablebase tb(v);
  tb.header_ = h;
  tb.name_ = name;
  if (h.symmetry_order != tb.symmetry_.order())
    refuse(TablebaseErrorKind::kCorrupt, name, "was built with another symmetry group");
  // At most one entry per position, and no variant has 2^24 positions (9,018,802
  // for stack cap 3, either side to move): a larger count is damage, refused
  // before it sizes a buffer (found by fuzz/fuzz_tablebase).
  if (h.canonical > kMaxClasses)
    refuse(TablebaseErrorKind::kCorrupt, name, "has a damaged header (impossible position count)");
  const auto codes_frame = bytes.subspan(sizeof h, h.codes_bytes);
  const auto outcomes_frame = bytes.subspan(sizeof h + h.codes_bytes, h.outcomes_bytes);
  const unsigned long long delta_size =
      ZSTD_getFrameContentSize(codes_frame.data(), codes_frame.size());
  if (delta_size > 10 * h.canonical + 10)
    refuse(TablebaseErrorKind::kCorrupt, name, "the codes section is damaged");
  const auto deltas = decompress_exact(codes_frame, delta_size, name, "codes");
  const Numbering digits(v.stack_cap);
  tb.codes_.reserve(h.canonical);
  std::uint64_t number = 0;
  Numbering::Cursor cursor;
  std::vector<std::uint8_t> line_stands;  // per class: 1 when its outcome is implied (win in 0)
  line_stands.reserve(h.canonical);
  std::size_t with_line = 0;
  for (size_t i = 0; i < deltas.size();) {
    std::uint64_t d = 0;
    for (int shift = 0;; shift += 7) {
      if (i >= deltas.size() || shift > 63)
        refuse(TablebaseErrorKind::kCorrupt, name, "the codes section is damaged");
      const std::uint8_t b = deltas[i++];
      d |= std::uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) break;
    }
    if ((tb.codes_.size() > 0 && d == 0) || number + d < number ||
        tb.codes_.size() >= h.canonical || !digits.advance(cursor, d))
      refuse(TablebaseErrorKind::kCorrupt, name, "the codes section is damaged");
    number += d;
    tb.codes_.push_back(cursor.state.code);
    line_stands.push_back(formed_lines(cursor.state) != 0);
    with_line += line_stands.back();
  }
  if (tb.codes_.size() != h.canonical)
    refuse(TablebaseErrorKind::kCorrupt, name,
           "the codes section holds the wrong number of positions");
  const auto stored = decompress_exact(outcomes_frame, h.canonical - with_line, name, "outcomes");
  // Expand to one byte per class: a standing line is a win in 0 plies.
  tb.outcomes_.resize(h.canonical);
  const std::uint8_t win_now = outcome_byte(Outcome{Value::kWin, 0});
  for (size_t i = 0, k = 0; i < tb.codes_.size(); ++i)
    tb.outcomes_[i] = line_stands[i] ? win_now : stored[k++];
  tb.build_index();
  return tb;
}

void Tablebase::build_index() {
  radix_ = 0;
  for (int b = 0; b < 256; ++b) {
    const StackInfo& in = kStackInfo[b];
    // Invalid bytes never occur in a stored code; a probed one maps to 0 and misses.
    digit_[b] = in.valid && in.height <= variant_.stack_cap ? std::uint16_t(radix_++) : 0;
  }
  const std::size_t buckets = 2 * radix_ * radix_ * radix_;
  first_.assign(buckets + 1, 0);
  for (std::uint64_t c : codes_) ++first_[bucket_of(c) + 1];
  for (std::size_t b = 0; b < buckets; ++b) first_[b + 1] += first_[b];
}

std::optional<Outcome> Tablebase::probe(State st) const {
  const std::uint64_t c = symmetry_.canonical(st).code;
  const std::size_t b = bucket_of(c);
  const auto begin = codes_.begin() + first_[b], end = codes_.begin() + first_[b + 1];
  const auto it = std::lower_bound(begin, end, c);
  if (it == end || *it != c) return std::nullopt;
  return outcome_from_byte(outcomes_[size_t(it - codes_.begin())]);
}

std::uint64_t tablebase_checksum(std::span<const std::uint8_t> file) {
  assert(file.size() >= sizeof(TablebaseHeader));
  TablebaseHeader h;
  std::memcpy(&h, file.data(), sizeof h);
  return header_checksum(h, file.subspan(sizeof h));
}

Outcome Tablebase::outcome_at(std::size_t i) const { return outcome_from_byte(outcomes_[i]); }

}  // namespace fano
