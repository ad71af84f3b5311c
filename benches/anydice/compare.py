#!/usr/bin/env python3
"""Runs every program of an AnyDice corpus through `fairdice anydice --json`
and compares each output with AnyDice's own answer, to AnyDice's printed
precision; prints the mismatches and the share that matched.

    python3 benches/anydice/compare.py CORPUS.jsonl[.gz] [--bin target/release/fairdice]
"""
import argparse, functools, json, subprocess, sys, time

from corpus import judged, load

print = functools.partial(print, flush=True)

def expected(case):
    answer = case["anydice"]
    if "error" in answer:
        return None
    d = answer["distributions"]
    outs = []
    for label, data in zip(d["labels"], d["data"]):
        pairs = {}
        for pair in data or []:
            if pair is None or pair[0] is None:
                continue
            pairs[int(pair[0])] = float(pair[1])
        outs.append((label, pairs))
    return outs

def close(a, b):
    return abs(a - b) <= 1e-9 + 1e-8 * abs(b)

def compare(ours, theirs):
    if len(ours) != len(theirs):
        return f"{len(ours)} outputs, AnyDice {len(theirs)}"
    for (name, table), (label, pairs) in zip(ours, theirs):
        if name != label:
            return f"name {name!r}, AnyDice {label!r}"
        keys = set(table) | set(pairs)
        for k in sorted(keys):
            a, b = table.get(k, 0.0), pairs.get(k, 0.0)
            if not close(a, b):
                return f"{label}: value {k}: {a!r} %, AnyDice {b!r} %"
    return None

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--bin", default="target/release/fairdice")
    ap.add_argument("--budget", default="1")
    ap.add_argument("-v", action="store_true")
    ap.add_argument("--timeout", type=float, default=20)
    args = ap.parse_args()
    cases = judged(load(args.corpus))
    matched = answered = refused_ok = refusals = 0
    slowest = (0.0, None)
    started = time.time()
    for case in cases:
        want = expected(case)
        t = time.time()
        try:
            run = subprocess.run([args.bin, "--quiet", "anydice", "--json", "--budget", args.budget, "-"],
                                 input=case["program"], capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            print(f"{case['id']}: over {args.timeout} s")
            answered += want is not None
            continue
        took = time.time() - t
        if want is not None and took > slowest[0]:
            slowest = (took, case["id"])
        if want is None:
            refusals += 1
            if run.returncode != 0:
                refused_ok += 1
            elif args.v:
                print(f"{case['id']}: AnyDice refused ({case['anydice']['error']['message'][:80]}), fairdice answered")
            continue
        answered += 1
        if run.returncode != 0:
            print(f"{case['id']}: refused: {run.stderr.strip()[:300]}")
            continue
        report = json.loads(run.stdout)
        ours = [(o["name"], {x["value"]: x["percent"] for x in o["outcomes"]}) for o in report["outputs"]]
        problem = compare(ours, want)
        if problem:
            print(f"{case['id']}: {problem}")
        else:
            matched += 1
    print(f"matched {matched}/{answered} answered ({100*matched/max(answered,1):.1f} %); "
          f"refused {refused_ok}/{refusals} that AnyDice refused; slowest {slowest[0]:.2f} s ({slowest[1]}); "
          f"all in {time.time()-started:.1f} s")

main()
