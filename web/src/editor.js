// @ts-check
import { positionOf } from "./api.js";
import { dropEditPiece, endMatch, go } from "./ctrl.js";
import { valueText } from "./results.js";
import { sideName } from "./seen.js";
import { $, S, cutLong, errText } from "./state.js";

// ---- the position editor: the text is edited here, judged by the API ----------
export function editorText() {
  var t = $("position-input").value.trim();
  return t || (S.data ? S.data.position : "-/-/-/-/-/-/- w");
}
export function editSpace(space) {
  var parts = editorText().replace(/_/g, " ").split(" ");
  var stacks = parts[0].split("/");
  if (stacks.length !== 7) { editorStatus("The position needs 7 stacks to edit by clicking.", true); return; }
  var st = stacks[space - 1] === "-" ? "" : stacks[space - 1];
  st = S.edit === "-" ? st.slice(0, -1) : st + S.edit;
  stacks[space - 1] = st || "-";
  $("position-input").value = stacks.join("/") + " " + (parts[1] || "w");
  checkPosition();
}
export function editorStatus(msg, bad) {
  $("editor-status").textContent = cutLong(msg);
  $("editor-status").className = bad ? "error" : "";
}
// Legal? Reached by a game? The API says (400: not legal, 422: no game reaches it).
export function checkPosition() {
  var text = editorText(), token = ++S.editToken;
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
