// @ts-check
import { positionOf } from "./api.js";
import { dropEditPiece, endMatch, go, nextEditToken } from "./ctrl.js";
import { valueText } from "./results.js";
import { sideName } from "./seen.js";
import { $, S, cutLong, errText } from "./state.js";

// ---- the position editor: the text is edited here, judged by the API ----------
export function editorText() {
  var t = $("position-input").value.trim();
  return t || (S.data ? S.data.position : "-/-/-/-/-/-/- w");
}
// A click with the editor's piece in hand: the stack of `space` grows by that
// piece (or loses its top), the side to move follows from the engine where
// only one side is possible, and the board shows the edit at once (when the
// engine accepts the position; else the board shows the edit as a draft, see
// board.js, and the engine's words say why).
/** @param {number} space @returns {Promise<string | null>} the text to show as a draft, or null */
export function editSpace(space) {
  var parts = editorText().replace(/_/g, " ").split(" ");
  var stacks = parts[0].split("/");
  if (stacks.length !== 7) { editorStatus("The position needs 7 stacks to edit by clicking.", true); return Promise.resolve(null); }
  var st = stacks[space - 1] === "-" ? "" : stacks[space - 1];
  st = S.edit === "-" ? st.slice(0, -1) : st + S.edit;
  stacks[space - 1] = st || "-";
  var board = stacks.join("/"), token = nextEditToken();
  $("position-input").value = board + " " + (parts[1] || "w");
  return possibleSides(board).then(function (sides) {
    if (token !== S.editToken) return null;
    // the counts decide: the one side the engine accepts is to move
    if (sides.length === 1) $("position-input").value = board + " " + sides[0];
    var checked = checkPosition(), current = S.editToken;
    return checked.then(function (a) {
      // refused (no game reaches it, or not legal): the board shows the edit all the same
      if (!a) return current === S.editToken ? editorText() : null;
      if (sides.length === 1) editorStatus($("editor-status").textContent + " (" + sideName(sides[0] === "w" ? "white" : "black") +
                                           " to move: the only side the pieces allow)");
      return go(S.variant, [], 0, "replace", { start: a.position }).then(function () { return null; });
    });
  });
}
// The sides that may be to move in the position `board` (the stacks): those
// the engine does not refuse as illegal (a legal position no game reaches, 422, counts as possible).
/** @param {string} board @returns {Promise<string[]>} */
function possibleSides(board) {
  return Promise.all(["w", "b"].map(function (side) {
    return positionOf(S.variant, board + " " + side).then(function () { return side; },
      function (e) { return e.status === 422 ? side : null; });
  })).then(function (ok) { return ok.filter(function (s) { return s != null; }).map(String); });
}
/** The editor's verdict line. @param {string} msg @param {boolean} [bad] */
export function editorStatus(msg, bad) {
  $("editor-status").textContent = cutLong(msg);
  $("editor-status").className = bad ? "error" : "";
}
// Legal? Reached by a game? The API says (400: not legal, 422: no game reaches it).
export function checkPosition() {
  var text = editorText(), token = nextEditToken();
  return positionOf(S.variant, text).then(function (a) {
    if (token !== S.editToken) return null;
    $("editor-status").setAttribute("data-verdict", "ok");
    editorStatus("Legal, and games reach it: " + (a.game_over ? a.game_over.text : sideName(a.to_move) + " to move, " +
                 valueText(a.value, a.plies)) + ".");
    return a;
  }, function (e) {
    if (token !== S.editToken) return null;
    $("editor-status").setAttribute("data-verdict", e.status === 422 ? "unreachable" : "illegal");
    // The engine's message already says which (e.g. "position '...' is legal but no game reaches it: ...").
    editorStatus((e.status === 422 ? "" : "Not a legal position: ") + errText(e), true);
    return null;
  });
}
export function explorePosition() {
  var text = editorText().replace(/_/g, " ");
  return checkPosition().then(function (a) {
    if (!a) return;
    // the editor's piece is put down: a click on the board plays again
    dropEditPiece();
    endMatch();
    document.querySelectorAll("#palette button[data-edit]").forEach(function (x) { x.setAttribute("aria-pressed", "false"); });
    go(S.variant, [], 0, "push", { start: text === "-/-/-/-/-/-/- w" ? null : a.position });
  });
}
