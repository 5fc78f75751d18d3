
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cassert>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "fano/code_table.hpp"
#include "fano/numbering.hpp"
#include "fano/parallel.hpp"
#include "move_graph.hpp"
#include "radix_sort.hpp"
#include "sections.hpp"
namespace fano {
namespace detail {

// Breadth-first search over symmetry classes. The reachable set is closed under
// the move-graph symmetries (the empty board is fixed by them and they commute
// with move generation), so canonicalising every child finds exactly the
// classes of the reachable positions.
//
// Each layer is expanded in parallel: every class's number of moves and
// standing line are stored by id, and each thread's batch keeps the ranges of
// ids it expanded in this layer and their children's canonical codes, sorted
// by the hash table's shard (in move order within a shard; each child's shard
// is kept in move order too). Then one task per shard inserts that shard's
// children of every batch, so no two threads write the same shard, and
// replaces each child's code by what the table holds for it: the id of a class
// from an earlier layer, or, for a class new in this layer, its index among
// the shard's new classes (their ids wait for every shard's count). The table
// holds only these values; a value's code is read from the codes by id or
// from the shard's new codes (code_table.hpp). Once the new classes are
// counted, the same task numbers its new ones (ids in discovery order, stored
// in the table, their codes appended to the codes by id); the new ids of a
// layer are consecutive, so they are the next layer, and a shard's ids are
// one stretch per layer. Meanwhile the layer's successor lists are copied
// into the graph, turning each new class's index into its id on the way (so
// no pass over the children goes back to the table for their ids), and the
// batches hold one layer's children at a time; the hash table is freed when
// the search ends. Ids depend on thread timing; the graph is built on them
// (the analysis's values do not depend on the numbering), and rank_classes
// lists the classes in code order with each one's id by a radix sort, which
// is the same for any thread count.
namespace {

constexpr unsigned kShards = CodeTable::kShards;
// How many children ahead the table's slots are prefetched: the probes are
// random, and a mispredicted branch on "new or not" would otherwise leave each
// load waiting on its own.
constexpr std::size_t kAhead = 16;
// The most ids expanded in one round of a layer (see build_move_graph): the
// standard game's largest layer fits in one.
constexpr std::size_t kRound = std::size_t(1) << 18;
// Marks a table value (and so a child's value in a batch) as a class's index
// among its shard's new classes of the layer being inserted, not yet its id:
// the top bit of a table value, so ids must stay below 2^26, 67 M classes
// (checked as each layer is numbered; the largest game here has 20.8 M).
constexpr std::uint32_t kNew = std::uint32_t(1) << (CodeTable::kValueBits - 1);
// The hash table's load at a layer's end, as its shards are sized when
// rebuilt: the table is alive at the search's end, the largest reading's
// peak with the predecessor lists; at 0.7 it took 5.7 bytes a class there
// (results/solve-memory.md).
constexpr double kLayerEndLoad = 0.85;
// Above this many classes the ranking sorts by buckets (bucket_sorted): its
// blocks are given back to the system only by a large arena, and below it
// the two arrays of radix_sorted are a few megabytes.
constexpr std::size_t kBucketSortFrom = std::size_t(1) << 20;

// One per thread, kept across layers so that its buffers grow instead of being
// allocated (and faulted in) again for every layer; it holds the layer being
// expanded only (its successor lists go into the graph once the layer's
// children are numbered).
struct Batch {
  // The ranges of ids this thread expanded, in order (with edges only).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> expanded;
  UninitVector<std::uint8_t> shard_seq;  // each child's shard, in move order (with edges only)
  // Per shard, the children in move order: codes, then their table values
  // once inserted (an id, or a new class's index marked by kNew).
  std::array<UninitVector<std::uint64_t>, kShards> children;
};

// Resizes v to n, growing its capacity by an eighth beyond n rather than
// doubling it: the arrays by id grow layer by layer to their final size, and a
// doubled capacity is memory the solve never uses (the freed blocks go back
// to the buffers' arena for the next request).
template <class V>
void resize_snug(V& v, std::size_t n) {
  if (n > v.capacity()) v.reserve(n + n / 8);
  v.resize(n);
}

}  // namespace

MoveGraph build_move_graph(const Rules& rules, const Symmetry& sym, const SolveOptions& options,
                           bool with_edges) {
  // The table starts small and grows shard by shard before each layer's
  // inserts (CodeTable::Shard::reserve), so its size follows the game: a
  // fixed 2^18 slots (3 MiB) fitted the standard game but cost a game with
  // one piece of a kind two huge pages zeroed for a few hundred classes.
  // Every class's code by id, and per shard the codes of the classes new in
  // the layer being inserted (with their slots, until they are numbered): the
  // table's values name their codes here (see key_of).
  CodeArray code_of;
  code_of.resize(1);
  code_of[0] = kEmptyBoard.code;
  std::array<UninitVector<std::uint64_t>, kShards> fresh_codes;
  std::array<UninitVector<std::uint32_t>, kShards> fresh_slots;
  const auto key_of = [&](unsigned s) {
    return [&code_of, &fresh = fresh_codes[s]](std::uint32_t v) {
      return v & kNew ? fresh[v & ~kNew] : code_of[v];
    };
  };
  // Each shard's ids: a stretch of consecutive ids per layer (a layer's new
  // classes are numbered shard by shard), for rebuilding the shard.
  std::array<std::vector<std::pair<std::uint32_t, std::uint32_t>>, kShards> ids_of_shard;
  std::optional<CodeTable> table(std::in_place, CodeTable::kShards * 64);
  // Per shard, its candidates in the last round inserted and how many were
  // new: the guess of a layer's new classes when the shard is rebuilt.
  std::array<std::size_t, kShards> last_candidates{}, last_new{};
  {
    bool inserted = false;
    const unsigned s = CodeTable::shard_of(kEmptyBoard.code);
    CodeTable::Shard& shard = table->shard(s);
    shard.set_value(shard.insert(kEmptyBoard.code, key_of(s), inserted), kEmptyBoard.code, 0);
    ids_of_shard[s].emplace_back(0, 1);
  }
  MoveGraph g;
  auto& degree_of = g.degree;  // with edges only
  auto& out_edges = g.out_edges;
  // With edges: where each id's successor list starts in out_edges, from the
  // round's first (the round's prefix sum of the degrees).
  UninitVector<std::uint32_t> round_begin;
  par::enumerable_thread_specific<Batch> batches;
  // The layer being expanded is the ids [layer_begin, layer_end), in rounds
  // of at most kRound ids: the batches, the shards' new codes and the
  // table's growth for its candidates are sized to a round, not to the
  // largest layer (results/solve-memory.md). A round's new classes are
  // numbered before the next round's inserts, which then find them as ids;
  // they all belong to the next layer.
  std::size_t layer_begin = 0, layer_end = 1;
  for (std::size_t depth = 1; layer_begin < layer_end; ++depth) {
    std::size_t next_id = layer_end;  // the next layer so far: [layer_end, next_id)
    // A round is a call of its own (par::call_apart): the solve's time is in
    // its loops, each call of it runs the code optimised after the last.
    const auto expand_round = [&](std::size_t from) {
      const std::size_t to = std::min(layer_end, from + kRound);
      for (Batch& b : batches) {
        b.expanded.clear(), b.shard_seq.clear();
        for (auto& children : b.children) children.clear();
      }
      if (with_edges) resize_snug(degree_of, to);
      par::parallel_for(
          par::blocked_range<size_t>(from, to, 512), [&](const par::blocked_range<size_t>& r) {
            Batch& b = batches.local();
            if (with_edges) b.expanded.emplace_back(r.begin(), r.end());
            for (size_t id = r.begin(); id != r.end(); ++id) {
              const State st{code_of[id]};
              const bool ended = formed_lines(rules, st) != 0;  // no move is made then
              if (with_edges) degree_of[id] = kLineStands;
              if (ended) continue;
              std::array<std::uint64_t, 256> kids;
              unsigned degree = 0;
              for_each_move(rules, st, [&](const Move&, State child) {
                assert(degree < kids.size());
                kids[degree++] = child.code;
              });
              sym.canonicalise(kids.data(), degree);
              std::uint8_t* seq = nullptr;
              if (with_edges) {
                b.shard_seq.resize(b.shard_seq.size() + degree);
                seq = b.shard_seq.data() + b.shard_seq.size() - degree;
              }
              for (unsigned d = 0; d < degree; ++d) {
                const unsigned s = CodeTable::shard_of(kids[d]);
                b.children[s].push_back(kids[d]);
                if (with_edges) seq[d] = std::uint8_t(s);
              }
              if (degree >= kLineStands) throw std::length_error("a class with too many moves");
              if (with_edges) degree_of[id] = std::uint8_t(degree);
            }
          });
      std::vector<Batch*> all;
      for (Batch& b : batches) all.push_back(&b);
      // Insert, one task per shard. Each child's code becomes its table value:
      // the id of a class found in an earlier layer, or kNew | the class's
      // index in fresh[s] if it is new in this layer (its id is not known until
      // every shard has counted its new classes).
      par::parallel_for(0u, kShards, [&](unsigned s) {
        CodeTable::Shard& shard = table->shard(s);
        const auto key = key_of(s);
        // Room for this round's candidates, all counted as new; when that
        // takes a rebuild, the shard is sized for the layer's end at a load
        // of 0.85 (kLayerEndLoad), its new classes guessed from the share of
        // this shard's candidates that were new in the round before (a tenth
        // more): one rebuild per layer or fewer, and a table of about 4.9
        // bytes a class where a power of two sized for every candidate as
        // new left 9 to 12.
        std::size_t candidates = 0;
        for (const Batch* b : all) candidates += b->children[s].size();
        const std::size_t rounds_left = (layer_end - from + kRound - 1) / kRound;
        const double new_share =
            std::min(1.0, 1.1 * double(last_new[s] + 1) / double(last_candidates[s] + 1));
        const std::size_t expected =
            shard.size() + std::size_t(double(candidates * rounds_left) * new_share);
        shard.reserve(shard.size() + candidates, std::size_t(double(expected) / kLayerEndLoad),
                      [&](auto&& f) {
                        for (const auto& [first, end] : ids_of_shard[s])
                          for (std::uint32_t id = first; id < end; ++id) f(id, code_of[id]);
                      });
        auto& new_codes = fresh_codes[s];
        auto& new_slots = fresh_slots[s];
        new_codes.clear(), new_slots.clear();
        bool is_new = false;
        for (Batch* b : all) {
          // The children's array and count in locals: the compiler cannot tell
          // that the stores into the array leave the vector's bounds alone.
          std::uint64_t* const children = b->children[s].data();
          const std::size_t n = b->children[s].size();
          for (size_t k = 0; k < n; ++k) {
            if (k + kAhead < n) shard.prefetch(children[k + kAhead]);
            const std::uint64_t code = children[k];
            const std::uint32_t slot = shard.insert(code, key, is_new);
            std::uint32_t value;
            if (is_new) {
              value = kNew | std::uint32_t(new_codes.size());
              shard.set_value(slot, code, value);  // a later duplicate in this layer finds it
              new_codes.push_back(code);
              new_slots.push_back(slot);
            } else {
              value = shard.value(slot);
            }
            children[k] = value;
          }
        }
        last_candidates[s] = candidates, last_new[s] = new_codes.size();
      });
      // Number the new classes shard by shard.
      std::array<std::uint32_t, kShards> first_id;
      for (unsigned s = 0; s < kShards; ++s)
        first_id[s] = std::uint32_t(next_id), next_id += fresh_codes[s].size();
      if (next_id >= kNew) throw std::length_error("too many classes to number");
      code_of.resize(next_id);  // new segments' pages are first touched in parallel below
      const auto number_new_classes = [&] {
        par::parallel_for(0u, kShards, [&](unsigned s) {
          CodeTable::Shard& shard = table->shard(s);
          std::uint32_t id = first_id[s];
          for (std::size_t k = 0; k < fresh_slots[s].size(); ++k, ++id) {
            shard.set_value(fresh_slots[s][k], fresh_codes[s][k], id);
            code_of[id] = fresh_codes[s][k];
          }
          if (id > first_id[s]) ids_of_shard[s].emplace_back(first_id[s], id);
        });
      };
      if (with_edges) {
        // The layer's successor lists, in id order: the ids a thread expanded
        // in one go are consecutive, so their lists are one stretch of
        // out_edges, and the thread's children in move order fill it. A
        // child's id is its value from the insert pass, or its shard's first
        // new id plus its index there: the lists need nothing of the
        // numbering, so both run at once (one wait for the threads per
        // layer, not two).
        const std::size_t base = out_edges.size();
        round_begin.resize(to - from + 1);
        round_begin[0] = 0;
        for (size_t id = from; id < to; ++id) {
          const std::uint8_t d = degree_of[id];
          round_begin[id - from + 1] = round_begin[id - from] + (d == kLineStands ? 0 : d);
        }
        out_edges.resize(base + round_begin[to - from]);
        par::parallel_invoke(number_new_classes, [&] {
          par::parallel_for(size_t(0), all.size(), [&](size_t v) {
            const Batch& b = *all[v];
            // Per shard, the next child's value from the insert pass.
            std::array<const std::uint64_t*, kShards> next;
            for (unsigned s = 0; s < kShards; ++s) next[s] = b.children[s].data();
            const std::uint8_t* seq = b.shard_seq.data();
            for (const auto& [first, end] : b.expanded) {
              for (std::size_t k = base + round_begin[first - from],
                               stop = base + round_begin[end - from];
                   k < stop; ++k) {
                const unsigned s = *seq++;
                const std::uint32_t v = std::uint32_t(*next[s]++);
                // Without a branch: whether a child is new is as good as random.
                const std::uint32_t is_new = 0u - ((v & kNew) >> (CodeTable::kValueBits - 1));
                out_edges[k] = (v & ~kNew) + (first_id[s] & is_new);
              }
            }
          });
        });
      } else {
        number_new_classes();
      }
      return to;
    };
    for (std::size_t from = layer_begin; from < layer_end;) {
      from = par::call_apart(expand_round, from);
      if (options.check_stop) options.check_stop();  // between rounds
    }
    layer_begin = layer_end;
    layer_end = next_id;
    if (options.progress && layer_begin < layer_end)
      options.progress("enumerate: depth " + std::to_string(depth) + ", " +
                       std::to_string(layer_end) + " classes");
  }
  table.reset();
  batches.clear();
  for (auto& f : fresh_codes) free_buffer(f);
  for (auto& f : fresh_slots) free_buffer(f);
  free_buffer(round_begin);
  g.code_of = std::move(code_of);
  return g;
}

namespace {
// The sorted keys into the codes (positions), with each(i, id) for every
// class in code order.
template <class Each>
void decode_keys(MoveGraph& g, const Rules& rules, Each&& each) {
  const std::size_t n = g.positions.size();
  const int id_bits = g.id_bits;
  const Numbering numbering(rules.stack_cap());
  auto& keys = g.positions;
  // Each slice decodes its first number in full and steps through the rest
  // (a step touches only the digits its carry reaches).
  const std::size_t slices = (n + kSlice - 1) / kSlice;
  par::parallel_for(std::size_t(0), slices, [&](std::size_t c) {
    Numbering::Cursor cursor;  // number 0
    std::uint64_t at = 0;
    for (std::size_t i = c * kSlice, e = std::min(n, i + kSlice); i < e; ++i) {
      const std::uint64_t number = keys[i] >> id_bits;
      if (!numbering.advance(cursor, number - at))
        throw std::logic_error("rank_classes: a class number decodes to no state");
      at = number;
      each(i, std::uint32_t(keys[i] & ((std::uint64_t(1) << id_bits) - 1)));
      keys[i] = cursor.state.code;
    }
  });
  g.id_bits = 0;
}
}  // namespace

namespace {
// The sorted keys in one array: segmented ones (the WebAssembly build's
// bucket sort) copied, each segment freed once copied.
UninitVector<std::uint64_t> contiguous(UninitVector<std::uint64_t>& keys) {
  return std::move(keys);
}
[[maybe_unused]] UninitVector<std::uint64_t> contiguous(CodeArray& keys) {
  UninitVector<std::uint64_t> all(keys.size());
  for (std::size_t s = 0; s < CodeArray::segments_of(keys.size()); ++s) {
    const std::size_t first = s * CodeArray::kSegment;
    std::copy_n(keys.at(first), std::min(CodeArray::kSegment, keys.size() - first),
                all.data() + first);
    keys.release_segment(s);
  }
  free_buffer(keys);
  return all;
}

// What RankedIds::kCodesLater keeps of the sorted keys (8 bytes a class)
// besides the deltas (1.5): the ids in code order (4), in segments made as
// the keys' segments are read and freed, and each slice's first class
// number, so that decode_positions can start every slice of the deltas at
// once. Frees the keys.
template <class Keys>
void keep_ids_in_code_order(MoveGraph& g, Keys& keys, int id_bits) {
  const std::size_t n = keys.size();
  const std::size_t slices = g.slice_at.size() - 1;
  // An id segment holds whole slices, a slice whole key segments (see below).
  static_assert(EdgeArray::kSegment % kSlice == 0 && kSlice % CodeArray::kSegment == 0);
  constexpr std::size_t kSlicesAnIdSegment = EdgeArray::kSegment / kSlice;
  g.slice_number.resize(slices);
  g.ids_in_code_order.resize_unallocated(n);
  const std::uint64_t id_mask = (std::uint64_t(1) << id_bits) - 1;
  par::parallel_for(std::size_t(0), EdgeArray::segments_of(n), [&](std::size_t s) {
    g.ids_in_code_order.allocate_segment(s);
    for (std::size_t c = s * kSlicesAnIdSegment; c < std::min(slices, (s + 1) * kSlicesAnIdSegment);
         ++c) {
      const std::size_t first = c * kSlice, end = std::min(n, first + kSlice);
      g.slice_number[c] = keys[first] >> id_bits;
      std::uint32_t* const ids = g.ids_in_code_order.at(first);
      for (std::size_t i = first; i < end; ++i) ids[i - first] = std::uint32_t(keys[i] & id_mask);
      if constexpr (std::is_same_v<Keys, CodeArray>)
        for (std::size_t k = first; k < end; k += CodeArray::kSegment)
          keys.release_segment(k / CodeArray::kSegment);
    }
  });
  free_buffer(keys);
}
}  // namespace

void rank_classes(MoveGraph& g, const Rules& rules, RankedIds with_ids, bool with_deltas) {
  const std::size_t n = g.code_of.size();
  // Sort (class number, id) packed in one word: the class number (below 2^39,
  // see numbering.hpp) orders like the code, and the id in the low bits gives
  // each class's rank without a lookup.
  // Ids take 24 bits, or more for larger games (three pieces of a kind, cap 3:
  // 20.8 M classes, 25 bits), beside class numbers of up to 39 bits
  // (2 * 41^7 < 2^39 for cap 3). The order is the class numbers' either way.
  const int kIdBits = std::max(24, int(std::bit_width(n)));
  const Numbering numbering(rules.stack_cap());
  // The codes by id become the keys in place, segment by segment, and the
  // sort's first pass frees them; the sorted keys become the codes in place
  // again, decoded from their class numbers: no array of codes lives beside
  // the sort's two (results/cold-solve.md).
  CodeArray& codes = g.code_of;
  // One pass: the keys are written before the check that they fit (the
  // numbers' bits gathered on the way); a sort of keys that do not is never
  // run.
  std::atomic<std::uint64_t> any_number{0};
  const std::size_t segments = (n + CodeArray::kSegment - 1) / CodeArray::kSegment;
  par::parallel_for(std::size_t(0), segments, [&](std::size_t segment) {
    const std::size_t first = segment * CodeArray::kSegment;
    const std::size_t count = std::min(n - first, CodeArray::kSegment);
    std::uint64_t* const key = codes.at(first);
    std::uint64_t any = 0;
    for (std::size_t k = 0; k < count; ++k) {
      const std::uint64_t number = numbering.number(State{key[k]});
      any |= number;
      key[k] = number << kIdBits | (first + k);
    }
    any_number.fetch_or(any, std::memory_order_relaxed);
  });
  const int high_bit = int(std::bit_width(any_number.load())) + kIdBits;
  if (high_bit > 64) throw std::length_error("too many classes to rank");
  // Large games sort by buckets, holding one array of the keys rather than
  // two (the ranking runs beside the levels, the largest solves' peak:
  // results/solve-memory.md); the keys are distinct (the id is in them), so
  // both sorts give the same order.
  const auto ranked = [&](auto& keys) {
    // The sorted class numbers are the codes section's input: its deltas are
    // taken here, and the table writer never numbers the classes again.
    if (with_deltas || with_ids == RankedIds::kCodesLater)
      g.code_deltas = class_number_deltas(
          n, [&](std::size_t i) { return keys[i] >> kIdBits; }, &g.slice_at);
    if (with_ids == RankedIds::kCodesLater) {
      keep_ids_in_code_order(g, keys, kIdBits);
      return;
    }
    g.slice_at.clear();
    g.positions = contiguous(keys);
    g.id_bits = kIdBits;
    if (with_ids == RankedIds::kById) g.id_of.resize(n);
    decode_keys(g, rules, [&](std::size_t i, std::uint32_t id) {
      if (with_ids == RankedIds::kById) g.id_of[i] = id;
    });
  };
  if (n > kBucketSortFrom) {
    auto keys = bucket_sorted(codes, kIdBits, high_bit);
    ranked(keys);
  } else {
    UninitVector<std::uint64_t> keys = radix_sorted(codes, kIdBits, high_bit);
    ranked(keys);
  }
}

void decode_positions(MoveGraph& g, const Rules& rules, std::size_t n) {
  const Numbering numbering(rules.stack_cap());
  const std::size_t slices = g.slice_number.size();
  const std::uint8_t* const deltas = g.code_deltas.data();
  g.positions.resize(n);
  // Each slice from its first class number, fully decoded, then by steps
  // (as decode_keys).
  par::parallel_for(std::size_t(0), slices, [&](std::size_t c) {
    Numbering::Cursor cursor;  // number 0
    std::uint64_t at = 0;
    const std::uint8_t* p = deltas + g.slice_at[c];
    for (std::size_t i = c * kSlice, e = std::min(n, i + kSlice); i < e; ++i) {
      std::uint64_t d = 0;
      for (int shift = 0;; shift += 7) {
        const std::uint8_t byte = *p++;
        d |= std::uint64_t(byte & 0x7f) << shift;
        if (byte < 0x80) break;
      }
      const std::uint64_t number = i == c * kSlice ? g.slice_number[c] : at + d;
      if (!numbering.advance(cursor, number - at))
        throw std::logic_error("decode_positions: a class number decodes to no state");
      at = number;
      g.positions[i] = cursor.state.code;
    }
  });
  g.slice_number = {}, g.slice_at = {};
}

}  // namespace detail

std::vector<std::uint64_t> enumerate_reachable(const Rules& rules, const Symmetry& sym,
                                               const SolveOptions& options) {
  detail::MoveGraph g = detail::build_move_graph(rules, sym, options, false);
  detail::rank_classes(g, rules, detail::RankedIds::kNone, false);
  return {g.positions.begin(), g.positions.end()};
}

}  // namespace fano
