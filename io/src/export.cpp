#include "fano/export.hpp"

#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "fano/notation.hpp"

namespace fano {
namespace {

void append_number(std::string& out, std::uint64_t n) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, n);
  out.append(buf, r.ptr);
}

// The bucket of a code: its side-to-move bit and the byte of space 7, the two
// most significant parts of the code (512 buckets in code order).
constexpr int kBucketShift = 48;
constexpr std::size_t kBuckets = 512;

[[noreturn]] void zstd_error(std::size_t code) {
  throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(code));
}

}  // namespace

std::vector<std::string_view> export_columns(bool classes) {
  if (classes) return {"position", "to_move", "phase", "pieces", "value", "plies", "orbit", "code"};
  return {"position", "to_move", "phase", "pieces", "value", "plies", "code"};
}

std::string export_header(ExportFormat format, bool classes) {
  if (format == ExportFormat::kJsonl) return "";
  std::string out;
  for (const std::string_view name : export_columns(classes)) {
    out += out.empty() ? "" : ",";
    out += name;
  }
  return out + "\n";
}

void append_export_row(std::string& out, ExportFormat format, const ExportRow& row, bool classes) {
  const State st = row.position;
  const bool json = format == ExportFormat::kJsonl;
  const bool draw = row.outcome.value == Value::kDraw;
  const char* colour = st.to_move() == Colour::kWhite ? "white" : "black";
  const char* phase = row.placement ? "placement" : "movement";
  const std::string_view value = value_name(row.outcome.value);
  if (json) {
    // The bytes nlohmann-json's compact dump gives for the same object.
    out += "{\"position\":\"";
    out += format_position(st);
    out += "\",\"to_move\":\"";
    out += colour;
    out += "\",\"phase\":\"";
    out += phase;
    out += "\",\"pieces\":";
    append_number(out, std::uint64_t(st.pieces_on_board()));
    out += ",\"value\":\"";
    out += value;
    out += "\",\"plies\":";
    if (draw)
      out += "null";
    else
      append_number(out, row.outcome.plies);
    if (classes) {
      out += ",\"orbit\":";
      append_number(out, row.orbit);
    }
    out += ",\"code\":";
    append_number(out, st.code);
    out += "}\n";
    return;
  }
  out += format_position(st);
  out += ',';
  out += colour;
  out += ',';
  out += phase;
  out += ',';
  append_number(out, std::uint64_t(st.pieces_on_board()));
  out += ',';
  out += value;
  out += ',';
  if (!draw) append_number(out, row.outcome.plies);
  if (classes) {
    out += ',';
    append_number(out, row.orbit);
  }
  out += ',';
  append_number(out, st.code);
  out += '\n';
}

void for_each_reachable(const Tablebase& tb,
                        const std::function<void(std::span<const ExportRow>)>& f,
                        std::size_t max_chunk) {
  const Symmetry& sym = tb.symmetry();
  // Pass 1: images per bucket (an image fixed by several group elements is
  // counted more than once: an upper bound, which is all chunking needs).
  std::vector<std::uint64_t> count(kBuckets, 0);
  for (std::size_t i = 0; i < tb.size(); ++i)
    sym.for_each_image(tb.position_at(i), [&](std::uint64_t img) { ++count[img >> kBucketShift]; });
  std::vector<ExportRow> rows;
  for (std::size_t lo = 0; lo < kBuckets;) {
    std::size_t hi = lo, n = 0;
    while (hi < kBuckets && (hi == lo || n + count[hi] <= max_chunk)) n += count[hi++];
    if (n == 0) {
      lo = hi;
      continue;
    }
    // Pass 2 for the buckets [lo, hi): every image in range, sorted, each once.
    rows.clear();
    rows.reserve(n);
    const std::uint64_t first = std::uint64_t(lo) << kBucketShift;
    const std::uint64_t last = std::uint64_t(hi) << kBucketShift;  // exclusive
    for (std::size_t i = 0; i < tb.size(); ++i) {
      const Outcome o = tb.outcome_at(i);
      sym.for_each_image(tb.position_at(i), [&](std::uint64_t img) {
        if (img >= first && img < last)
          rows.push_back(ExportRow{State{img}, o, 0, State{img}.placement_phase(tb.variant())});
      });
    }
    std::sort(rows.begin(), rows.end(), [](const ExportRow& a, const ExportRow& b) {
      return a.position.code < b.position.code;
    });
    rows.erase(std::unique(rows.begin(), rows.end(),
                           [](const ExportRow& a, const ExportRow& b) {
                             return a.position.code == b.position.code;
                           }),
               rows.end());
    f(rows);
    lo = hi;
  }
}

