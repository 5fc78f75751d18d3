// @ts-check
// The game's buttons, drawn from the state: each enabled when it can act.
import { isComputer, matchHides, puzzleHides } from "./seen.js";
import { $, S } from "./state.js";

// The game's buttons: each enabled when it can act.
export function renderControls() {
  if (!S.data) return;
  $("nav-start").disabled = $("nav-back").disabled = S.pos === 0;
  $("nav-forward").disabled = $("nav-end").disabled = S.pos >= S.line.length;
  $("undo").disabled = S.pos === 0;
  $("redo").disabled = S.pos >= S.line.length;
  // the engine's move is an open puzzle's answer, and a hint in a game against the computer
  $("play-best").disabled = $("step").disabled = !S.data.engine_move || puzzleHides() || matchHides();
  // (Step plays the computer's own move at its turn: no hint)
  if (matchHides() && isComputer(S.data.to_move) && !S.thinking) $("step").disabled = false;
  renderPause();
  $("variant").value = S.variant;
}
// Pause acts only while the computer is thinking (and Resume while paused).
export function renderPause() { $("pause").disabled = !(S.thinking || S.paused); }
