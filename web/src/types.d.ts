// The shapes of the JSON the page reads (from `fano serve` or the same Api in
// WebAssembly), and the page's own state. Checked by `tsc` (npm run check,
// the ctest Page.TypeCheck): a field read under another name fails the check.

/** GET /api/v2/rules: the rules options' description and every reading. */
export interface RulesOption {
  key: string;
  flag: string;
  label: string;
  help: string;
  values: { value: string | number; help: string }[];
  default: string | number;
  name_part: string;
  /** part of the base name (else a name suffix) */
  base: boolean;
}
export interface Reading {
  name: string;
  slug: string;
  description: string;
  options: Record<string, string | number>;
  /** the rules in sentences, from C++ (rules_text) */
  rules_text: string[];
  /** a table for it is loaded (the static app: solved in this page) */
  served: boolean;
  /** the static app only: what solving it in the page asks of the device */
  page_solve?: { heavy: boolean; note: string | null };
  /** the page's grouping: every non-base option at its default */
  named?: boolean;
}
export interface RulesCatalog {
  options: RulesOption[];
  readings: Reading[];
}

export type Value = "win" | "draw" | "loss";
export interface GameEnd {
  reason: string;
  line: number[] | null;
  loser: "white" | "black" | null;
  text: string;
}
/** A legal move as the position route rates it. */
export interface RatedMove {
  move: string;
  from: number | null;
  to: number;
  shape: "circle" | "triangle" | null;
  position: string;
  category: Value;
  plies: number | null;
  repeats: boolean;
  trap: { errors: number; choices: number } | null;
}
/** GET /api/v1/{variant}?moves=...: a position and its rated moves. */
export interface PositionAnswer {
  variant: string;
  start: string;
  moves_played: string[];
  position: string;
  to_move: "white" | "black";
  category: Value;
  plies: number | null;
  table_category: Value;
  table_plies: number | null;
  game_over: GameEnd | null;
  history_note: string | null;
  supply: Record<"white" | "black", { circle: number; triangle: number }>;
  moves: RatedMove[];
  engine_move: string | null;
}

/** The engine in WebAssembly: the C functions by name, each answering JSON text. */
export interface Engine {
  where: "worker" | "page";
  call(fn: string, args: string[]): Promise<string>;
}

declare global {
  /** fano_web.js (emscripten's factory) */
  function createFano(): Promise<{ ccall(fn: string, ret: string, types: string[], args: string[]): string }>;
  interface Window {
    /** read by bench/static-explorer.py and the browser tests */
    fanoStats: any;
  }
  /** an Error the page annotates: which request failed and how */
  interface Error {
    status?: number;
    answered?: boolean;
    refused?: boolean;
  }
}
