// @ts-check
// The first screen: what the solution says about the reading in play (read
// from the engine's answer for the start), "How to play" (the rules text and
// small boards the engine draws), and the buttons a newcomer needs: play the
// computer, a new game, the link to this game.
import { boardSvg, position } from "./api.js";
import { newGame, setAnalysis } from "./ctrl.js";
import { openPlayDialog } from "./match.js";
import { analysisShown, gameEnd, matchOn, sideName } from "./seen.js";
import { $, S, count, errText, status } from "./state.js";

/** @typedef {import("./types").PositionAnswer} PositionAnswer */

// The small boards of "How to play": games of the standard rules, each drawn
// by the engine (its SVG route) at the position named; a game's end is
// captioned in the engine's own words (its answer's game_over), after the
// words `lead` when given.
/** @type {{moves: string, caption: string | null, lead?: string}[]} */
var EXAMPLES = [
  { moves: "C1", caption: "White places a circle on space 1." },
  { moves: "C1,t1", caption: "Black stacks a triangle on it: only the top piece counts." },
  { moves: "C1,t3,T2,c4,T1,c3,C5,t5,1-7", caption: "All eight placed, White moves the top piece of 1 to 7." },
  { moves: "C1,c3,T2,c6,C4", caption: null, lead: "After C4: " },
  // every white piece covered when the moving starts: White cannot move
  { moves: "C3,t3,T5,c5,C6,t6,T7,c7", caption: null, lead: "After c7 Black covers each white piece, and White, to move, has none on top: " }
];

/** What the solution says about the start of the reading in play, from the answer for it. */
export function renderSolutionSays() {
  var start = S.answers && S.answers[0];
  var el = $("solution-says");
  if (!start || S.start || !analysisShown()) { el.textContent = ""; return; }
  /** @type {PositionAnswer} */
  var a = start;
  if (a.game_over) { el.textContent = ""; return; }
  var losing = a.moves.filter(function (m) { return m.result === "loss"; });  // results for the mover
  var winning = a.moves.filter(function (m) { return m.result === "win"; });
  var text = "The solution of " + S.variant + ": with perfect play the start is " +
    (a.value === "draw" ? "a draw" : "a " + a.value + " for " + sideName(a.to_move) + " in " + a.plies + " plies") + ". ";
  if (winning.length) text += count(winning.length) + " of the " + count(a.moves.length) + " first moves win (" +
    winning.map(function (m) { return m.move; }).join(", ") + "). ";
  if (losing.length) text += count(losing.length) + " of the " + count(a.moves.length) + " first moves lose (" +
    losing.map(function (m) { return m.move; }).join(", ") + ").";
  el.textContent = text.trim();
}

function loadHow() {
  var box = $("how-figures");
  if (box.childNodes.length) return Promise.resolve();
  var reading = S.variantInfo && S.variantInfo[S.variant];
  $("how-rules").textContent = reading && reading.rules_text ? reading.rules_text.join(" ") : "";
  return Promise.all(EXAMPLES.map(function (ex) {
    var moves = ex.moves.split(",");
    return Promise.all([boardSvg("standard", moves, null),
                        ex.caption ? Promise.resolve(null) : position("standard", moves, null)]);
  })).then(function (all) {
    all.forEach(function (r, i) {
      var fig = document.createElement("figure");
      var mini = document.createElement("div");
      mini.className = "mini";
      var svg = new DOMParser().parseFromString(r[0], "image/svg+xml").documentElement;
      svg.removeAttribute("width");
      svg.removeAttribute("height");
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", "the board after " + EXAMPLES[i].moves.split(",").join(", "));
      mini.appendChild(document.importNode(svg, true));
      var cap = document.createElement("figcaption");
      /** @type {PositionAnswer | null} */
      var a = r[1];
      cap.textContent = EXAMPLES[i].caption || (a && a.game_over ? (EXAMPLES[i].lead || "") + a.game_over.text + "." : "");
      if (a && a.game_over) fig.setAttribute("data-game-over", a.game_over.reason);
      fig.appendChild(mini);
      fig.appendChild(cap);
      box.appendChild(fig);
    });
  }, function (e) { status("How to play: " + errText(e), true); });
}

export function wireIntro() {
  $("how-open").addEventListener("click", function () {
    var how = $("how");
    how.hidden = !how.hidden;
    $("how-open").setAttribute("aria-expanded", how.hidden ? "false" : "true");
    if (!how.hidden) loadHow();
  });
  $("new-game").addEventListener("click", function () {
    if (S.busy) return;
    // a game against the computer in progress: its dialog, which asks before discarding it
    if (matchOn() && S.line.length && !gameEnd()) openPlayDialog(); else newGame();
  });
  $("play-computer").addEventListener("click", openPlayDialog);
  $("analysis-toggle").addEventListener("click", function () { setAnalysis(!analysisShown()); });
  $("copy-link").addEventListener("click", function () {
    var done = function () { status("The link to this game is copied."); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(location.href).then(done, function () {
        $("share").select();
        status("Copy the selected link (Ctrl+C).");
      });
    } else {
      $("share").select();
      status("Copy the selected link (Ctrl+C).");
    }
  });
}
