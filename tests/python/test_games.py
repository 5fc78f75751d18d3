"""fano.Game (OpenSpiel's shape: integer actions, rule 3 by history) against
Position's moves and game_over, and fano.grade against `fano selfplay`
(the same games for the same seed) and against the table move by move.

Run by ctest (Python.Module) as test_module.py is.
"""

import copy
import json
import os
import pickle
import random
import subprocess

import numpy as np
import pytest

import fano
from test_module import FANO_BIN, table_path


@pytest.fixture(scope="module")
def standard():
    return fano.open_tablebase(table_path(fano.STANDARD))


def random_game(variant, seed, max_plies=200):
    rng = random.Random(seed)
    g = fano.Game(variant)
    while not g.is_terminal() and len(g.history()) < max_plies:
        g.apply_action(rng.choice(g.legal_actions()))
    return g


@pytest.mark.parametrize("variant", fano.VARIANTS, ids=lambda v: v.slug)
def test_actions_are_the_positions_moves(variant):
    n = fano.Game.num_distinct_actions()
    assert n == 63
    # Every action's string reads back to it; the 7 movements onto their own
    # space are no move's, refused both ways.
    names = {}
    for a in range(n):
        if a >= 14 and (a - 14) // 7 == (a - 14) % 7:
            with pytest.raises(ValueError, match="onto itself"):
                fano.Game.action_to_string(a)
            space = (a - 14) // 7 + 1
            with pytest.raises(ValueError):
                fano.Game.string_to_action(f"{space}-{space}")
        else:
            names[a] = fano.Game.action_to_string(a)
            assert fano.Game.string_to_action(names[a]) == a
    assert len(set(names.values())) == len(names) == 56
    for seed in range(20):
        g = fano.Game(variant)
        rng = random.Random(seed)
        position = fano.Position.empty(variant)
        seen = {position}
        while not g.is_terminal():
            assert g.position == position and g.current_player() == (
                0 if position.to_move == "white" else 1)
            actions = g.legal_actions()
            assert actions == sorted(actions) and all(0 <= a < n for a in actions)
            # The actions are the position's legal moves (placements in the
            # mover's colour: 'C4' for White is 'c4' for Black).
            moves = sorted(position.legal_moves())
            assert sorted(g.legal_moves()) == moves
            assert sorted(fano.Game.action_to_string(a) if position.to_move == "white"
                          or "-" in fano.Game.action_to_string(a)
                          else fano.Game.action_to_string(a).lower() for a in actions) == moves
            a = rng.choice(actions)
            g.apply_action(a)
            position = position.play(g.moves()[-1])
            if position in seen:  # rule 3: a repetition ends the game drawn
                assert g.is_terminal() and g.game_over()["reason"] == "repetition"
                assert g.returns() == [0, 0] and g.legal_actions() == []
                break
            seen.add(position)
        if g.game_over()["reason"] != "repetition":
            end = position.game_over()
            assert g.game_over() == end
            assert g.returns() == ([-1.0, 1.0] if end["loser"] == "white" else [1.0, -1.0])
        assert g.current_player() == -4
        with pytest.raises(ValueError, match="over"):
            g.apply_action(0)


def test_clone_copy_pickle_and_undo():
    g = fano.Game(moves="C4,t3,T1")
    c = g.clone()
    assert c.history() == g.history()
    c.apply_action(c.legal_actions()[0])
    assert len(c.history()) == len(g.history()) + 1
    assert copy.deepcopy(g).history() == g.history() == copy.copy(g).history()
    p = pickle.loads(pickle.dumps(g))
    assert (p.history(), str(p), p.variant) == (g.history(), str(g), g.variant)
    c.undo()
    assert c.history() == g.history() and str(c) == str(g)
    with pytest.raises(ValueError, match="not legal"):
        fano.Game().apply_action(15)  # 1-2, a movement on the empty board
    with pytest.raises(ValueError):
        fano.Game().apply_action(63)
    with pytest.raises(TypeError):
        fano.Game().apply_action("C4")


