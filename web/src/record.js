// @ts-check
// A game record: the moves played as text (copied, downloaded) and a pasted
// record loaded. The text names the reading and the start when it is not the
// empty board; the engine judges every move when the record is loaded.
import { go, keepGame } from "./ctrl.js";
import { plyLabel } from "./results.js";
import { $, S, status } from "./state.js";

/** The game shown as a record: its reading, its start (when not the empty board), its numbered moves. */
export function recordText() {
  var head = '[Variant "' + S.variant + '"]\n' + (S.start ? '[Position "' + S.start + '"]\n' : "");
  return head + S.line.map(function (m, i) { return plyLabel(i + 1) + " " + m; }).join(" ") + "\n";
}
/** A record read back: {variant, start, moves}; the variant and start default to those in play.
 *  @param {string} text */
export function parseRecord(text) {
  var variant = S.variant, start = /** @type {string | null} */ (null);
  /** @type {string[]} */
  var moves = [];
  text.split(/\r?\n/).forEach(function (line) {
    var tag = /^\s*\[(\w+)\s+"([^"]*)"\]\s*$/.exec(line);
    if (tag) {
      if (tag[1] === "Variant") variant = tag[2];
      if (tag[1] === "Position") start = tag[2];
      return;
    }
    line.split(/[\s,]+/).forEach(function (tok) {
      var t = tok.replace(/^\d+\.+/, "");  // a ply's number ("3." or "3.C7")
      if (t) moves.push(t);
    });
  });
  return { variant: variant, start: start, moves: moves };
}
export function copyRecord() {
  var text = recordText();
  $("record-input").value = text.trim();
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(function () { status("The game's moves are copied."); },
      function () { $("record-input").select(); status("Copy the selected record (Ctrl+C)."); });
  } else {
    $("record-input").select();
    status("Copy the selected record (Ctrl+C).");
  }
}
export function downloadRecord() {
  var a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([recordText()], { type: "text/plain" }));
  a.download = "fano-" + S.variant + "-" + S.line.length + "-plies.txt";
  document.body.appendChild(a);
  a.click();
  a.remove();
}
/** The pasted record loaded: its moves played up to the first the engine refuses (said). */
export function loadRecord() {
  if (S.busy) return;
  var r = parseRecord($("record-input").value);
  if (!r.moves.length) { status("No moves in the record.", true); return; }
  if (S.variants.indexOf(r.variant) < 0) { status("The record's variant '" + r.variant + "' is not offered here.", true); return; }
  keepGame();
  go(r.variant, r.moves, r.moves.length, "push", { loadPrefix: true, start: r.start, source: "record" });
}
