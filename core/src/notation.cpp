#include "fano/notation.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <sstream>

#include "fano/game.hpp"

namespace fano {
namespace {

constexpr std::array<char, kPieceKinds> kPieceChars{'C', 'T', 'c', 't'};

std::optional<Piece> piece_from_char(char ch) {
  for (int p = 0; p < kPieceKinds; ++p)
    if (kPieceChars[p] == ch) return Piece(p);
  return std::nullopt;
}

// The length of the UTF-8 character `s` starts with (a lead byte, its
// continuation bytes 10xxxxxx, no overlong form, no surrogate, nothing above
// U+10FFFF, no C1 control: a terminal may take U+009B for CSI), or 0 when it
// starts with none.
std::size_t utf8_length(std::string_view s) {
  const auto c = static_cast<unsigned char>(s[0]);
  if (c < 0x80) return 1;
  const std::size_t n = c >= 0xc2 && c <= 0xdf   ? 2
                        : c >= 0xe0 && c <= 0xef ? 3
                        : c >= 0xf0 && c <= 0xf4 ? 4
                                                 : 0;
  if (n == 0 || n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[k]) & 0xc0) != 0x80) return 0;
  const auto c1 = static_cast<unsigned char>(s[1]);
  if ((c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 >= 0xa0) || (c == 0xf0 && c1 < 0x90) ||
      (c == 0xf4 && c1 >= 0x90) || (c == 0xc2 && c1 < 0xa0))
    return 0;
  return n;
}

std::string shape_name(Shape s) { return s == Shape::kCircle ? "circle" : "triangle"; }

std::string piece_name(Piece p) {
  return colour_name(colour_of(p)) + " " + shape_name(shape_of(p));
}

int parse_space(std::string_view digits, std::string_view token) {
  if (digits.size() != 1 || digits[0] < '1' || digits[0] > '7')
    throw NotationError("move " + quote(token) + ": space " + quote(digits) +
                        " is not a space number 1..7");
  return digits[0] - '1';
}

bool iequals_prefix(std::string_view token, std::string_view word) {
  if (token.size() < word.size()) return false;
  for (size_t i = 0; i < word.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(token[i])) != word[i]) return false;
  return true;
}

}  // namespace

std::string escape_text(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  const auto escape = [&](unsigned char c) {
    out += "\\x";
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  };
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c == '\n')
        out += "\\n";
      else if (c == '\r')
        out += "\\r";
      else if (c == '\t')
        out += "\\t";
      else if (c < 0x20 || c == 0x7f)
        escape(c);
      else
        out.push_back(char(c));
      ++i;
      continue;
    }
    const std::size_t n = utf8_length(text.substr(i));
    if (n == 0) {
      escape(c);
      ++i;
      continue;
    }
    out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

std::string quote(std::string_view text) {
  // Cut at a character's start, so that the kept part stays UTF-8.
  std::size_t keep = text.size();
  if (text.size() > kMaxQuotedBytes)
    for (keep = 0; keep < text.size();) {
      const std::size_t n = std::max<std::size_t>(1, utf8_length(text.substr(keep)));
      if (keep + n > kMaxQuotedBytes) break;
      keep += n;
    }
  std::string out(1, '\'');
  out.append(escape_text(text.substr(0, keep)));
  if (keep == text.size()) {
    out.push_back('\'');
  } else {
    out.append("...' (");
    out.append(std::to_string(text.size()));
    out.append(" bytes)");
  }
  return out;
}

char piece_char(Piece p) { return kPieceChars[int(p)]; }

std::string colour_name(Colour c) { return c == Colour::kWhite ? "white" : "black"; }

std::string format_position(State st) {
  std::string out;
  for (int s = 0; s < kSpaces; ++s) {
    if (s) out += '/';
    if (st.empty(s)) out += '-';
    for (int i = 0; i < st.height(s); ++i) out += piece_char(st.piece_from_bottom(s, i));
  }
  out += st.to_move() == Colour::kWhite ? " w" : " b";
  return out;
}