def test_observation_shows_the_board():
    for seed in range(10):
        g = random_game(fano.VARIANTS[2], seed, max_plies=30)
        obs = g.observation_tensor()
        assert obs.shape == fano.Game.observation_shape() == (5, 7, 3) and obs.dtype == np.float32
        stacks, side = str(g).split()
        for s, stack in enumerate(stacks.split("/")):
            pieces = "" if stack == "-" else stack
            for h in range(3):
                want = ["CTct".index(pieces[h]) if h < len(pieces) else None]
                assert [k for k in range(4) if obs[k, s, h] == 1] == [w for w in want if w is not None]
        assert (obs[4] == (1 if side == "b" else 0)).all()


def test_svg_is_the_commands(tmp_path):
    empty = tmp_path / "no-tables"
    empty.mkdir()
    env = dict(os.environ, FANO_TABLES=str(empty))
    g = random_game(fano.STANDARD, 11, max_plies=12)
    out = tmp_path / "game.svg"
    subprocess.run([FANO_BIN, "show", "--moves", ",".join(g.moves()), "--svg", str(out)],
                   check=True, capture_output=True, env=env)
    assert g._repr_svg_() == out.read_text()
    subprocess.run([FANO_BIN, "show", str(g.position), "--svg", str(out)],
                   check=True, capture_output=True, env=env)
    assert g.position._repr_svg_() == out.read_text()
    assert g._repr_svg_().startswith("<svg")


def selfplay(white, black, games, seed, tb):
    r = subprocess.run([FANO_BIN, "selfplay", "--white", white, "--black", black, "--games",
                        str(games), "--seed", str(seed), "--json", "--tb", tb.path],
                       check=True, capture_output=True, text=True)
    return json.loads(r.stdout)


@pytest.mark.parametrize("player,opponent,seed", [
    ("perfect:0.5", "random", 7), ("nonlosing", "engine", 3), ("search:2", "perfect", 11)])
def test_grade_of_built_in_players_equals_selfplay(standard, player, opponent, seed):
    games = 30
    as_white = fano.grade(player, games, opponent=opponent, seed=seed, side="white",
                          table=standard)
    run = selfplay(player, opponent, games, seed, standard)
    got = [as_white["results"][k]["count"] for k in ("wins", "draws", "losses")]
    assert got == [run[k]["count"] for k in ("white_wins", "draws", "black_wins")]
    as_black = fano.grade(player, games, opponent=opponent, seed=seed, side="black",
                          table=standard)
    run = selfplay(opponent, player, games, seed, standard)
    got = [as_black["results"][k]["count"] for k in ("wins", "draws", "losses")]
    assert got == [run[k]["count"] for k in ("black_wins", "draws", "white_wins")]
    # The same report for the same seed.
    assert fano.grade(player, games, opponent=opponent, seed=seed, side="white",
                      table=standard) == as_white


def test_grade_judges_each_move_by_the_table(standard):
    r = fano.grade("perfect:0.6", 40, opponent="engine", seed=5, table=standard)
    assert r["moves"]["total"] == r["moves"]["placement"] + r["moves"]["movement"]
    assert r["kept"]["count"] + r["blunders"]["total"] == r["moves"]["total"]
    assert r["blunders"]["total"] == len(r["blunder_positions"]) > 0
    assert r["missed_wins"]["count"] == sum(b["value"] == "win" for b in r["blunder_positions"])
    assert [g["colour"] for g in r["games_list"]] == ["white", "black"] * 20
    order = {"loss": 0, "draw": 1, "win": 2}
    for b in r["blunder_positions"]:
        # Independently: the analysis of the game so far rates the move.
        report = standard.analyse(moves=b["moves"]) if b["moves"] else standard.analyse(
            fano.Position.empty())
        assert report["position"] == b["position"] and report["value"] == b["value"]
        rated = {m["move"]: m["result"] for m in report["moves"]}
        assert rated[b["move"]] == b["result"] and order[b["result"]] < order[b["value"]]
    # Perfect play keeps every value.
    perfect = fano.grade("perfect", 20, opponent="random", seed=2, table=standard)
    assert perfect["blunders"]["total"] == 0 and perfect["kept"]["rate"] == 1.0
    assert perfect["results"]["losses"]["count"] == 0