void for_each_class(const Tablebase& tb, const std::function<void(std::span<const ExportRow>)>& f,
                    std::size_t max_chunk) {
  std::vector<ExportRow> rows;
  rows.reserve(std::min(max_chunk, tb.size()));
  for (std::size_t i = 0; i < tb.size(); ++i) {
    const State st = tb.position_at(i);
    rows.push_back(ExportRow{st, tb.outcome_at(i), std::uint32_t(tb.symmetry().orbit_size(st)),
                             st.placement_phase(tb.variant())});
    if (rows.size() == max_chunk || i + 1 == tb.size()) {
      f(rows);
      rows.clear();
    }
  }
}

struct ExportSink::Zstd {
  ZSTD_CCtx* cctx = nullptr;
  std::vector<char> out;
  ~Zstd() { ZSTD_freeCCtx(cctx); }
};

ExportSink::ExportSink(const std::string& path, bool zstd, int zstd_level) {
  if (!path.empty() && path != "-") file_.emplace(path);
  if (zstd) {
    zstd_ = std::make_unique<Zstd>();
    zstd_->cctx = ZSTD_createCCtx();
    if (!zstd_->cctx) throw std::bad_alloc();
    ZSTD_CCtx_setParameter(zstd_->cctx, ZSTD_c_compressionLevel, zstd_level);
    ZSTD_CCtx_setParameter(zstd_->cctx, ZSTD_c_checksumFlag, 1);
    zstd_->out.resize(ZSTD_CStreamOutSize());
  }
}

ExportSink::~ExportSink() = default;

void ExportSink::emit(const void* data, std::size_t size) {
  if (file_) {
    file_->write(std::span(static_cast<const std::uint8_t*>(data), size));
    return;
  }
  write_stdout(std::span(static_cast<const std::uint8_t*>(data), size));
}

void ExportSink::write(std::string_view bytes) {
  bytes_in_ += bytes.size();
  if (!zstd_) {
    emit(bytes.data(), bytes.size());
    return;
  }
  ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
  while (in.pos < in.size) {
    ZSTD_outBuffer out{zstd_->out.data(), zstd_->out.size(), 0};
    const size_t r = ZSTD_compressStream2(zstd_->cctx, &out, &in, ZSTD_e_continue);
    if (ZSTD_isError(r)) zstd_error(r);
    emit(out.dst, out.pos);
  }
}

void ExportSink::finish() {
  if (zstd_) {
    ZSTD_inBuffer in{nullptr, 0, 0};
    for (;;) {
      ZSTD_outBuffer out{zstd_->out.data(), zstd_->out.size(), 0};
      const size_t left = ZSTD_compressStream2(zstd_->cctx, &out, &in, ZSTD_e_end);
      if (ZSTD_isError(left)) zstd_error(left);
      emit(out.dst, out.pos);
      if (left == 0) break;
    }
  }
  if (file_) file_->commit();
}

ExportResult export_table(const Tablebase& tb, const std::string& path, ExportFormat format,
                          bool classes, bool zstd,
                          const std::function<void(std::uint64_t, std::uint64_t)>& progress) {
  ExportSink sink(path, zstd);
  const std::uint64_t total = classes ? tb.header().canonical : tb.header().reachable;
  std::uint64_t done = 0;
  std::string buf = export_header(format, classes);
  constexpr std::size_t kFlush = std::size_t(1) << 20;
  buf.reserve(kFlush + 4096);
  auto chunk = [&](std::span<const ExportRow> rows) {
    for (const ExportRow& row : rows) {
      append_export_row(buf, format, row, classes);
      if (buf.size() >= kFlush) {
        sink.write(buf);
        buf.clear();
      }
    }
    done += rows.size();
    if (progress) progress(done, total);
  };
  if (classes)
    for_each_class(tb, chunk);
  else
    for_each_reachable(tb, chunk);
  if (done != total)
    throw std::runtime_error("exported " + std::to_string(done) + " rows, the header counts " +
                             std::to_string(total));
  sink.write(buf);
  sink.finish();
  return {done, sink.bytes_in()};
}

}  // namespace fano