State parse_position(std::string_view text, const Variant& variant) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  const size_t last = text.find_last_not_of(" \t\r\n");
  if (first == std::string_view::npos) throw NotationError("empty position");
  text = text.substr(first, last - first + 1);
  // '_' may stand for the space (a position in one shell word or a URL): the
  // first blank separates the side to move, else the last '_'.
  size_t space = text.find_first_of(" \t");
  if (space == std::string_view::npos) space = text.rfind('_');
  if (space == std::string_view::npos)
    throw NotationError("position " + quote(text) +
                        " has no side to move: add ' w' or ' b' after the stacks");
  const std::string_view board = text.substr(0, space);
  std::string_view side = text.substr(space + 1);
  side = side.substr(std::min(side.size(), side.find_first_not_of(" \t")));
  if (side != "w" && side != "b")
    throw NotationError("side to move must be 'w' or 'b', got " + quote(side));

  // No allocation on the good path (fano query --batch parses millions).
  std::array<std::string_view, kSpaces> stacks;
  size_t count = 0, start = 0;
  while (true) {
    const size_t slash = board.find('/', start);
    if (count < kSpaces) stacks[count] = board.substr(start, slash - start);
    ++count;
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  if (count != kSpaces)
    throw NotationError("expected 7 stacks separated by '/', got " + std::to_string(count) +
                        " in " + quote(board));

  State st;
  std::array<int, kPieceKinds> counts{};
  for (int s = 0; s < kSpaces; ++s) {
    const std::string_view stack = stacks[s];
    const auto where = [&] { return "stack " + std::to_string(s + 1) + " " + quote(stack); };
    if (stack.empty()) throw NotationError(where() + " is empty: write '-' for an empty stack");
    if (stack == "-") continue;
    if (static_cast<int>(stack.size()) > variant.stack_cap)
      throw NotationError(where() + " holds " + std::to_string(stack.size()) +
                          " pieces, over the stack cap of " + std::to_string(variant.stack_cap));
    for (char ch : stack) {
      const auto p = piece_from_char(ch);
      if (!p)
        throw NotationError(where() + ": unknown character " + quote(std::string(1, ch)) +
                            " (pieces are C T c t, '-' for an empty stack)");
      if (st.info(s).kinds >> int(*p) & 1)
        throw NotationError(where() + " holds two " + piece_name(*p) +
                            "s: the stacking rule forbids identical pieces in a stack");
      st = st.with_pushed(s, *p);
      if (++counts[int(*p)] > variant.copies(int(shape_of(*p))))
        throw NotationError(std::to_string(counts[int(*p)]) + " " + piece_name(*p) +
                            "s on the board: each player has only " +
                            std::to_string(variant.copies(int(shape_of(*p)))));
    }
  }
  const int white = counts[0] + counts[1], black = counts[2] + counts[3];
  const Colour to_move = side == "w" ? Colour::kWhite : Colour::kBlack;
  if (white + black < variant.total_pieces()) {
    if (white != black && white != black + 1)
      throw NotationError("White has placed " + std::to_string(white) + " and Black " +
                          std::to_string(black) +
                          " pieces: in the placement phase White leads by at most one");
    const Colour expected = white == black ? Colour::kWhite : Colour::kBlack;
    if (to_move != expected)
      throw NotationError(std::string("side to move ") + quote(side) + " is inconsistent: White " +
                          std::to_string(white) + ", Black " + std::to_string(black) +
                          " placed, so " + colour_name(expected) +
                          " is to move in the placement phase");
  }
  return st.with_to_move(to_move);
}

bool is_valid_position(State st, const Variant& variant) {
  if (st.code >> (kSideBit + 1)) return false;
  for (int s = 0; s < kSpaces; ++s)
    if (!st.info(s).valid || st.height(s) > variant.stack_cap) return false;
  const unsigned counts = st.kind_counts();
  int white = 0, black = 0;
  for (int p = 0; p < kPieceKinds; ++p) {
    const int n = State::count_of(counts, Piece(p));
    if (n > variant.copies(int(shape_of(Piece(p))))) return false;
    (p < 2 ? white : black) += n;
  }
  if (white + black < variant.total_pieces()) {
    if (white != black && white != black + 1) return false;
    return st.to_move() == (white == black ? Colour::kWhite : Colour::kBlack);
  }
  return true;
}

