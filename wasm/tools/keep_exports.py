"""Rewrites a WebAssembly module's export section to keep only the exports
named on the command line: the engine's own functions and its memory.

wasm-bindgen's crates (which plotters and indicatif depend on for the web,
and which the engine never calls) mark hundreds of functions for export
whatever the program's own list says; unexported, they are dead weight the
next tools may drop. Usage: keep_exports.py IN OUT NAME...
"""
import sys


def leb(data, at):
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def uleb(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def main():
    source, target, keep = sys.argv[1], sys.argv[2], set(sys.argv[3:])
    data = open(source, "rb").read()
    if data[:8] != b"\0asm\1\0\0\0":
        sys.exit(f"{source}: not a WebAssembly module")
    out = bytearray(data[:8])
    at = 8
    kept = set()
    while at < len(data):
        section = data[at]
        size, start = leb(data, at + 1)
        end = start + size
        if section == 7:
            count, cursor = leb(data, start)
            entries = []
            for _ in range(count):
                length, name_at = leb(data, cursor)
                name = data[name_at:name_at + length].decode()
                _, index_end = leb(data, name_at + length + 1)
                if name in keep:
                    entries.append(data[cursor:index_end])
                    kept.add(name)
                cursor = index_end
            body = uleb(len(entries)) + b"".join(entries)
            out += bytes([7]) + uleb(len(body)) + body
        else:
            out += data[at:end]
        at = end
    if kept != keep:
        sys.exit(f"{source}: no export {sorted(keep - kept)}")
    open(target, "wb").write(out)


main()
