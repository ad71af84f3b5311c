"""Prints where a WebAssembly module's code goes: the biggest functions and
the total per crate, read from the module's names section (the module
scripts/build-wasm.sh leaves in target/wasm/fairdice-engine.wasm.named).
Usage: sizes.py MODULE [COUNT]
"""
import re
import sys
from collections import Counter


def leb(data, at):
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def sections(data):
    at = 8
    while at < len(data):
        kind = data[at]
        size, start = leb(data, at + 1)
        yield kind, data[start:start + size]
        at = start + size


def crate_of(name):
    """The crate a function's code came from: the innermost path of a
    Rust symbol (v0 mangling, `Cs<hash>_<len><crate>`, or legacy), which
    for generic code is the crate of the function itself."""
    v0 = re.findall(r"C[sh]?[0-9A-Za-z]*_(\d+)([A-Za-z_])", name)
    if name.startswith("_R") and v0:
        at = name.index("_" + v0[0][0] + v0[0][1], 2) + 1
        length = int(v0[0][0])
        digits = len(v0[0][0])
        return name[at + digits:at + digits + length]
    legacy = re.findall(r"([a-z_][a-z0-9_]*)::", name)
    return legacy[0] if legacy else "(not Rust)"


def main():
    data = open(sys.argv[1], "rb").read()
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    imported, bodies, names = 0, [], {}
    for kind, body in sections(data):
        if kind == 2:
            n, at = leb(body, 0)
            for _ in range(n):
                for _ in range(2):
                    length, at = leb(body, at)
                    at += length
                desc = body[at]
                at += 1
                if desc == 0:
                    _, at = leb(body, at)
                    imported += 1
                elif desc == 1:
                    at += 1
                    flags, at = leb(body, at)
                    _, at = leb(body, at)
                    if flags & 1:
                        _, at = leb(body, at)
                elif desc == 2:
                    flags, at = leb(body, at)
                    _, at = leb(body, at)
                    if flags & 1:
                        _, at = leb(body, at)
                else:
                    at += 2
        elif kind == 10:
            n, at = leb(body, 0)
            for _ in range(n):
                size, start = leb(body, at)
                bodies.append(size)
                at = start + size
        elif kind == 0:
            length, at = leb(body, 0)
            if body[at:at + length] != b"name":
                continue
            at += length
            while at < len(body):
                sub = body[at]
                size, start = leb(body, at + 1)
                if sub == 1:
                    n, cursor = leb(body, start)
                    for _ in range(n):
                        index, cursor = leb(body, cursor)
                        length, cursor = leb(body, cursor)
                        names[index] = body[cursor:cursor + length].decode(errors="replace")
                        cursor += length
                at = start + size
    funcs = [(size, names.get(imported + i, f"func{imported + i}")) for i, size in enumerate(bodies)]
    total = sum(size for size, _ in funcs)
    print(f"{len(data)} bytes; code {total} bytes in {len(funcs)} functions")
    crates = Counter()
    for size, name in funcs:
        crates[crate_of(name)] += size
    print("by crate (the first path in the name):")
    for crate, size in crates.most_common(25):
        print(f"  {size:9d}  {crate}")
    print(f"the {count} biggest functions:")
    for size, name in sorted(funcs, reverse=True)[:count]:
        print(f"  {size:9d}  {name[:150]}")


main()
