"""fairdice's dice language against icepool (needs `pip install icepool`).

`python dice_icepool.py check [FAIRDICE]`
    Each expression in CASES is written twice: in our dice language and as
    the same roll in icepool. `fairdice eval --json` must give exactly
    icepool's probabilities (reduced fractions) and mean; exit 1 otherwise.

`python dice_icepool.py time EXPR`
    icepool's compute alone for one expression of CASES, in this fresh
    process (icepool caches on die objects): prints `seconds=S values=V`.
"""
import json, subprocess, sys, tempfile, os, time
from fractions import Fraction
import icepool
from icepool import d, Die

d6, d10, d20 = d(6), d(10), d(20)
CASES = {
    "4d6dl1": lambda: d6.pool(4).highest(3).sum(),
    "3d6": lambda: 3 @ d6,
    "4d6ro1dl1": lambda: d6.reroll([1], depth=1).pool(4).highest(3).sum(),
    "2d6+6": lambda: 2 @ d6 + 6,
    "2d20kh1": lambda: d20.pool(2).highest(1).sum(),
    "2d20kl1": lambda: d20.pool(2).lowest(1).sum(),
    "5d10>=7": lambda: 5 @ (d10 >= 7),
    "8d10>=7": lambda: 8 @ (d10 >= 7),
    # `!!` compounds into the die, as icepool's explode (issue 28).
    "3d6!!": lambda: 3 @ d6.explode(depth=3),
    "5d10!!>=9kh3": lambda: d10.explode([9, 10], depth=3).pool(5).highest(3).sum(),
    "16d10!!kh8": lambda: d10.explode(depth=3).pool(16).highest(8).sum(),
    "2d6rr<3": lambda: 2 @ d6.reroll(lambda x: x < 3, depth='inf'),
    "4dF": lambda: 4 @ Die([-1, 0, 1]),
    "3d{0,0,1,1,2}dh1": lambda: Die([0, 0, 1, 1, 2]).pool(3).lowest(2).sum(),
    "1d6-1d6": lambda: d6 - d6,
    "max(d6, d8)": lambda: icepool.highest(d6, d(8)),
    "abs(d6-d6)": lambda: abs(d6 - d6),
    "(d6-4) % 3": lambda: (d6 - 4) % 3,
    "d6*d6": lambda: d6 * d6,
    "6d6dh2": lambda: d6.pool(6).lowest(4).sum(),
    "10d6>4": lambda: 10 @ (d6 > 4),
    "4d6kh2>=5": lambda: d6.map(lambda x: int(x >= 5)).pool(4).highest(2).sum(),
    # Issue 28's forms.
    "1d20+5 >= 15": lambda: (d20 + 5 >= 15).map(lambda x: int(x)),
    "d20 > d20": lambda: (d20 > d20).map(lambda x: int(x)),
    "4d6dl1dh1": lambda: d6.pool(4)[1:3].sum(),
    "5d10kh3kl1": lambda: d10.pool(5)[2:3].sum(),
    "10d10>=8f1": lambda: 10 @ d10.map(lambda x: int(x >= 8) - int(x == 1)),
    "(1d4)d6": lambda: d(4) @ d6,
    "floor(3d6 / 2)": lambda: (3 @ d6) // 2,
    "{2d20, 1d20+5}kh1": lambda: icepool.highest(2 @ d20, d20 + 5),
    "5d6!kh2": lambda: d6.explode_to_pool(5, depth=3).highest(2).sum(),
    "pairs(3d6, 2d6)": lambda: d6.pool(3).sort_pair('>', d6.pool(2)).size(),
    # The speed workloads of benches/compare_dice.sh (issue 28's: the last three).
    "pairs(10d6,10d6)": lambda: d6.pool(10).sort_pair('>', d6.pool(10)).size(),
    "10d10!!kh5": lambda: d10.explode(depth=3).pool(10).highest(5).sum(),
    "8d10!kh4": lambda: d10.explode_to_pool(8, depth=3).highest(4).sum(),
    # `!` into the pool keeping 5 of 10 (once refused by the budget).
    "10d10!kh5": lambda: d10.explode_to_pool(10, depth=3).highest(5).sum(),
    "200d20kh20": lambda: d20.pool(200).highest(20).sum(),
    "500d6kh50": lambda: d6.pool(500).highest(50).sum(),
    "1000d10>=7": lambda: 1000 @ (d10 >= 7),
    "1000d6": lambda: 1000 @ d6,
    # Issue 42: pools past 2^188 outcomes, and one large die.
    "16d10!kh8": lambda: d10.explode_to_pool(16, depth=3).highest(8).sum(),
    "20d6!kh10": lambda: d6.explode_to_pool(20, depth=3).highest(10).sum(),
    "30d6!kh10": lambda: d6.explode_to_pool(30, depth=3).highest(10).sum(),
    "40d10!!kh20": lambda: d10.explode(depth=3).pool(40).highest(20).sum(),
    "100d20kh50": lambda: d20.pool(100).highest(50).sum(),
    "10d100kh3": lambda: d(100).pool(10).highest(3).sum(),
    "1d1000000": lambda: d(1000000),
    # Issue 42, item 3: small workloads, where the start of the process
    # is most of fairdice's time.
    "50d10>=7": lambda: 50 @ (d10 >= 7),
    "30d6kh10": lambda: d6.pool(30).highest(10).sum(),
    "6d6!kh3": lambda: d6.explode_to_pool(6, depth=3).highest(3).sum(),
}
# Beyond icepool (its sum of 1000 dice recurses past Python's limit), or a
# million fractions to compare: timed by compare_dice.sh only, where a
# failure is reported.
SLOW = {"1000d6", "1000d10>=7", "1d1000000"}


def ours(fairdice, expressions):
    """Each expression in a scenario of its own: all of them in one file
    would also compare every pair, which the build's budget refuses."""
    rolls = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "roll.yaml")
        for e in expressions:
            with open(path, "w") as f:
                f.write(f"title: oracle\nkind: dice\nrolls:\n  r: {json.dumps(e)}\n")
            out = subprocess.run([fairdice, "eval", path, "--json", "--quiet"],
                                 check=True, capture_output=True, text=True).stdout
            rolls.append(json.loads(out)["scenarios"][0]["results"]["rolls"][0])
    return rolls


def check(fairdice):
    expressions = [e for e in CASES if e not in SLOW]
    rolls = ours(fairdice, expressions)
    bad = 0
    for e, roll in zip(expressions, rolls):
        die = CASES[e]()
        theirs = {int(k): Fraction(v, die.denominator()) for k, v in die.items() if v}
        mine = {o["value"]: Fraction(o["probability"]) for o in roll["outcomes"]}
        ok = theirs == mine and Fraction(roll["mean"]) == Fraction(die.mean())
        bad += not ok
        print(f"{'ok  ' if ok else 'DIFF'} {e}")
    sys.exit(1 if bad else 0)


def time_one(expression):
    start = time.perf_counter()
    try:
        die = CASES[expression]()
        die.denominator()
    except (RecursionError, MemoryError) as failure:
        # icepool sums N dice recursively: 1000 dice pass Python's default
        # recursion limit. Reported as a failure, not hidden.
        print(f"seconds=nan error={type(failure).__name__}")
        return
    seconds = time.perf_counter() - start
    print(f"seconds={seconds:.4f} values={len(die)}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["time"]:
        time_one(sys.argv[2])
    else:
        check(sys.argv[2] if len(sys.argv) > 2 else "target/release/fairdice")
