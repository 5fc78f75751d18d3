// The whole-table check (verify_tablebase): each stored class against its
// successors, the symmetry group, an independent search of the reachable set,
// and the header's counts recounted; and its Markdown rows.
#include <algorithm>
#include <iterator>
#include <limits>
#include <sstream>

#include "fano/analysis.hpp"
#include "fano/game.hpp"
#include "fano/notation.hpp"
#include "fano/parallel.hpp"
#include "fano/stopwatch.hpp"
#include "fano/symmetry.hpp"
#include "fano/verify.hpp"

namespace fano::verify {
namespace {

// Index of a canonical code among the stored classes, or nullopt.
std::optional<size_t> index_of(const Tablebase& tb, std::uint64_t code) {
  size_t lo = 0, hi = tb.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (tb.position_at(mid).code < code)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < tb.size() && tb.position_at(lo).code == code) return lo;
  return std::nullopt;
}

// ---------------------------------------------------------------------------
// One stored class against its successors' stored entries.

enum class ClassStatus : std::uint8_t { kOk, kMissingSuccessor, kWrongValue };

// Re-derives the outcome of `st` from its game-over status and its successors'
// probe() results and compares it with `stored`. With `problem`, describes a
// failure in words.
ClassStatus check_class(const Tablebase& tb, const Rules& rules, State st, Outcome stored,
                        std::string* problem) {
  Outcome expected;
  std::string why;
  if (formed_lines(rules, st)) {
    expected = Outcome{Value::kWin, 0};
    if (problem) why = "a line stands (" + describe_game_over(rules, st) + "), so it is ";
  } else {
    bool any = false, missing = false;
    Outcome best;
    Move best_move;
    Outcome best_child;
    for_each_move(rules, st, [&](const Move& m, State child) {
      if (missing) return;
      const auto c = tb.probe(child);
      if (!c) {
        missing = true;
        if (problem)
          *problem = "successor " + format_position(child) + " (after " + format_move(m) +
                     ") is not stored";
        return;
      }
      const Outcome r = outcome_for_mover(*c);
      if (!any || better_for_mover(r, best)) best = r, best_move = m, best_child = *c;
      any = true;
    });
    if (missing) return ClassStatus::kMissingSuccessor;
    if (!any) {
      expected = Outcome{Value::kLoss, 0};
      if (problem) why = "the side to move has no legal move, so it is ";
    } else {
      expected = best;
      if (problem)
        why = "the best move " + format_move(best_move) + " reaches an entry " +
              outcome_text(best_child) + " for the opponent, so it is ";
    }
  }
  if (stored == expected) return ClassStatus::kOk;
  if (problem)
    *problem = "stored " + outcome_text(stored) + ", but " + why + outcome_text(expected);
  return ClassStatus::kWrongValue;
}

// Classes reachable from the empty board, by the rules engine alone: a
// breadth-first search over sorted layers (each layer's children are sorted,
// deduplicated and stripped of classes already seen), no move from a position
// where a line stands. Returns the canonical codes, sorted.
std::vector<std::uint64_t> search_reachable(const Rules& rules, const Symmetry& sym,
                                            const Progress& progress) {
  const std::uint64_t start = sym.canonical(kEmptyBoard).code;
  std::vector<std::uint64_t> seen{start}, frontier{start};
  for (int depth = 1; !frontier.empty(); ++depth) {
    par::enumerable_thread_specific<std::vector<std::uint64_t>> local;
    par::parallel_for(par::blocked_range<size_t>(0, frontier.size(), 1024), [&](const auto& r) {
      auto& out = local.local();
      for (size_t i = r.begin(); i != r.end(); ++i) {
        const State st{frontier[i]};
        if (formed_lines(rules, st)) continue;
        for_each_move(rules, st,
                      [&](const Move&, State child) { out.push_back(sym.canonical(child).code); });
      }
    });
    std::vector<std::uint64_t> children;
    size_t total = 0;
    for (const auto& v : local) total += v.size();
    children.reserve(total);
    for (const auto& v : local) children.insert(children.end(), v.begin(), v.end());
    par::parallel_sort(children.begin(), children.end());
    children.erase(std::unique(children.begin(), children.end()), children.end());
    frontier.clear();
    std::set_difference(children.begin(), children.end(), seen.begin(), seen.end(),
                        std::back_inserter(frontier));
    std::vector<std::uint64_t> merged(seen.size() + frontier.size());
    std::merge(seen.begin(), seen.end(), frontier.begin(), frontier.end(), merged.begin());
    seen.swap(merged);
    if (progress && !frontier.empty())
      progress("verify: reachable set: depth " + std::to_string(depth) + ", " +
               std::to_string(seen.size()) + " classes");
  }
  return seen;
}

void add_error(CategoryResult& r, Category c, std::optional<std::string> position,
               const std::string& problem) {
  if (r.errors++ == 0) r.first = Finding{c, std::move(position), problem};
}

// ---------------------------------------------------------------------------
// The stages of verify_tablebase, one category each.

// Header: fields that the reader does not already insist on.
CategoryResult check_header(const Tablebase& tb) {
  CategoryResult r;
  const size_t n = tb.size();
  const TablebaseHeader& h = tb.header();
  const Symmetry& sym = tb.symmetry();
  if (h.canonical != n)
    add_error(r, Category::kHeader, std::nullopt,
              "header says " + std::to_string(h.canonical) + " classes, the file holds " +
                  std::to_string(n));
  if (h.reserved != 0)
    add_error(r, Category::kHeader, std::nullopt, "reserved header field is not zero");
  if (h.symmetry_order != sym.order())
    add_error(r, Category::kHeader, std::nullopt,
              "header says a symmetry group of order " + std::to_string(h.symmetry_order) +
                  ", the variant's is " + std::to_string(sym.order()));
  for (size_t i = 1; i < n; ++i)
    if (tb.position_at(i).code <= tb.position_at(i - 1).code)
      add_error(r, Category::kHeader, format_position(tb.position_at(i)),
                "codes are not strictly ascending at class " + std::to_string(i));
  r.summary = std::to_string(n) + " classes, codes strictly ascending";
  return r;
}

// Symmetry: every element a permutation mapping lines onto lines and the
// variant's edges onto edges (with or without the shape swap, which maps
// lines of one shape to lines of the other), and the set a group.
CategoryResult check_symmetry(const Variant& variant, const Rules& rules, const Symmetry& sym) {
  CategoryResult r;
  const auto& group = sym.group();
  std::vector<SymmetryElement> sorted(group.begin(), group.end());
  std::sort(sorted.begin(), sorted.end());
  SymmetryElement id;
  for (int s = 0; s < kSpaces; ++s) id.perm[s] = std::uint8_t(s);
  if (!std::binary_search(sorted.begin(), sorted.end(), id))
    add_error(r, Category::kSymmetry, std::nullopt, "the group lacks the identity");
  for (const SymmetryElement& g : group) {
    const Permutation& p = g.perm;
    std::string name;
    for (int s = 0; s < kSpaces; ++s) name += char('1' + p[s]);
    if (g.swap) name += " with the shape swap";
    // The swap maps the game to itself only with as many circles as triangles.
    if (g.swap && variant.circles != variant.triangles)
      add_error(r, Category::kSymmetry, std::nullopt,
                "element " + name + " exchanges shapes, but the rules give " +
                    std::to_string(variant.circles) + " circles and " +
                    std::to_string(variant.triangles) + " triangles");
    SpaceMask image = 0;
    for (int s = 0; s < kSpaces; ++s) image |= SpaceMask(p[s] < kSpaces ? 1u << p[s] : 0u);
    if (image != 0x7f) {
      add_error(r, Category::kSymmetry, std::nullopt, "element " + name + " is not a permutation");
      continue;
    }
    for (SpaceMask lm : kLineMasks) {
      SpaceMask img = 0;
      for (int s = 0; s < kSpaces; ++s)
        if (lm >> s & 1) img |= SpaceMask(1u << p[s]);
      if (std::find(kLineMasks.begin(), kLineMasks.end(), img) == kLineMasks.end()) {
        add_error(r, Category::kSymmetry, std::nullopt,
                  "element " + name + " maps a line to a non-line");
        break;
      }
    }
    bool edges_ok = true;
    for (int a = 0; a < kSpaces && edges_ok; ++a)
      for (int b = 0; b < kSpaces && edges_ok; ++b)
        if ((rules.neighbours[a] >> b & 1) != (rules.neighbours[p[a]] >> p[b] & 1))
          edges_ok = false;
    if (!edges_ok)
      add_error(r, Category::kSymmetry, std::nullopt,
                "element " + name + " does not preserve the " +
                    std::string(adjacency_name(variant.adjacency)) + " adjacency");
    for (const SymmetryElement& q : group) {
      SymmetryElement pq;
      for (int s = 0; s < kSpaces; ++s) pq.perm[s] = q.perm[p[s] % kSpaces];
      pq.swap = g.swap != q.swap;
      if (!std::binary_search(sorted.begin(), sorted.end(), pq)) {
        add_error(r, Category::kSymmetry, std::nullopt, "the set is not closed under composition");
        break;
      }
    }
  }
  r.summary = std::to_string(group.size()) + " elements, each preserving lines and edges";
  return r;
}

// Reachable set: an independent search from the empty board.
CategoryResult check_reachable_set(const Tablebase& tb, const Rules& rules, const Symmetry& sym,
                                   const Progress& progress) {
  CategoryResult r;
  const size_t n = tb.size();
  if (progress) progress("verify: searching the reachable set from the empty board");
  const auto reach = search_reachable(rules, sym, progress);
  size_t i = 0, j = 0;
  while (i < n || j < reach.size()) {
    const std::uint64_t s = i < n ? tb.position_at(i).code : ~0ull;
    const std::uint64_t q = j < reach.size() ? reach[j] : ~0ull;
    if (i < n && (j == reach.size() || s < q)) {
      const State st{s};
      const State canon = sym.canonical(st);
      add_error(r, Category::kReachableSet, format_position(st),
                canon != st ? "stored class is not in canonical form (the canonical member is " +
                                  format_position(canon) + ")"
                            : "stored, but not reachable from the empty board");
      ++i;
    } else if (i == n || q < s) {
      add_error(r, Category::kReachableSet, format_position(State{q}),
                "reachable from the empty board, but not stored");
      ++j;
    } else {
      ++i, ++j;
    }
  }
  r.summary = std::to_string(reach.size()) + " classes reachable from the empty board";
  return r;
}

// Successors and values: every class against its successors' entries.
void check_successors_and_values(const Tablebase& tb, const Rules& rules, const Symmetry& sym,
                                 const Progress& progress, CategoryResult& succ,
                                 CategoryResult& vals) {
  const size_t n = tb.size();
  std::vector<ClassStatus> status(n, ClassStatus::kOk);
  if (progress) progress("verify: checking every class against its successors");
  constexpr size_t kSteps = 10;
  for (size_t step = 0; step < kSteps; ++step) {
    const size_t a = n * step / kSteps, b = n * (step + 1) / kSteps;
    par::parallel_for(par::blocked_range<size_t>(a, b, 2048), [&](const auto& r) {
      for (size_t i = r.begin(); i != r.end(); ++i)
        status[i] = check_class(tb, rules, tb.position_at(i), tb.outcome_at(i), nullptr);
    });
    if (progress)
      progress("verify: values: " + std::to_string(b) + " of " + std::to_string(n) +
               " classes checked");
  }
  // When one entry is wrong, the classes that lead to it may fail too; only
  // the wrong entry itself has successors that all pass. So the first value
  // error reported is the first failing class whose successors all pass.
  std::optional<size_t> first_value, first_blameworthy;
  for (size_t i = 0; i < n; ++i) {
    if (status[i] == ClassStatus::kMissingSuccessor) {
      std::string problem;
      if (succ.errors == 0) check_class(tb, rules, tb.position_at(i), tb.outcome_at(i), &problem);
      add_error(succ, Category::kSuccessors, format_position(tb.position_at(i)), problem);
    } else if (status[i] == ClassStatus::kWrongValue) {
      ++vals.errors;
      if (!first_value) first_value = i;
      if (!first_blameworthy && formed_lines(rules, tb.position_at(i))) first_blameworthy = i;
      if (!first_blameworthy) {
        bool successor_fails = false;
        for_each_move(rules, tb.position_at(i), [&](const Move&, State child) {
          const auto k = index_of(tb, sym.canonical(child).code);
          if (k && *k != i && status[*k] != ClassStatus::kOk) successor_fails = true;
        });
        if (!successor_fails) first_blameworthy = i;
      }
    }
  }
  if (const auto pick = first_blameworthy ? first_blameworthy : first_value) {
    std::string problem;
    check_class(tb, rules, tb.position_at(*pick), tb.outcome_at(*pick), &problem);
    vals.first = Finding{Category::kValues, format_position(tb.position_at(*pick)), problem};
  }
  succ.summary = "every successor of an unfinished class is stored";
  vals.summary = "every class satisfies the Bellman condition";
}

// The stored classes counted again, each weighted by the size of its orbit,
// and the longest stored win (plies, first class with it), if any.
struct Recount {
  TablebaseCounts counts;
  std::optional<std::pair<std::uint16_t, size_t>> longest_win;
};

Recount recount_classes(const Tablebase& tb, const Rules& rules, const Symmetry& sym) {
  par::combinable<TablebaseCounts> partial;
  par::combinable<std::pair<std::uint16_t, size_t>> longest([] {
    return std::pair<std::uint16_t, size_t>{0, std::numeric_limits<size_t>::max()};
  });
  par::parallel_for(par::blocked_range<size_t>(0, tb.size(), 4096), [&](const auto& r) {
    TablebaseCounts& c = partial.local();
    auto& lw = longest.local();
    for (size_t i = r.begin(); i != r.end(); ++i) {
      const State st = tb.position_at(i);
      const std::uint64_t w = std::uint64_t(sym.orbit_size(st));
      c.reachable += w;
      (rules.placement_phase(st) ? c.placement : c.movement) += w;
      const Outcome o = tb.outcome_at(i);
      (o.value == Value::kWin ? c.win : o.value == Value::kLoss ? c.loss : c.draw) += w;
      if (o.value == Value::kWin && (lw.second == std::numeric_limits<size_t>::max() ||
                                     o.plies > lw.first || (o.plies == lw.first && i < lw.second)))
        lw = {o.plies, i};
    }
  });
  Recount out;
  out.counts = partial.combine([](TablebaseCounts a, const TablebaseCounts& b) {
    a.reachable += b.reachable, a.placement += b.placement, a.movement += b.movement;
    a.win += b.win, a.loss += b.loss, a.draw += b.draw;
    return a;
  });
  const auto lw = longest.combine([](auto a, auto b) {
    if (a.second == std::numeric_limits<size_t>::max()) return b;
    if (b.second == std::numeric_limits<size_t>::max()) return a;
    if (a.first != b.first) return a.first > b.first ? a : b;
    return a.second < b.second ? a : b;
  });
  if (lw.second != std::numeric_limits<size_t>::max()) out.longest_win = lw;
  return out;
}

// Counts: the header's against the recount.
CategoryResult check_counts(const TablebaseHeader& h, const TablebaseCounts& c) {
  CategoryResult r;
  auto compare = [&](const char* name, std::uint64_t header, std::uint64_t counted) {
    if (header != counted)
      add_error(r, Category::kCounts, std::nullopt,
                std::string("header says ") + name + " " + std::to_string(header) +
                    ", the stored classes weighted by orbit size give " + std::to_string(counted));
  };
  compare("reachable", h.reachable, c.reachable);
  compare("placement", h.placement, c.placement);
  compare("movement", h.movement, c.movement);
  compare("win", h.win, c.win);
  compare("loss", h.loss, c.loss);
  compare("draw", h.draw, c.draw);
  r.summary = "reachable " + std::to_string(c.reachable) + " = placement " +
              std::to_string(c.placement) + " + movement " + std::to_string(c.movement) + "; win " +
              std::to_string(c.win) + ", loss " + std::to_string(c.loss) + ", draw " +
              std::to_string(c.draw);
  return r;
}

}  // namespace

