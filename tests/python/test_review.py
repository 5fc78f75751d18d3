"""The review of a game from Python (Tablebase.review, Game.review) against
`fano review --json` and a move-by-move walk of Tablebase.analyse.

Run by ctest (Python.Module) with PYTHONPATH pointing at the build tree's
module, FANO_BIN at the fano command and FANO_TABLES at the tables folder.
"""

import json
import random
import subprocess

import pytest

import fano
from test_module import FANO_BIN, table_path


@pytest.fixture(scope="module")
def standard():
    return fano.open_tablebase(table_path(fano.STANDARD))


def random_moves(seed, variant=fano.STANDARD, plies=40):
    """A seeded game that avoids forming a line while it can (so it reaches
    the movement phase), as a list of moves."""
    rng = random.Random(seed)
    game = fano.Game(variant)
    while not game.is_terminal() and len(game.moves()) < plies:
        moves = game.legal_moves()
        safe = []
        for m in moves:
            after = game.clone()
            after.apply_move(m)
            if not (after.is_terminal() and after.game_over()["reason"] == "line"):
                safe.append(m)
        game.apply_move(rng.choice(safe or moves))
    return game.moves()


def cli_review(path, moves, position=None):
    args = [FANO_BIN, "review", "--json", "--tb", path, "--moves", ",".join(moves)]
    if position is not None:
        args.append(str(position))
    r = subprocess.run(args, capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def test_review_is_the_commands(standard):
    for seed in (1, 2, 3):
        moves = random_moves(seed)
        assert standard.review(moves) == cli_review(standard.path, moves)
        assert standard.review(",".join(moves)) == standard.review(moves)
        start = fano.Position.empty().play(moves[:2])
        assert standard.review(moves[2:], start) == cli_review(standard.path, moves[2:], start)


def test_review_is_a_walk_of_analyse(standard):
    moves = random_moves(7, plies=60)
    review = standard.review(moves)
    assert review["moves_played"] == moves
    mistakes = {"white": 0, "black": 0}
    decisive = None
    for i, ply in enumerate(review["plies"]):
        report = (standard.analyse(moves=",".join(moves[:i])) if i
                  else standard.analyse(fano.Position.empty()))
        row = next(m for m in report["moves"] if m["move"] == moves[i])
        assert ply["ply"] == i + 1 and ply["move"] == moves[i]
        assert ply["before"] == {"result": report["value"], "plies": report["plies"]}
        assert ply["after"] == {"result": row["result"], "plies": row["plies"]}
        assert ply["mistake"] == (ply["before"] != ply["after"])
        changed = ply["before"]["result"] != ply["after"]["result"]
        assert ply["decisive"] == (ply["mistake"] and changed and decisive is None)
        if ply["decisive"]:
            decisive = ply["ply"]
        if ply["mistake"]:
            mistakes[ply["mover"]] += 1
            keeping = {m["move"] for m in report["moves"]
                       if (m["result"], m["plies"]) == (report["value"], report["plies"])}
            assert set(ply["best"]) == keeping and ply["best"][0] == report["engine_move"]
            assert ply["text"].startswith("%d. %s ?" % (ply["ply"], ply["move"]))
        else:
            assert ply["best"] is None and ply["refutation"] is None and ply["text"] is None
    assert review["mistakes"] == mistakes and sum(mistakes.values()) > 0
    assert review["first_decisive"] == decisive


def test_game_review(standard):
    moves = random_moves(11)
    game = fano.Game(moves=moves)
    assert game.review(standard) == standard.review(moves)
    assert game.review() == standard.review(moves)  # the default table of the variant
    start = fano.Position.empty().play(moves[:3])
    game = fano.Game(position=start, moves=moves[3:])
    assert game.review(table=standard) == standard.review(moves[3:], start)
    assert fano.Game().review(standard)["plies"] == []
    other = fano.open_tablebase(table_path(fano.Variant("projective")))
    with pytest.raises(ValueError, match="variant"):
        fano.Game().review(other)


def test_bad_games_are_refused(standard):
    with pytest.raises(ValueError, match="Q9"):
        standard.review("C4,Q9")
    with pytest.raises(ValueError, match="already over"):
        standard.review("C4,t3,T5,t1,C7,c2")
    with pytest.raises(fano.UnreachablePosition):
        standard.review([], fano.Position.parse("C/T/c/C/t/-/c w"))
    with pytest.raises(TypeError):
        standard.review()
