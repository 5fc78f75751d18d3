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
/** The head of a reading's answers (api_head in the schema): the reading and the game asked about. */
export interface ApiHead {
  variant: string;
  stack_cap: 2 | 3;
  adjacency: "board" | "projective";
  /** present for rules other than the rulebook's lines and material */
  line_rule?: "colour-or-shape" | "colour";
  circles?: 1 | 2 | 3;
  triangles?: 1 | 2 | 3;
  rules?: string;
  start: string;
  moves_played: string[];
}
/** GET /api/v2/{variant}?moves=...: a position's report (`fano query --json`'s) and the game's head. */
export interface PositionAnswer extends ApiHead {
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
  /** a puzzle keeps a win or a draw */
  value: "win" | "draw";
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
  variant: string;
  classes: number;
  draw_classes: number;
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
  position_after: string;
  before: ReviewValue;
  after: ReviewValue;
  repeats: boolean;
  mistake: boolean;
  decisive: boolean;
  mark: "??" | "?" | null;
  /** the moves that keep `before`, best first; null unless a mistake */
  best: string[] | null;
  /** the principal variation after the move played; null unless a mistake */
  refutation: string[] | null;
  refutation_end: GameEnd | null;
  /** the words after the refutation's moves: how it ends, "... and the game is drawn", or "..." */
  refutation_close: string | null;
  text: string | null;
}
/** GET /api/v2/{variant}/review?moves=...[&position=P]: each side's mistakes. */
export interface ReviewAnswer extends ApiHead {
  /** the game's end, or the value of its last position for the side to move */
  end: {
    over: boolean;
    text: string;
    winner: "white" | "black" | null;
    to_move: "white" | "black";
    value: Value;
    plies: number | null;
    game_over: GameEnd | null;
  };
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

/** How the URL follows a change of the game: a new history entry, this one replaced, or as it is. */
export type HistoryWay = "push" | "replace" | "none";
/** A legal move's shape in the supply (a placement's). */
export type Shape = "circle" | "triangle";
/** A side's player: "human", or a level's name (GET /api/v2/players; "engine": the perfect engine). */
export type PlayerName = string;
/** What the player has picked on the board: a shape of the supply (to place) or a piece (to move). */
export type Selection = { kind: "shape"; shape: Shape } | { kind: "piece"; from: number };
/** A space's centre in the board picture's coordinates. */
export interface Point {
  x: number;
  y: number;
}
/** A game kept while another reading is shown (choosing it again returns to it). */
export interface KeptGame {
  line: string[];
  pos: number;
  start: string | null;
}
/** The review of the game shown, as the page holds it: asked for, in hand, or refused. */
export interface ReviewShown {
  /** the game reviewed (ctrl.js gameKey) */
  key: string;
  state: "loading" | "shown" | "unavailable" | "error";
  /** Hints were used in that game against the computer */
  hintsUsed: boolean;
  answer: ReviewAnswer | null;
  message: string;
}
/** A solve in the page, as bench/static-explorer.py and the browser tests read it. */
export interface SolveTiming {
  /** as the page waited for it */
  ms: number;
  /** the solve itself, timed in C++ */
  engine_ms: number;
  classes: number;
  where: Engine["where"];
  stages: unknown;
  memory_bytes: number;
}
/** The page's measurements (window.fanoStats): read by bench/static-explorer.py and the browser tests. */
export interface PageStats {
  solve: Record<string, SolveTiming>;
  firstAnalysed: number | null;
  engineLoaded: number | null;
  workerBytes?: number;
  /** each position shown: its reading, its ply and the ms it took */
  shows: { variant: string; ply: number; ms: number; engine_ms: number; panels: Record<string, number> }[];
  /** each computer reply: its move from the route, then its position shown (ms, past the delay) */
  replies: { move_ms: number; shown_ms: number }[];
}
/** The page's one state (state.js S): written by the controller (ctrl.js) alone. */
export interface State {
  /** the readings the engine can play, in order */
  variants: string[];
  /** every reading by name (GET /api/v2/rules) */
  variantInfo: Record<string, Reading>;
  /** the reading in play ("" before the first is shown) */
  variant: string;
  /** the game's moves, including those after the cursor (greyed, redo-able) */
  line: string[];
  /** moves of `line` played on the board */
  pos: number;
  /** the API's answers for the prefixes 0..pos */
  answers: PositionAnswer[];
  /** the answers for every prefix of `line` (0..line.length) */
  all: PositionAnswer[];
  /** answers[pos]: the position shown (null before the first) */
  data: PositionAnswer | null;
  /** the engine's picture of the position shown (SVG text) */
  svgText: string;
  /** that picture in the page, and its spaces' centres by number */
  svg: SVGSVGElement | null;
  spaces: Record<string, Point>;
  /** the space the keyboard is on, kept across the board's redraw */
  focusSpace: number | null;
  selection: Selection | null;
  /** a request is on its way: the game waits */
  busy: boolean;
  /** the computer is about to move: the player waits */
  thinking: boolean;
  /** the request in flight (an answer for an older one is dropped) */
  token: number;
  /** the game's start position (the editor's, #position=); null: the empty board */
  start: string | null;
  /** the computer players' seed (#seed=) */
  seed: number;
  /** the computer players wait for Step */
  paused: boolean;
  /** the board turned half a turn */
  flipped: boolean;
  /** the editor's piece in hand ("C", "T", "c", "t", "-": take off), or null */
  edit: string | null;
  editToken: number;
  players: Record<Colour, PlayerName>;
  /** the game against the computer, or null */
  match: Match | null;
  /** the review of the game shown, or null */
  review: ReviewShown | null;
  /** the end's note hidden for this game (gameKey), else "" */
  endHidden: string;
  /** the open puzzle, or null */
  puzzle: PuzzleAnswer | null;
  /** its solution shown (it counts as failed) */
  puzzleShown: boolean;
  /** the players before a puzzle made both sides the player's, for New game */
  playersBeforePuzzle: Record<Colour, PlayerName> | null;
  /** the analysis panels: true shown, false hidden, null: hidden while a computer plays */
  analysis: boolean | null;
  engineTimer: number | null;
  /** reading -> the game kept when another reading was chosen */
  games: Record<string, KeptGame>;
  /** the WebAssembly engine (static mode), or null (over HTTP) */
  engine: Engine | null;
  /** the last failure's words (a link that cannot be shown says them) */
  lastError: string;
}

/** The page's elements whose kind matters to the code, by id (index.html): $(id) is typed by it. */
export interface PageElements {
  "variant": HTMLSelectElement;
  "white-player": HTMLSelectElement;
  "black-player": HTMLSelectElement;
  "play-level": HTMLSelectElement;
  "puzzle-grade": HTMLSelectElement;
  "move-input": HTMLInputElement;
  "position-input": HTMLInputElement;
  "share": HTMLInputElement;
  "play-side-white": HTMLInputElement;
  "record-input": HTMLTextAreaElement;
  "editor": HTMLDetailsElement;
  "stats": HTMLDetailsElement;
  "legend": HTMLDetailsElement;
  "play-dialog": HTMLDialogElement;
  "analysis-toggle": HTMLButtonElement;
  "nav-start": HTMLButtonElement;
  "nav-back": HTMLButtonElement;
  "nav-forward": HTMLButtonElement;
  "nav-end": HTMLButtonElement;
  "undo": HTMLButtonElement;
  "redo": HTMLButtonElement;
  "play-best": HTMLButtonElement;
  "step": HTMLButtonElement;
  "pause": HTMLButtonElement;
  "review-open": HTMLButtonElement;
  "puzzle-solution": HTMLButtonElement;
}
/** $(id): the page's element with this id, of its kind when PageElements names it. */
export interface ById {
  <K extends keyof PageElements>(id: K): PageElements[K];
  (id: string): HTMLElement;
}
/** The Blob worker's global scope, as its few lines of protocol use it. */
export interface WorkerScope {
  postMessage(message: unknown): void;
  onmessage: ((e: MessageEvent) => void) | null;
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
    fanoStats: PageStats;
    /** the engine's worker started by index.html's head, and the first thing it said (ready, failed or an error) */
    fanoEarlyWorker?: { worker: Worker; first: MessageEvent | ErrorEvent | null };
  }
  /** an Error the page annotates: which request failed and how */
  interface Error {
    status?: number;
    answered?: boolean;
    refused?: boolean;
  }
}