def test_grade_of_a_python_player(standard):
    def first_action(game):
        return game.legal_actions()[0]

    def first_move(game):
        return game.legal_moves()[0]

    a = fano.grade(first_action, 6, opponent="random", seed=9, table=standard)
    assert a["player"] == "test_grade_of_a_python_player.<locals>.first_action"
    assert a == dict(fano.grade(first_action, 6, opponent="random", seed=9, table=standard))
    assert a["moves"]["total"] > 0
    with pytest.raises(ValueError, match="not legal"):
        fano.grade(lambda game: 20, 1, table=standard)
    with pytest.raises(ValueError, match="opponent"):
        fano.grade(first_move, 1, opponent="nobody", table=standard)
    with pytest.raises(TypeError):
        fano.grade(42, 1, table=standard)
    with pytest.raises(ZeroDivisionError):
        fano.grade(lambda game: 1 / 0, 1, table=standard)


def test_check_strategy_is_fano_strategy(standard):
    # The same check and line as the command's, for a built-in player.
    r = subprocess.run([FANO_BIN, "strategy", "--tb", table_path(fano.STANDARD), "--player",
                        "search:2", "--side", "white", "--json"],
                       capture_output=True, text=True, check=True)
    cli = json.loads(r.stdout)["results"][0]
    got = standard.check_strategy("search:2", side="white")
    assert got == cli
    assert not got["holds"] and got["refutation"]["plies"] == 7
    assert standard.check_strategy("perfect")["holds"]


def test_check_strategy_of_a_dict_is_fano_strategy_allowed(tmp_path):
    # A dict {position: [moves]} is the --allowed file's table: the smallest
    # strategy the command writes holds, as the command says; without the
    # empty board it fails there; a bad entry is refused naming its position.
    variant = fano.Variant("standard-2c1t")
    table = table_path(variant)
    rule_file = tmp_path / "black.jsonl"
    subprocess.run([FANO_BIN, "strategy", "--tb", table, "--size", "--side", "black",
                    "--passes", "1", "--allowed-out", str(rule_file)],
                   capture_output=True, text=True, check=True)
    rule = {}
    for line in rule_file.read_text().splitlines():
        entry = json.loads(line)
        rule[entry["position"]] = entry["moves"]
    r = subprocess.run([FANO_BIN, "strategy", "--tb", table, "--allowed", str(rule_file),
                        "--side", "black", "--json"], capture_output=True, text=True, check=True)
    cli = json.loads(r.stdout)["results"][0]
    small = fano.open_tablebase(table)
    got = small.check_strategy(rule, side="black")
    assert got["holds"] and cli["holds"]
    assert {k: v for k, v in got.items() if k != "rule"} == \
        {k: v for k, v in cli.items() if k != "rule"}
    second = next(p for p in rule if p != "-/-/-/-/-/-/- w" and p.endswith(" b"))
    del rule[second]
    failed = small.check_strategy(rule, side="black")
    assert not failed["holds"] and failed["refutation"]["uncovered"] == second
    with pytest.raises(ValueError, match="C/-/-/-/-/-/- b"):
        small.check_strategy({"C/-/-/-/-/-/- b": ["c9"]}, side="black")
    with pytest.raises(ValueError) as bad:
        small.check_strategy({"xx": ["c2"]}, side="black")
    assert str(bad.value).count("'xx'") == 1, bad.value
    # a string where a list belongs is refused, not read letter by letter
    with pytest.raises(ValueError, match=r"a list of moves, not a string: write \['c2'\]"):
        small.check_strategy({"C/-/-/-/-/-/- b": "c2"}, side="black")


def test_check_strategy_of_a_python_rule():
    # A callable allowing every legal move is the random player's rule; one
    # that allows only the table's best moves (the fastest win: a slower one
    # may wander into a repetition) holds; bad answers are refused.
    small = fano.open_tablebase(table_path(fano.Variant("standard-1c1t")))
    everything = small.check_strategy(lambda p: p.legal_moves(), side="black")
    assert everything["holds"] == small.check_strategy("random", side="black")["holds"] is False
    assert everything["refutation"] == small.check_strategy("random", side="black")["refutation"]

    def best(p):
        moves = small.analyse(p)["moves"]
        return [m["move"] for m in moves
                if (m["result"], m["plies"]) == (moves[0]["result"], moves[0]["plies"])]

    assert small.check_strategy(best, side="black")["holds"]
    with pytest.raises(ValueError):
        small.check_strategy(lambda p: ["Q9"], side="black")
    with pytest.raises(TypeError, match="a list of moves, not a string"):
        small.check_strategy(lambda p: p.legal_moves()[0], side="black")
    with pytest.raises(ValueError, match="side must be"):
        small.check_strategy("random", side="red")
    with pytest.raises(TypeError):
        small.check_strategy(42)


