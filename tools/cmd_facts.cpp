#include <iostream>
#include <optional>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/game_facts.hpp"
#include "fano/notation.hpp"
#include "fano/table_files.hpp"
#include "fano/tablebase.hpp"

namespace fano::cli {

int cmd_facts(const Args& args) {
  po::options_description desc("options");
  add_variant_options(desc);
  add_table_options(desc);
  desc.add_options()("no-table", "leave out the longest forced win (needs no tablebase)");
  add_json_option(desc);
  const auto vm = parse(
      "facts", "[--tb FILE] [--no-table] [--json] [variant options]",
      "Facts published analyses state, from the rules and a breadth-first search of every "
      "reachable position: the distinct actions (placements named by shape and space, "
      "movements by from and to, as Ai Ai names them) by the rules and as they occur; the "
      "shortest game ending in the placement phase and the shortest ending because a player "
      "cannot move (plies, how many ended positions at that depth, one line); which of Ai Ai's "
      "mirrorings are symmetries of the printed board; White's fastest forced win when Black may "
      "only cover White's last piece (and plays any move when it cannot); and, from the tablebase, "
      "the longest "
      "forced win with a shortest way to it and its principal variation.",
      desc, nullptr, args);
  if (!vm) return 0;
  const Variant v = variant_from(*vm);
  const bool json = vm->count("json") > 0;
  // The table first: a missing or damaged one is refused before the searches.
  std::optional<Tablebase> tb;
  if (!vm->count("no-table")) tb.emplace(open_tablebase(table_path_from(*vm, v), v));
  const GameFacts f = game_facts(Rules(v));
  const auto transforms = printed_board_transforms(v.adjacency);
  const std::optional<CoverWin> cover = fastest_win_against_cover(Rules(v));
  std::optional<LongestWin> win;
  if (tb) win = longest_forced_win(*tb);
  if (json) {
    Json o = game_facts_json(f);
    o["board_transforms"] = board_transforms_json(transforms);
    o["win_against_cover"] = cover ? cover_win_json(*cover) : Json(nullptr);
    o["longest_win"] = win ? longest_win_json(*win) : Json(nullptr);
    print_json(o);
    return 0;
  }
  const ActionCount& a = f.actions;
  std::cout << variant_description(v) << ": " << f.reachable << " reachable positions\n";
  std::cout << "actions by the rules: " << a.placements_by_rules + a.movements_by_rules << " ("
            << a.placements_by_rules << " placements, " << a.movements_by_rules << " movements)\n";
  std::cout << "actions occurring:    " << a.placements_occurring + a.movements_occurring << " ("
            << a.placements_occurring << " placements, " << a.movements_occurring << " movements); "
            << a.coloured_occurring << " with the colour told apart\n";
  for (const auto& [name, g] :
       {std::pair{"ending in the placement phase", f.shortest_placement_end},
        std::pair{"ending with no legal move", f.shortest_no_move}}) {
    std::cout << "shortest game " << name << ": ";
    if (!g)
      std::cout << "none\n";
    else
      std::cout << g->plies << " plies (" << g->positions
                << " ended positions at that depth), e.g. " << moves_text(g->line) << "\n";
  }
  for (const BoardTransform& t : transforms)
    std::cout << t.name << ": "
              << (!t.perm      ? "maps spaces off the board's spaces: not a symmetry"
                  : t.symmetry ? "a symmetry of the board"
                               : "maps spaces to spaces, "
                                 "but not a symmetry")
              << "\n";
  std::cout << "White's fastest forced win when Black only covers White's last piece: ";
  if (cover)
    std::cout << cover->plies << " plies, e.g. " << moves_text(cover->line) << "\n";
  else
    std::cout << "none within 16 plies\n";
  if (win) {
    std::cout << "longest forced win: " << outcome_text(win->value) << " from "
              << format_position(win->position) << "\n  reached by " << moves_text(win->reach)
              << "\n  line " << moves_text(win->line) << "\n";
    if (win->value_after_reach)
      std::cout << "  value after that way there (rule 3): "
                << outcome_text(*win->value_after_reach) << "\n";
  }
  return 0;
}

}  // namespace fano::cli
