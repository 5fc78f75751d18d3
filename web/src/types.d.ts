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
/** A legal move as the position route rates it (rated_move in schema/fano.schema.json). */
export interface RatedMove {
  move: string;
  /** the space a movement leaves; null for a placement */
  from: number | null;
  to: number;
  /** a placement's shape; null for a movement */
  shape: "circle" | "triangle" | null;
  position: string;
  /** for the player making the move */
  result: Value;
  plies: number | null;
  repeats: boolean;
  /** a drawing move that does not repeat: the opponent's replies that lose, of those she chooses among */
  trap: { errors: number; choices: number } | null;
}
/** GET /api/v2/{variant}?moves=...: a position's report (`fano query --json`'s) and the game's head. */
export interface PositionAnswer {
  variant: string;
  stack_cap: number;
  adjacency: string;
  start: string;
  moves_played: string[];
  position: string;
  to_move: "white" | "black";
  /** for the side to move, under the game's history */
  value: Value;
  plies: number | null;
  table_value: Value;
  table_plies: number | null;
  game_over: GameEnd | null;
  /** best first */
  moves: RatedMove[];
  engine_move: string | null;
  /** the principal variation from here */
  pv: string[];
  pv_end: GameEnd | null;
  pv_continues_drawn: boolean;
  history_note: string | null;
  supply: Record<"white" | "black", { circle: number; triangle: number }>;
}
/** GET /api/v2/players: a level a person may choose an opponent from (strongest first).
 *  rating, interval and description come with the measured levels. */
export interface PlayerLevel {
  name: string;
  label: string;
  rating?: number;
  interval?: [number, number];
  description?: string;
}
/** GET /api/v2/players: a list (the measured levels) or {players: [...]} (before them). */
export type PlayersAnswer = PlayerLevel[] | { players: PlayerLevel[] };
/** GET /api/v2/{variant}/player?player=NAME&seed=S&moves=...: the player's move. */
export interface PlayerMoveAnswer {
  move: string;
}
/** GET /api/v2/{variant}/puzzle?seed=S[&grade=G]: one move alone keeps the value. */
export interface PuzzleAnswer {
  variant: string;
  seed: number;
  position: string;
  to_move: "white" | "black";
  value: Value;
  plies: number | null;
  moves: number;
  tempting: number;
  trap_plies: number;
  difficulty: "easy" | "medium" | "hard";
  solution: string;
  /** the page's own: the grade asked for ("" any) */
  asked?: string;
}
/** GET /api/v2/{variant}/stats: the reachable positions by value and plies. */
export interface StatsAnswer {
  classes: number;
  positions: { reachable: number; win: number; draw: number; loss: number };
  by_plies: { plies: number; win: number; loss: number }[];
  longest_wins: { position: string; value: Value; plies: number | null; line: string[] }[];
}
/** A mover's value (before) or a move's result (after) in a review. */
export interface ReviewValue {
  result: Value;
  plies: number | null;
}
/** One move of a reviewed game. */
export interface ReviewPly {
  ply: number;
  mover: "white" | "black";
  move: string;
  position: string;
  before: ReviewValue;
  after: ReviewValue;
  mistake: boolean;
  decisive: boolean;
  /** the moves that keep `before`, best first; null unless a mistake */
  best: string[] | null;
  /** the principal variation after the move played; null unless a mistake */
  refutation: string[] | null;
  refutation_close?: string | null;
  text: string | null;
}
/** GET /api/v2/{variant}/review?moves=...[&position=P]: each side's mistakes. */
export interface ReviewAnswer {
  variant: string;
  start: string;
  moves_played: string[];
  end: { over: boolean; text: string; winner: "white" | "black" | null };
  mistakes: { white: number; black: number };
  first_decisive: number | null;
  plies: ReviewPly[];
}
/** The answer of fano_solve (the static app's in-page solve). */
export interface SolveAnswer {
  error?: string;
  seconds: number;
  classes: number;
  stages: unknown;
  memory_bytes: number;
}

export type Colour = "white" | "black";
/** The game against the computer in play (the page's own state). */
export interface Match {
  /** the player's side */
  human: Colour;
  /** the computer's level: a name of GET /api/v2/players */
  level: string;
  /** values shown in this game (the Hints switch) */
  hints: boolean;
  /** Hints were on at some time in this game (the review says so) */
  hintsUsed: boolean;
  start: string | null;
  variant: string;
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
