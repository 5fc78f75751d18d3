"""A small study written against the type stubs: mypy checks it (strict) in
test_typing.py, which also runs it, so that the stubs and the module agree
on real use."""

import numpy as np
import numpy.typing as npt

import fano


def study(tb: fano.Tablebase) -> dict[str, int]:
    start = fano.Position.parse("-/-/-/-/-/-/- w", "standard")
    value, plies = tb.probe(start)
    after: fano.Position = start.play(["C4", "t3"])
    codes: npt.NDArray[np.uint64] = fano.parse_positions([str(start), str(after)], fano.STANDARD)
    values, plies_array, valid = tb.probe_codes(codes, variant="standard")
    names = [fano.VALUES[v] for v in values]
    first: np.uint64 = codes[1]
    from_numpy = tb.probe(first)
    report = tb.analyse(moves="C4,t3")
    return {
        "draw": int(value == "draw" and plies is None),
        "valid": int(valid.sum()),
        "names": len(names),
        "same": int(from_numpy == tb.probe(after)),
        "moves": len(report["moves"]),
        "plies": int(plies_array[0]),
    }


def main() -> None:
    with fano.open_tablebase(variant="standard") as tb:
        print(sorted(study(tb).items()))
    cap3: fano.Variant = fano.Variant.from_name("cap3")
    print(fano.default_tablebase_path(cap3).endswith("cap3-board.fanotb"))


if __name__ == "__main__":
    main()
