// The URL to the game: a link, Back and Forward.
// @ts-check
import { ensureSolved } from "./engine.js";
import { fromLink, go, joinMatch, keepGame, loadPuzzle } from "./ctrl.js";
import { PLAYERS } from "./seen.js";
import { S } from "./state.js";
import { parseHash } from "./url.js";

// The URL names the game (initial load, Back and Forward, a pasted link).
/** @param {import("./types").HistoryWay} how @returns {Promise<boolean | void>} */
export function fromHash(how) {
  var h = parseHash();
  var skipped = h.problems.length ? "The link's " + h.problems.join("; ") + ": left out." : null;
  if (S.variants.indexOf(h.variant) < 0) {
    return go(S.variants[0], [], 0, "replace", { start: null, note: (skipped ? skipped + " " : "") +
      "The link's variant '" + h.variant + "' is not available here (" +
      (S.variants.length <= 6 ? S.variants.join(", ") : "see the variant list") + "): showing " + S.variants[0] +
      (h.line.length ? " from the start, without the link's moves" : "") + "." });
  }
  fromLink("", h.seed);
  if (h.puzzle != null && (!S.puzzle || S.puzzle.seed !== h.puzzle || S.puzzle.asked !== h.grade ||
                            S.variant !== h.variant)) {
    // a puzzle link: the puzzle's position (asked of the API) is the game's start
    var puzzleSeed = h.puzzle;
    return ensureSolved(h.variant).then(function () {
      fromLink(h.variant, h.seed);
      return loadPuzzle(puzzleSeed, h.line, h.at, how || "none", h.grade, skipped);
    });
  }
  if (S.data && h.variant === S.variant && h.line.join(",") === S.line.join(",") && h.at === S.pos &&
      h.start === S.start) return Promise.resolve();
  if (S.variant && S.variant !== h.variant) keepGame();
  var play = h.play ? linkMatch(h) : null;
  if (play && play.note) skipped = (skipped ? skipped + " " : "") + play.note;
  // (the computer moves on only in a game the link has just opened: Back and Forward within one move nothing)
  return go(h.variant, h.line, h.at, how || "none", { loadPrefix: true, start: h.start, note: skipped,
                                                      engine: !!(play && play.joined) })
    .then(function (/** @type {boolean} */ ok) {
      // a link the engine refuses (its position, its reading): said, and the empty board shown
      if (!ok && !S.data)
        return go(h.start ? h.variant : S.variants[0], [], 0, "replace", { start: null, note:
          (h.start ? "The link's position '" + h.start + "' cannot be explored: "
                   : "The link cannot be shown: ") + S.lastError });
      return ok;
    });
}

// A link made during a game against the computer (play=, level=): the same
// game, in play, hints off (its values stay out of sight as in the tab it
// came from). A level this page does not offer: the weakest it offers, said.
/** @param {ReturnType<typeof parseHash>} h @returns {{note: string | null, joined: boolean}} */
function linkMatch(h) {
  var human = /** @type {"white" | "black"} */ (h.play);
  var levels = PLAYERS.filter(function (p) { return p.name !== "human"; });
  var known = levels.some(function (p) { return p.name === h.level; });
  var level = known ? h.level : (levels.length ? levels[levels.length - 1].name : h.level);
  var m = S.match;
  var joined = !(m && m.human === human && m.level === level && m.variant === h.variant && m.start === h.start);
  if (joined) joinMatch(human, level, h.variant, h.start);
  return { note: known ? null : "The link's level '" + h.level + "' is not offered here: playing " + level + ".",
           joined: joined };
}
