"""Reading an AnyDice corpus (JSON lines, optionally gzipped), one owner for
the benches beside it: each case has an `id`, the `program` and AnyDice's
own `anydice` answer (its `distributions`, or an `error`)."""
import gzip, json


def load(path):
    """Every case of the corpus at `path`."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return [json.loads(line) for line in f if line.strip()]


def judged(cases):
    """The cases AnyDice judged: answered, or refused for the program's sake
    (not for its servers' own failures, which say nothing of the program)."""
    return [c for c in cases if "Infrastructure" not in json.dumps(c["anydice"].get("error", {}))]


def answered(cases):
    """The cases AnyDice answered with distributions."""
    return [c for c in cases if "refused" not in c and "error" not in c.get("anydice", {"error": 1})]