std::string_view category_name(Category c) {
  switch (c) {
    case Category::kHeader:
      return "header";
    case Category::kSymmetry:
      return "symmetry";
    case Category::kReachableSet:
      return "reachable set";
    case Category::kSuccessors:
      return "successors";
    case Category::kValues:
      return "values";
    case Category::kCounts:
      return "counts";
  }
  return "?";
}

TablebaseReport verify_tablebase(const Tablebase& tb, const TablebaseOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  const Progress& progress = options.progress;
  TablebaseReport rep;
  rep.variant = tb.variant();
  rep.classes = tb.size();
  const Rules rules(rep.variant);
  const Symmetry& sym = tb.symmetry();
  auto cat = [&](Category c) -> CategoryResult& { return rep.categories[int(c)]; };

  cat(Category::kHeader) = check_header(tb);
  cat(Category::kSymmetry) = check_symmetry(rep.variant, rules, sym);
  if (options.search_reachable) {
    cat(Category::kReachableSet) = check_reachable_set(tb, rules, sym, progress);
  } else {
    CategoryResult& r = cat(Category::kReachableSet);
    if (!tb.probe(kEmptyBoard))
      add_error(r, Category::kReachableSet, format_position(kEmptyBoard),
                "the empty board is not stored");
    r.summary = "not searched; the empty board is stored";
  }
  check_successors_and_values(tb, rules, sym, progress, cat(Category::kSuccessors),
                              cat(Category::kValues));
  const Recount recount = recount_classes(tb, rules, sym);
  rep.recount = recount.counts;
  if (recount.longest_win) {
    rep.longest_win = Outcome{Value::kWin, recount.longest_win->first};
    rep.longest_win_position = format_position(tb.position_at(recount.longest_win->second));
  }
  cat(Category::kCounts) = check_counts(tb.header(), rep.recount);

  // The start and the first moves.
  rep.start = tb.probe(kEmptyBoard);
  for_each_move(rules, kEmptyBoard, [&](const Move& m, State child) {
    if (const auto c = tb.probe(child)) rep.first_moves.push_back({m, outcome_for_mover(*c)});
  });

  for (const CategoryResult& r : rep.categories) {
    rep.errors += r.errors;
    if (r.errors && !rep.first_error) rep.first_error = r.first;
  }
  rep.seconds = seconds_since(t0);
  return rep;
}

