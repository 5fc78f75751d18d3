// The game records: each line's moves replayed under the rules (rule 3's
// history included), its values and first mistake read from the table, and
// the comment's claim parsed and checked against them.
#include "fano/analysis.hpp"
#include "fano/game.hpp"
#include "fano/notation.hpp"
#include "fano/text.hpp"
#include "fano/verify.hpp"
#include "text_input.hpp"

namespace fano::verify {

using namespace detail;

namespace {

// "VALUE [PLIES]" from tokens[i], advancing i.
Outcome parse_outcome_tokens(const std::vector<std::string_view>& tokens, size_t& i, int ln) {
  if (i >= tokens.size()) input_error(ln, "first-change: expected a value (win, draw or loss)");
  const std::string v = lower(tokens[i]);
  Outcome o{Value::kDraw, 0};
  if (v == "win")
    o.value = Value::kWin;
  else if (v == "loss")
    o.value = Value::kLoss;
  else if (v != "draw")
    input_error(ln, "first-change value " + quote(tokens[i]) + " is not win, draw or loss");
  ++i;
  if (o.value != Value::kDraw) {
    const auto p = i < tokens.size() ? parse_u64(tokens[i]) : std::nullopt;
    if (!p || *p > 100000)
      input_error(ln, "first-change: " + v + " needs its plies, e.g. '" + v + " 13'");
    o.plies = int(*p);
    ++i;
  }
  return o;
}

// "winning-moves N" or "first-change ..." after a ';' of a claim.
void parse_claim_part(Claim& c, std::string_view part, int ln) {
  const auto tokens = split_tokens(part, " \t\r,");
  if (tokens.empty()) return;
  const std::string key = lower(tokens[0]);
  if (key == "winning-moves") {
    const auto n = tokens.size() == 2 ? parse_u64(tokens[1]) : std::nullopt;
    if (!n || *n > 1000) input_error(ln, "expected 'winning-moves N'");
    c.winning_moves = int(*n);
    return;
  }
  if (key != "first-change")
    input_error(ln, "claim part " + quote(tokens[0]) +
                        " is neither 'winning-moves N' nor 'first-change PLY VALUE [PLIES] "
                        "VALUE [PLIES]'");
  ClaimedChange ch;
  if (tokens.size() == 2 && lower(tokens[1]) == "none") {
    c.first_change = ch;
    return;
  }
  const auto ply = tokens.size() > 1 ? parse_u64(tokens[1]) : std::nullopt;
  if (!ply || *ply < 1 || *ply > 100000) input_error(ln, "first-change: expected a ply number");
  ch.ply = int(*ply);
  size_t i = 2;
  ch.from = parse_outcome_tokens(tokens, i, ln);
  ch.to = parse_outcome_tokens(tokens, i, ln);
  if (i != tokens.size())
    input_error(ln, "unexpected token " + quote(tokens[i]) + " in first-change");
  c.first_change = ch;
}

std::optional<Claim> parse_claim(std::string_view comment, int ln) {
  const std::string low = lower(comment);
  const size_t at = low.find("claim:");
  if (at == std::string::npos) return std::nullopt;
  std::string_view rest = comment.substr(at + 6);
  const size_t semi = rest.find(';');
  const std::string_view parts = semi == std::string_view::npos ? "" : rest.substr(semi + 1);
  rest = rest.substr(0, semi);
  const auto tokens = split_tokens(rest, " \t\r,");
  const std::string usage = "expected '# claim: win|draw|loss [PLIES]'";
  if (tokens.empty()) input_error(ln, "empty claim: " + usage);
  Claim c;
  const std::string v = lower(tokens[0]);
  if (v == "win")
    c.value = Value::kWin;
  else if (v == "loss")
    c.value = Value::kLoss;
  else if (v == "draw")
    c.value = Value::kDraw;
  else
    input_error(ln, "claim value " + quote(tokens[0]) + " is not win, draw or loss");
  if (tokens.size() >= 2) {
    const auto p = parse_u64(tokens[1]);
    if (!p || *p > 100000) input_error(ln, "claim plies " + quote(tokens[1]) + " is not a number");
    if (c.value == Value::kDraw)
      input_error(ln, "claim plies " + quote(tokens[1]) + ": a draw has no plies");
    c.plies = int(*p);
  }
  if (tokens.size() > 2)
    input_error(ln, "unexpected token " + quote(tokens[2]) + " in claim: " + usage);
  for (std::string_view part : split_tokens(parts, ";")) parse_claim_part(c, part, ln);
  return c;
}

}  // namespace

std::vector<RecordReport> verify_lines(const Tablebase& tb, std::string_view text) {
  const RecordChecker checker(tb);
  std::vector<RecordReport> out;
  const auto lines = split_lines(text);
  for (size_t k = 0; k < lines.size(); ++k)
    if (auto rec = checker.check_line(lines[k], int(k + 1))) out.push_back(std::move(*rec));
  return out;
}

RecordChecker::RecordChecker(const Tablebase& tb) : tb_(tb), rules_(tb.variant()) {}

std::optional<RecordReport> RecordChecker::check_line(std::string_view line, int ln) const {
  const Tablebase& tb = tb_;
  const Rules& rules = rules_;
  require_text(line, ln);
  const size_t hash = line.find('#');
  const std::string_view moves = trim(line.substr(0, hash));
  const auto tokens = split_moves(moves);
  if (tokens.empty()) return std::nullopt;
  RecordReport rec;
  rec.line = ln;
  rec.record = std::string(moves);
  if (hash != std::string_view::npos) rec.claim = parse_claim(line.substr(hash + 1), ln);
  GameRecord game(rules);  // rule 3 lives in GameRecord
  for (size_t i = 0; i < tokens.size(); ++i) {
    const int ply = int(i + 1);
    const std::string& tok = tokens[i];
    if (const auto end = game.end()) {
      rec.legal = false;
      rec.illegal = IllegalMove{ply, tok,
                                "the game ended at ply " + std::to_string(*rec.ended_at) + " (" +
                                    describe_end(*end, game.current()) + ")"};
      break;
    }
    const State before_st = game.current();
    Move m;
    try {
      m = resolve_move(rules, before_st, parse_move_text(tok), tok);
    } catch (const NotationError& e) {
      rec.legal = false;
      rec.illegal = IllegalMove{ply, tok, e.what()};
      break;
    }
    // Values under the record's history (rule 3), the move judged by what it
    // gives its player against what the position offered.
    Outcome before, got;
    try {
      before = game_value(tb, game);
      game.play(m);
      got = outcome_for_mover(game_value(tb, game));
    } catch (const UnreachablePosition&) {
      throw TablebaseError(
          TablebaseErrorKind::kCorrupt,
          tb.name() + ": lacks a position of " + format_position(game.current()) +
              "'s game, reached by legal moves (damaged table; run 'fano verify')");
    }
    if (!rec.first_mistake && got.value < before.value)
      rec.first_mistake = Mistake{ply, format_move(m), before.value, got.value, before, got};
    if (game.over()) rec.ended_at = ply;
  }
  const State st = game.current();
  rec.end = game.end();
  rec.game_over = rec.end ? describe_end(*rec.end, st) : "";
  rec.final_position = format_position(st);
  rec.table_value = tb.probe(st);
  if (rec.table_value) rec.value = game_value(tb, game);
  if (rec.value && !rec.end) {
    int wins = 0;
    for (const RatedMove& r : rate_moves(tb, game)) wins += r.result.value == Value::kWin;
    rec.winning_moves = wins;
  }
  if (rec.claim) {
    const Claim& c = *rec.claim;
    bool holds = rec.legal && rec.value && rec.value->value == c.value &&
                 (!c.plies || *c.plies == rec.value->plies);
    if (c.winning_moves) holds = holds && rec.winning_moves == c.winning_moves;
    if (c.first_change) {
      const auto& m = rec.first_mistake;
      holds = holds && (c.first_change->ply == 0 ? !m
                                                 : m && m->ply == c.first_change->ply &&
                                                       m->before == c.first_change->from &&
                                                       m->after == c.first_change->to);
    }
    rec.claim_holds = holds;
  }
  return rec;
}

std::string claim_text(const Claim& c) {
  std::string out(value_name(c.value));
  if (c.plies) out.append(1, ' ').append(std::to_string(*c.plies));
  if (c.winning_moves) out += "; winning-moves " + std::to_string(*c.winning_moves);
  if (c.first_change) {
    // Appended piece by piece: GCC 12 warns (-Wrestrict, wrongly) on a
    // literal + std::string inside a conditional expression here.
    const auto append_outcome = [&out](Outcome o) {
      out.append(1, ' ').append(value_name(o.value));
      if (o.value != Value::kDraw) out.append(1, ' ').append(std::to_string(o.plies));
    };
    out += "; first-change ";
    if (c.first_change->ply == 0) {
      out += "none";
    } else {
      out += std::to_string(c.first_change->ply);
      append_outcome(c.first_change->from);
      append_outcome(c.first_change->to);
    }
  }
  return out;
}

}  // namespace fano::verify
