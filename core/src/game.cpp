#include "fano/game.hpp"

#include <algorithm>
#include <bit>
#include <cassert>

#include "fano/notation.hpp"

namespace fano {

std::string_view end_reason_name(EndReason r) {
  switch (r) {
    case EndReason::kLine:
      return "line";
    case EndReason::kNoMove:
      return "no_move";
    case EndReason::kRepetition:
      return "repetition";
  }
  return "?";
}

std::optional<GameEnd> game_end(const Rules& rules, State st) {
  if (const std::uint8_t lines = formed_lines(rules, st))
    return GameEnd{EndReason::kLine, std::countr_zero(unsigned(lines)), opponent(st.to_move()), -1};
  if (!has_legal_move(rules, st)) return GameEnd{EndReason::kNoMove, -1, st.to_move(), -1};
  return std::nullopt;
}

std::string describe_end(const GameEnd& end, State st) {
  const auto side = [](Colour c) { return std::string(c == Colour::kWhite ? "White" : "Black"); };
  switch (end.reason) {
    case EndReason::kLine: {
      assert(end.line >= 0 && end.line < kLines);
      const auto& sp = kLineSpaces[end.line];
      const Piece a = st.top(sp[0]), b = st.top(sp[1]), c = st.top(sp[2]);
      const std::string what =
          colour_of(a) == colour_of(b) && colour_of(b) == colour_of(c)
              ? "three " + colour_name(colour_of(a)) + " pieces"
              : std::string("three ") + (shape_of(a) == Shape::kCircle ? "circles" : "triangles");
      return "line " + line_name(end.line) + " has " + what +
             " on top: " + side(opponent(st.to_move())) + ", who moved last, lost";
    }
    case EndReason::kNoMove:
      return side(st.to_move()) + " has no legal move and lost";
    case EndReason::kRepetition:
      return "draw by repetition: the position after ply " + std::to_string(end.repeated_ply) +
             " occurred again (rule 3)";
  }
  return "";
}

GameRecord::GameRecord(const Rules& rules, State start) : rules_(rules), positions_{start} {}

GameRecord GameRecord::from_moves(const Rules& rules, State start, std::string_view moves) {
  GameRecord game(rules, start);
  const auto tokens = split_moves(moves);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    try {
      game.play(std::string_view(tokens[i]));
    } catch (const NotationError& e) {
      throw NotationError("move " + std::to_string(i + 1) + " (ply " + std::to_string(i + 1) +
                          "), " + e.what());
    }
  }
  return game;
}

std::optional<GameEnd> GameRecord::end() const {
  if (auto e = game_end(rules_, current())) return e;
  if (repeated_ply_ >= 0) return GameEnd{EndReason::kRepetition, -1, std::nullopt, repeated_ply_};
  return std::nullopt;
}

void GameRecord::check_not_over() const {
  if (repeated_ply_ >= 0)
    throw NotationError("the game is already over (draw by repetition: the position after ply " +
                        std::to_string(plies()) + " occurred after ply " +
                        std::to_string(repeated_ply_) + ", rule 3)");
  if (const auto e = game_end(rules_, current()))
    throw NotationError(std::string("the game is already over (") +
                        (e->reason == EndReason::kLine ? "a line stands" : "no legal move") + ")");
}

void GameRecord::play(const Move& move) {
  check_not_over();
  const State next = apply_move(current(), move);
  const auto earlier = std::find(positions_.begin(), positions_.end(), next);
  repeated_ply_ = earlier == positions_.end() ? -1 : int(earlier - positions_.begin());
  moves_.push_back(move);
  positions_.push_back(next);
}

Move GameRecord::play(std::string_view token) {
  try {
    check_not_over();
  } catch (const NotationError& e) {
    throw NotationError("move " + quote(token) + ": " + e.what());
  }
  const Move m = resolve_move(rules_, current(), parse_move_text(token), token);
  play(m);
  return m;
}

void GameRecord::undo() {
  assert(!moves_.empty());
  moves_.pop_back();
  positions_.pop_back();
  const auto earlier = std::find(positions_.begin(), positions_.end() - 1, positions_.back());
  repeated_ply_ = earlier == positions_.end() - 1 ? -1 : int(earlier - positions_.begin());
}

std::string GameRecord::move_list() const {
  std::string out;
  for (const Move& m : moves_) {
    if (!out.empty()) out += ',';
    out += format_move(m);
  }
  return out;
}

}  // namespace fano