def test_player_levels_are_the_cli_list_and_grade_takes_them(standard):
    levels = fano.player_levels()
    r = subprocess.run([FANO_BIN, "selfplay", "--list-players", "--json"], check=True,
                       capture_output=True, text=True)
    assert levels == json.loads(r.stdout)["players"]
    assert [p["label"] for p in levels][0] == "Perfect"
    ratings = [p["rating"] for p in levels]
    assert ratings == sorted(ratings, reverse=True)
    for p in levels:
        low, high = p["interval"]
        assert low < p["rating"] < high
        # Each level is a built-in player grade() and fano selfplay take.
        assert fano.grade(p["name"], 2, table=standard)["results"]["wins"]["total"] == 2


def test_actions_out_of_range_are_said_to_be():
    g = fano.Game()
    for bad in (-1, 63, 2**63, 2**70, -2**70):
        for call in (g.apply_action, fano.Game.action_to_string):
            with pytest.raises(ValueError, match=r"out of range \(0\.\.62\)"):
                call(bad)
    for bad in (True, 1.0, "3"):
        with pytest.raises(TypeError):
            g.apply_action(bad)
    assert g.history() == []
    g.apply_action(np.int64(3))
    assert g.moves() == ["C4"]


def test_messages_quote_what_they_echo(standard):
    # Core's quote(): no raw ESC or BEL reaches a message, a NUL does not cut
    # it before its cause, and a long echo is cut with its length.
    for name in ("\x1b[2J", "\x07bell", "a\0b"):
        with pytest.raises(ValueError) as e:
            fano.Game(variant=name)
        text = str(e.value)
        assert "\x1b" not in text and "\x07" not in text and "\0" not in text, repr(text)
        assert "unknown rules" in text and "expected" in text, text
    small = fano.open_tablebase(table_path(fano.Variant("standard-2c1t")))
    for key in ("\x1b]0;title\x07", "a\0b/-/-/-/-/-/- w", "x" * 60000):
        with pytest.raises(ValueError) as e:
            small.check_strategy({key: ["c2"]}, side="black")
        text = str(e.value)
        assert "\x1b" not in text and "\x07" not in text and "\0" not in text, repr(text)
        assert len(text) < 500, len(text)
        assert text.startswith("position '"), text
    with pytest.raises(ValueError) as e:
        small.check_strategy({"a\0b/-/-/-/-/-/- w": ["c2"]}, side="black")
    assert "\\x00b" in str(e.value) and "stack" in str(e.value), str(e.value)
    with pytest.raises(ValueError, match=r"\(60000 bytes\)"):
        small.check_strategy({"x" * 60000: ["c2"]}, side="black")


def test_an_illegal_move_of_a_callable_names_the_position(standard):
    empty = "-/-/-/-/-/-/- w"
    for answer in ("7-5", 60, "Q9"):
        with pytest.raises(ValueError) as e:
            fano.grade(lambda game, a=answer: a, 1, table=standard)
        assert empty in str(e.value), str(e.value)
    small = fano.open_tablebase(table_path(fano.Variant("standard-2c1t")))
    with pytest.raises(ValueError) as e:
        small.check_strategy(lambda p: ["1-2"], side="white")
    assert empty in str(e.value) and "movement phase" in str(e.value), str(e.value)


def test_solve_refuses_a_missing_folder_as_the_command_does(tmp_path):
    folder = tmp_path / "no" / "such"
    r = subprocess.run([FANO_BIN, "solve", "--rules", "standard-1c1t", "--out",
                        str(folder / "t.fanotb")], capture_output=True, text=True)
    assert r.returncode != 0 and not folder.exists(), r.stderr
    assert r.returncode == 18 and "no folder" in r.stderr, r.stderr  # the kind 'io'
    with pytest.raises(fano.TablebaseError) as e:
        fano.solve(fano.Variant("standard-1c1t"), path=folder / "t.fanotb")
    assert e.value.kind == "io" and not folder.exists()
    assert f"no folder {folder}" in str(e.value), str(e.value)
    done = fano.solve(fano.Variant("standard-1c1t"), path=tmp_path / "t.fanotb")
    assert done["tablebase_bytes"] == os.path.getsize(tmp_path / "t.fanotb")
