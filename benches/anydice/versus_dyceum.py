#!/usr/bin/env python3
"""fairdice against dyceum (an exact AnyDice interpreter in Python) on the
answered programs of an AnyDice corpus, in one run on one machine: the whole
`fairdice anydice --json` process per program, against dyceum's
`dyceum.anydice.run` in process (its import paid once, not counted).

    python3 -m venv /tmp/dy && /tmp/dy/bin/pip install 'dyceum==0.5.0rc6'
    /tmp/dy/bin/python benches/anydice/versus_dyceum.py CORPUS.jsonl[.gz] [--limit N]

Prints the summed times, their ratio, and fairdice's slowest program. A
dyceum run past --timeout seconds is stopped and counted at the timeout (so
the ratio is a lower bound).
"""
import argparse, signal, subprocess, time

import dyceum.anydice

from corpus import answered, load


class Timeout(Exception):
    pass


def alarm(signum, frame):
    raise Timeout()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--bin", default="target/release/fairdice")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--timeout", type=int, default=60)
    args = ap.parse_args()
    cases = answered(load(args.corpus))
    if args.limit:
        cases = cases[: args.limit]
    signal.signal(signal.SIGALRM, alarm)
    ours = theirs = 0.0
    slowest = (0.0, None)
    stopped = 0
    for case in cases:
        t = time.perf_counter()
        subprocess.run([args.bin, "--quiet", "anydice", "--json", "-"], input=case["program"],
                       capture_output=True, text=True)
        took = time.perf_counter() - t
        ours += took
        slowest = max(slowest, (took, case["id"]))
        t = time.perf_counter()
        signal.alarm(args.timeout)
        try:
            dyceum.anydice.run(case["program"])
        except Timeout:
            stopped += 1
        except Exception:
            pass
        finally:
            signal.alarm(0)
        theirs += time.perf_counter() - t
        print(f"{case['id']}: fairdice {took:.3f} s, dyceum so far {theirs:.1f} s", flush=True)
    print(f"{len(cases)} programs: fairdice {ours:.2f} s (whole processes), dyceum {theirs:.2f} s "
          f"({stopped} stopped at {args.timeout} s); dyceum/fairdice = {theirs / ours:.1f}x; "
          f"fairdice's slowest {slowest[0]:.2f} s ({slowest[1]})", flush=True)


main()
