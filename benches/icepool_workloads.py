"""Icepool side of `compare_icepool.sh`.

`python icepool_workloads.py run NdK[%M]`
    Builds the distribution of the sum of N K-sided dice with icepool
    (`N @ icepool.d(K)`), folded modulo M if given, and prints one line in the
    same `key=value` form as `cargo run --release --example engine_timing`.
    Run once per fresh process: icepool caches sums on the die object, so a
    second run in the same process would time a cache lookup.

`python icepool_workloads.py table FAIRDICE_FILE ICEPOOL_FILE TIMEOUT`
    Joins the two result files into a table (plain Python, no icepool needed),
    and exits with status 1 if a checksum differs.
"""

import sys
import threading
import time

CHECKSUM_MODULUS = 1_000_000_007


def parse_workload(text):
    """`"1000d6%10"` -> (1000, 6, 10); the modulus is None when absent."""
    pool, _, modulus = text.partition("%")
    count, sides = pool.split("d")
    return int(count), int(sides), int(modulus) if modulus else None


def checksum_outcome(count, sides, modulus):
    """The outcome whose count is the checksum: the middle total, or residue 0."""
    if modulus is None:
        return (count + count * sides) // 2
    return 0


def run(workload):
    import icepool

    count, sides, modulus = parse_workload(workload)
    start = time.perf_counter()
    die = count @ icepool.d(sides)
    if modulus is not None:
        die = die % modulus
    seconds = time.perf_counter() - start
    checksum = die.quantity(checksum_outcome(count, sides, modulus))
    print(
        f"workload={workload} best_seconds={seconds:.6f} runs=1"
        f" checksum={checksum % CHECKSUM_MODULUS}"
        f" total_mod={die.denominator() % CHECKSUM_MODULUS}"
        f" icepool={icepool.__version__}",
        flush=True,
    )


def run_with_deep_stack(workload):
    """icepool sums N dice by recursion N deep: give it room."""
    sys.setrecursionlimit(20 * parse_workload(workload)[0] + 10_000)
    threading.stack_size(1 << 30)
    failure = []

    def target():
        try:
            run(workload)
        except BaseException as error:  # reported below, in the main thread
            failure.append(error)

    worker = threading.Thread(target=target)
    worker.start()
    worker.join()
    if failure:
        raise failure[0]


def read_results(path):
    """`{workload: {key: value}}` from a file of `key=value` lines."""
    results = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            fields = dict(item.split("=", 1) for item in line.split() if "=" in item)
            if "workload" in fields:
                results[fields["workload"]] = fields
    return results


def format_seconds(seconds):
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1000:.2f} ms"
    return f"{seconds:.2f} s"


def table_row(workload, ours, theirs, timeout):
    """One row: workload, times, ratio, and whether the checksums agree."""
    our_seconds = float(ours["best_seconds"])
    status = theirs.get("status", "ok")
    if status == "ok":
        their_seconds = float(theirs["best_seconds"])
        agree = (ours["checksum"], ours["total_mod"]) == (
            theirs["checksum"],
            theirs["total_mod"],
        )
        return (
            [
                workload,
                format_seconds(our_seconds),
                format_seconds(their_seconds),
                f"{their_seconds / our_seconds:.0f}x",
                "agree" if agree else "DIFFER",
            ],
            agree,
        )
    if status == "timeout":
        shown, ratio = f"did not finish in {timeout} s", f"> {timeout / our_seconds:.0f}x"
    else:
        shown, ratio = f"failed ({status})", "-"
    return [workload, format_seconds(our_seconds), shown, ratio, "-"], True


def table(fairdice_path, icepool_path, timeout):
    ours, theirs = read_results(fairdice_path), read_results(icepool_path)
    header = ["workload", "fairdice (best of runs)", "icepool (one run)", "icepool / fairdice", "checksum"]
    rows, all_agree = [], True
    for workload, our_fields in ours.items():
        row, agree = table_row(workload, our_fields, theirs.get(workload, {"status": "missing"}), timeout)
        rows.append(row)
        all_agree = all_agree and agree
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    for row in [header, ["-" * w for w in widths]] + rows:
        print(" | ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    versions = {f["icepool"] for f in theirs.values() if "icepool" in f}
    print(f"icepool version: {', '.join(sorted(versions)) or 'unknown'}")
    return 0 if all_agree else 1


def main(argv):
    if len(argv) == 3 and argv[1] == "run":
        run_with_deep_stack(argv[2])
        return 0
    if len(argv) == 5 and argv[1] == "table":
        return table(argv[2], argv[3], int(argv[4]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
