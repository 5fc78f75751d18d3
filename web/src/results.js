// @ts-check
// ---- results --------------------------------------------------------------
export function valueText(category, plies) {
  if (category === "draw" || category == null) return "draw";
  return plies == null ? category : category + " in " + plies;
}
export function moverResult(m) {  // API move entry (side to move after it) -> the mover's result
  if (m.category === "loss") return { cat: "win", text: m.plies == null ? "win" : "win in " + (m.plies + 1) };
  if (m.category === "win") return { cat: "loss", text: m.plies == null ? "loss" : "loss in " + (m.plies + 1) };
  return { cat: "draw", text: "draw" };
}
export var RANK = { loss: 0, draw: 1, win: 2 };
export function better(a, b) {
  if (RANK[a.cat] !== RANK[b.cat]) return RANK[a.cat] > RANK[b.cat];
  if (a.cat === "win") return a.plies < b.plies;
  if (a.cat === "loss") return a.plies > b.plies;
  return false;
}
export function moverResultFull(m) {
  var r = moverResult(m);
  r.plies = m.plies == null ? 0 : m.plies + 1;
  return r;
}