std::string markdown_table_header() {
  return "| variant | empty board | reachable positions (placement + movement) | symmetry "
         "classes (group order) | win / loss / draw (side to move) | longest forced win | "
         "first moves that lose |\n"
         "|---|---|---|---|---|---|---|\n";
}

std::string markdown_row(const TablebaseReport& r) {
  std::ostringstream o;
  o << "| " << variant_slug(r.variant) << " (cap " << r.variant.stack_cap << ", "
    << adjacency_name(r.variant.adjacency) << ") | "
    << (r.start ? outcome_text(*r.start) : std::string("not stored")) << " | "
    << std::to_string(r.recount.reachable) << " (" << std::to_string(r.recount.placement) << " + "
    << std::to_string(r.recount.movement) << ") | " << std::to_string(r.classes) << " ("
    << rule_symmetries(r.variant).size() << ") | " << std::to_string(r.recount.win) << " / "
    << std::to_string(r.recount.loss) << " / " << std::to_string(r.recount.draw) << " | ";
  if (r.longest_win)
    o << r.longest_win->plies << " plies: `" << r.longest_win_position << "`";
  else
    o << "none";
  o << " | ";
  bool any = false;
  for (const FirstMove& f : r.first_moves) {
    if (f.result.value != Value::kLoss) continue;
    o << (any ? ", " : "") << format_move(f.move) << " (" << outcome_text(f.result) << ")";
    any = true;
  }
  if (!any) o << "none";
  o << " |\n";
  return o.str();
}

// ---------------------------------------------------------------------------
// Published depth counts

}  // namespace fano::verify