MoveText parse_move_text(std::string_view token) {
  MoveText mt;
  if (token.empty()) throw NotationError("empty move");
  const size_t dash = token.find('-');
  if (dash != std::string_view::npos) {
    mt.placement = false;
    const std::string_view a = token.substr(0, dash), b = token.substr(dash + 1);
    if (a.empty() || b.empty())
      throw NotationError("move " + quote(token) + ": a movement is written from-to, like 7-5");
    mt.from = parse_space(a, token);
    mt.to = parse_space(b, token);
    if (mt.from == mt.to)
      throw NotationError("move " + quote(token) + ": a piece must move to another space");
    return mt;
  }
  std::string_view digits;
  if (iequals_prefix(token, "round")) {
    mt.shape = Shape::kCircle, digits = token.substr(5);
  } else if (iequals_prefix(token, "triangle")) {
    mt.shape = Shape::kTriangle, digits = token.substr(8);
  } else if (token[0] == 'C' || token[0] == 'c') {
    mt.shape = Shape::kCircle, digits = token.substr(1);
  } else if (token[0] == 'T' || token[0] == 't') {
    mt.shape = Shape::kTriangle, digits = token.substr(1);
  } else {
    throw NotationError("move " + quote(token) +
                        ": not a move (placements: C4, T4, Round4, Triangle4; movements: 7-5)");
  }
  if (digits.empty())
    throw NotationError("move " + quote(token) + ": the placement names no space");
  mt.to = parse_space(digits, token);
  return mt;
}

Move resolve_move(const Rules& rules, State st, const MoveText& mt, std::string_view token) {
  const Colour me = st.to_move();
  const std::string head = "move " + quote(token) + ": ";
  const int cap = rules.stack_cap();
  auto check_target = [&](Piece p) {
    const StackInfo& in = st.info(mt.to);
    if (in.height >= cap)
      throw NotationError(head + "space " + std::to_string(mt.to + 1) + " already holds " +
                          std::to_string(in.height) + " pieces (stack cap " + std::to_string(cap) +
                          ")");
    if (in.kinds >> int(p) & 1)
      throw NotationError(head + "space " + std::to_string(mt.to + 1) + " already holds a " +
                          piece_name(p) + " (stacking rule)");
  };
  if (mt.placement) {
    if (!rules.placement_phase(st))
      throw NotationError(head +
                          "all pieces are on the board; in the movement phase a move is "
                          "written from-to, like 7-5");
    const Piece p = make_piece(me, mt.shape);
    if (st.count_on_board(p) >= rules.copies(p))
      throw NotationError(head + colour_name(me) + " has no " + shape_name(mt.shape) +
                          " left in supply");
    check_target(p);
    return Move{Move::kFromSupply, std::int8_t(mt.to), p};
  }
  if (rules.placement_phase(st))
    throw NotationError(head + "pieces move only in the movement phase; " + colour_name(me) +
                        " still has pieces to place");
  if (st.empty(mt.from))
    throw NotationError(head + "space " + std::to_string(mt.from + 1) + " is empty");
  const Piece p = st.top(mt.from);
  if (colour_of(p) != me)
    throw NotationError(head + "the top piece on space " + std::to_string(mt.from + 1) + " is " +
                        colour_name(colour_of(p)) + "'s, not " + colour_name(me) + "'s");
  if (!(rules.neighbours[mt.from] >> mt.to & 1))
    throw NotationError(head + "space " + std::to_string(mt.to + 1) + " is not adjacent to " +
                        std::to_string(mt.from + 1) + " (" +
                        std::string(adjacency_name(rules.variant.adjacency)) + " adjacency)");
  check_target(p);
  return Move{std::int8_t(mt.from), std::int8_t(mt.to), p};
}

std::vector<std::string> split_moves(std::string_view text) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : text) {
    if (ch == ',' || std::isspace(static_cast<unsigned char>(ch))) {
      if (!cur.empty()) out.push_back(cur), cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::string format_move(const Move& m) {
  if (m.is_placement()) return std::string(1, piece_char(m.piece)) + char('1' + m.to);
  return std::string(1, char('1' + m.from)) + "-" + char('1' + m.to);
}

State play_moves(const Rules& rules, State st, std::string_view moves, std::vector<Move>* played,
                 int* repeats_ply) {
  const GameRecord game = GameRecord::from_moves(rules, st, moves);
  if (played) *played = game.moves();
  if (repeats_ply) *repeats_ply = game.repeated_ply();
  return game.current();
}

}  // namespace fano

namespace fano {

std::string line_name(int line) {
  std::string out = "{";
  for (int i = 0; i < 3; ++i) {
    if (i) out += ',';
    out += char('1' + kLineSpaces[line][i]);
  }
  return out + "}";
}

std::string describe_game_over(const Rules& rules, State st) {
  const auto end = game_end(rules, st);
  return end ? describe_end(*end, st) : "";
}

}  // namespace fano
