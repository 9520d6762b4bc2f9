#!/usr/bin/env python3
"""Writes the gzip fixtures under Tests/PlacesCostKitTests/Fixtures/Compressed/, byte for byte.

Each is made from a clean log of the malformed corpus (Fixtures/Malformed/<format>/clean.*),
compressed with Python's gzip module at level 9 with no name and no time in the header, so the
bytes depend only on the clean logs and zlib's deflate. manifest.json says, for each fixture,
which clean log it holds and what reading it must give:

- "lines": how many lines of the clean log are read (all of them unless the data is damaged);
- "warning": null, or the line and the start of the reason of the one warning the damage gives.

The damaged cases are found, not hand-made: the cut is at 60% of the compressed bytes, and the
flipped byte is the first from the middle whose damage zlib reports before it has written any
byte that differs from the clean log (so the lines before the damage are the clean log's own).

Run from the repository root:  python3 scripts/make_compressed_fixtures.py
"""

import gzip
import json
import os
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Tests", "PlacesCostKitTests", "Fixtures", "Malformed")
OUT = os.path.join(ROOT, "Tests", "PlacesCostKitTests", "Fixtures", "Compressed")

CLEAN = {
    "jsonl": "jsonl/clean.jsonl",
    "csv": "csv/clean.csv",
    "access-log": "access-log/clean.log",
    "har": "har/clean.har",
}


def compress(data):
    return gzip.compress(data, compresslevel=9, mtime=0)


def lines_of(data):
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


def inflate_until_damage(data):
    """The whole lines zlib gives before it finds damage (the tool drops the partial line at the
    damage), and whether it found any: fed a byte at a time, so the error comes with what was
    decoded before it."""
    stream = zlib.decompressobj(15 + 32)
    out = b""
    for i in range(len(data)):
        try:
            out += stream.decompress(data[i:i + 1])
        except zlib.error:
            return out[: out.rfind(b"\n") + 1], True
    return out[: out.rfind(b"\n") + 1], False


def main():
    os.makedirs(OUT, exist_ok=True)
    clean = {}
    for fmt, path in CLEAN.items():
        with open(os.path.join(CORPUS, path), "rb") as f:
            clean[fmt] = f.read()

    cases = []

    def add(name, fmt, data, lines, warning=None):
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
        cases.append({"file": name, "format": fmt, "clean": CLEAN[fmt], "lines": lines, "warning": warning})

    # Each format, compressed whole.
    extension = {"jsonl": "jsonl", "csv": "csv", "access-log": "log", "har": "har"}
    for fmt in CLEAN:
        add("clean.%s.gz" % extension[fmt], fmt, compress(clean[fmt]), lines_of(clean[fmt]))

    # Two members, as `cat a.gz b.gz` makes, cut inside a line: the line runs on into the second.
    text = clean["jsonl"]
    cut = len(text) // 2
    assert text[cut - 1:cut] != b"\n"
    add("two-members.jsonl.gz", "jsonl", compress(text[:cut]) + compress(text[cut:]), lines_of(text))

    # An empty member first, as gzip of an empty rotated log gives.
    add("empty-member.csv.gz", "csv", compress(b"") + compress(clean["csv"]), lines_of(clean["csv"]))

    # Cut short at 60% of the bytes.
    whole = compress(clean["access-log"])
    short = whole[: len(whole) * 6 // 10]
    kept, _ = inflate_until_damage(short)
    assert clean["access-log"].startswith(kept)
    add("cut-short.log.gz", "access-log", short, kept.count(b"\n"),
        {"line": kept.count(b"\n") + 1, "reason": "the gzip data ends before its last member does"})

    # The CRC-32 of the trailer wrong: every line is read, the check fails at the end.
    whole = bytearray(compress(clean["jsonl"]))
    whole[-8] ^= 0xFF
    add("bad-check.jsonl.gz", "jsonl", bytes(whole), lines_of(clean["jsonl"]),
        {"line": lines_of(clean["jsonl"]) + 1, "reason": "the gzip data is damaged (zlib: incorrect data check)"})

    # A byte in the middle of the deflate data damaged.
    whole = compress(clean["csv"])
    for offset in range(len(whole) // 2, len(whole) - 8):
        damaged = bytearray(whole)
        damaged[offset] ^= 0xFF
        kept, found = inflate_until_damage(bytes(damaged))
        if found and clean["csv"].startswith(kept) and kept.count(b"\n") > 10:
            add("damaged.csv.gz", "csv", bytes(damaged), kept.count(b"\n"),
                {"line": kept.count(b"\n") + 1, "reason": "the gzip data is damaged (zlib: "})
            break
    else:
        raise SystemExit("no byte of the CSV's gzip data gives a clean damage")

    # Bytes after the last member that are not gzip (padding): ignored, with a warning.
    add("trailing-zeros.log.gz", "access-log", compress(clean["access-log"]) + bytes(8), lines_of(clean["access-log"]),
        {"line": lines_of(clean["access-log"]) + 1, "reason": "the file goes on after its gzip data"})

    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump({"cases": cases}, f, indent=2, sort_keys=True)
        f.write("\n")
    print("wrote %d fixtures to %s" % (len(cases), os.path.relpath(OUT, ROOT)))


if __name__ == "__main__":
    main()
