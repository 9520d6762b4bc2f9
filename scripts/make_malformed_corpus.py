#!/usr/bin/env python3
"""Writes the malformed-input corpus under Tests/PlacesCostKitTests/Fixtures/Malformed/.

Each case is a clean log with malformed records injected (or a clean log with a byte-level
quirk: a byte-order mark, CRLF line ends, no final newline). `manifest.json` lists, for every
case, its format, the clean log it must analyze like, and the lines (entries, for HAR) that
must be rejected; `MalformedCorpusTests` checks each, and `scripts/fuzz.sh` seeds the fuzzers
with these files. The clean logs come from `placescost generate --searches 12 --seed 7` and the
first entries of SampleLogs/har/web-app.har, so the corpus is reproducible:

    swift build && python3 scripts/make_malformed_corpus.py .build/debug/placescost
"""
import json
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..")
OUT = os.path.join(ROOT, "Tests/PlacesCostKitTests/Fixtures/Malformed")
cases = []


def write(relative, data):
    path = os.path.join(OUT, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def lines_case(fmt, name, clean, injected, ext, note=""):
    """`injected`: [(after clean line index, bad line bytes, kind)]; lines are 1-based in the output."""
    out = []
    rejected = []
    inserts = sorted(injected, key=lambda item: item[0])
    position = 0
    for index, line in enumerate(clean):
        out.append(line)
        while position < len(inserts) and inserts[position][0] == index:
            out.append(inserts[position][1])
            rejected.append({"line": len(out), "kind": inserts[position][2]})
            position += 1
    relative = f"{fmt}/{name}.{ext}"
    write(relative, b"\n".join(out) + b"\n")
    cases.append({"file": relative, "format": fmt, "clean": f"{fmt}/clean.{ext}", "rejected": rejected, "note": note})


def tail_case(fmt, name, clean, tail, kind, ext, note):
    """The clean log followed by one malformed last record (`tail`, written as is)."""
    relative = f"{fmt}/{name}.{ext}"
    write(relative, b"\n".join(clean) + b"\n" + tail)
    cases.append({"file": relative, "format": fmt, "clean": f"{fmt}/clean.{ext}",
                  "rejected": [{"line": len(clean) + 1, "kind": kind}], "note": note})


def quirk_case(fmt, name, data, ext, note):
    relative = f"{fmt}/{name}.{ext}"
    write(relative, data)
    cases.append({"file": relative, "format": fmt, "clean": f"{fmt}/clean.{ext}", "rejected": [], "note": note})


def generated(engine, fmt):
    text = subprocess.run([engine, "generate", "--searches", "12", "--seed", "7", "--format", fmt],
                          check=True, capture_output=True).stdout
    return text.rstrip(b"\n").split(b"\n")


def jsonl(engine):
    clean = generated(engine, "jsonl")
    write("jsonl/clean.jsonl", b"\n".join(clean) + b"\n")
    record = clean[3]
    bad = [
        (2, record[: len(record) // 2], "truncated JSON"),
        (5, b'{"timestamp":"2026-10-02T03:48:40.000Z","api":"autocomplete","input":"Ga\xff\xferden"}', "invalid UTF-8"),
        (7, b'{"timestamp":"2026-10-02T03:48:40.000Z","api":"autocomplete","input":"a\x00b"}', "NUL byte"),
        (8, b"\x00" * 40, "NUL bytes"),
        (10, b'{"timestamp":true,"api":"autocomplete"}', "wrong type: timestamp"),
        (11, b'{"timestamp":"2026-10-02T03:48:40.000Z","api":42}', "wrong type: api"),
        (12, b'{"timestamp":"2026-10-02T03:48:40.000Z","api":"autocomplete","session_token":123}', "wrong type: token"),
        (13, b'{"timestamp":"2026-10-02T03:48:40.000Z","api":"place_details","fields":"name,rating"}', "wrong type: fields"),
        (15, b'{"timestamp":"2026-13-02T03:48:40.000Z","api":"autocomplete"}', "timestamp out of range: month"),
        (16, b'{"timestamp":"2026-02-30T03:48:40.000Z","api":"autocomplete"}', "timestamp out of range: day"),
        (17, b'{"timestamp":"2026-10-02T25:48:40.000Z","api":"autocomplete"}', "timestamp out of range: hour"),
        (18, b'{"timestamp":99999999999999999999,"api":"autocomplete"}', "timestamp out of range: epoch"),
        (20, b'{"api":"autocomplete","input":"Ga"}', "missing timestamp"),
        (21, b'{"timestamp":"2026-10-02T03:48:40.000Z"}', "missing api"),
        (22, b'["2026-10-02T03:48:40.000Z","autocomplete"]', "not an object"),
        (23, b'{"timestamp":"2026-10-02T03:48:40.000Z","api":"autocomplete"} trailing', "text after the object"),
        (25, b'{"timestamp":"2026-10-02T03:48:40.000Z","api":"autocomplete",', "truncated JSON"),
        (30, b"\xef\xbb\xbf" + clean[30], "byte-order mark in the middle of a file"),
    ]
    lines_case("jsonl", "injected", clean, bad, "jsonl", note="seventeen kinds of malformed record among clean ones")
    quirk_case("jsonl", "bom", b"\xef\xbb\xbf" + b"\n".join(clean) + b"\n", "jsonl", "a UTF-8 byte-order mark before the first record")
    quirk_case("jsonl", "crlf", b"\r\n".join(clean) + b"\r\n", "jsonl", "CRLF line ends")
    quirk_case("jsonl", "no-final-newline", b"\n".join(clean), "jsonl", "the last line has no newline")
    quirk_case("jsonl", "blank-lines", b"\n\n".join(clean) + b"\n  \n", "jsonl", "blank lines between records")
    # A file cut off mid-record, as a crashed exporter leaves it: the partial last line is rejected.
    tail_case("jsonl", "cut-off", clean, clean[0][:37], "truncated JSON", "jsonl", "the file ends mid-record")
    tail_case("jsonl", "nul-padding", clean, b"\x00" * 4096, "NUL bytes", "jsonl", "NUL padding after a crash")
    write("jsonl/empty.jsonl", b"")


def csv(engine):
    clean = generated(engine, "csv")
    write("csv/clean.csv", b"\n".join(clean) + b"\n")
    bad = [
        (3, b'2026-10-02T03:48:40.000Z,autocomplete,,"Gar,,,legacy,u-000006,android,OK', "unbalanced quote"),
        (6, b"2026-10-02T03:48:40.000Z,autocomplete,,Ga", "too few cells"),
        (8, b"2026-10-02T03:48:40.000Z,autocomplete,,Ga\xff,,,legacy,u-000006,android,OK", "invalid UTF-8"),
        (9, b"2026-10-02T03:48:40.000Z,autocomplete,,G\x00a,,,legacy,u-000006,android,OK", "NUL byte"),
        (11, b"2026-10-32T03:48:40.000Z,autocomplete,,Ga,,,legacy,u-000006,android,OK", "timestamp out of range: day"),
        (12, b"yesterday,autocomplete,,Ga,,,legacy,u-000006,android,OK", "not a timestamp"),
        (14, b",autocomplete,,Ga,,,legacy,u-000006,android,OK", "missing timestamp"),
        (15, b"2026-10-02T03:48:40.000Z,,,Ga,,,legacy,u-000006,android,OK", "missing api"),
        (17, b'2026-10-02T03:48:40.000Z,autocomplete,,"Ga"x,,,legacy,u-000006,android,OK', "text after a quoted cell"),
    ]
    lines_case("csv", "injected", clean, bad, "csv", note="nine kinds of malformed row among clean ones")
    quirk_case("csv", "bom", b"\xef\xbb\xbf" + b"\n".join(clean) + b"\n", "csv", "a byte-order mark before the header, as Excel writes")
    quirk_case("csv", "crlf", b"\r\n".join(clean) + b"\r\n", "csv", "CRLF line ends")
    quirk_case("csv", "no-final-newline", b"\n".join(clean), "csv", "the last line has no newline")
    # An unbalanced quote in the last row: reported where it opens, nothing else lost.
    tail_case("csv", "open-quote-at-end", clean, b'2026-10-02T03:48:40.000Z,autocomplete,,"Gar\n', "unbalanced quote", "csv",
              "a quote still open at the end of the file")
    write("csv/empty.csv", b"")


def access_log(engine):
    clean = generated(engine, "access-log")
    write("access-log/clean.log", b"\n".join(clean) + b"\n")
    ip = b'203.0.113.9 - u-000077 '
    bad = [
        (2, ip + b'[02/Oct/2026:03:48:40 +0000] "GET /maps/api/place/autocomplete/json?input=Ga HTTP/1.1', "request cut off"),
        (4, ip + b'[02/Oct/2026:03:48:40 +0000] "\\x16\\x03\\x01\\x00\\xF1\\x01\\x00" 400 157 "-" "-"', "TLS bytes instead of a request"),
        (6, ip + b'[02/Oct/2026:03:48:40 +0000] "GET" 400 0 "-" "-"', "request without a path"),
        (8, ip + b'[32/Oct/2026:03:48:40 +0000] "GET /maps/api/place/autocomplete/json?input=Ga HTTP/1.1" 200 12 "-" "-"', "time out of range"),
        (10, ip + b'[02/Oct/2026:03:48:40 +0000] "GET /maps/api/place/autocomplete/json?input=G\xffa HTTP/1.1" 200 12 "-" "-"', "invalid UTF-8"),
        (12, b"203.0.113.9 - u-000077 [02/Oct/2026:03:4", "line cut off"),
        (14, b"\x00" * 30, "NUL bytes"),
        (16, b"\x00" * 64 + clean[16], "NUL padding before a good line"),
        (18, ip + b'[02/Oct/2026:03:48:40 +0000] "GET /maps/api/place/autocomplete/json?input=G\x00a HTTP/1.1" 200 12 "-" "-"', "NUL byte"),
    ]
    lines_case("access-log", "injected", clean, bad, "log", note="nine kinds of broken line among clean ones")
    quirk_case("access-log", "crlf", b"\r\n".join(clean) + b"\r\n", "log", "CRLF line ends")
    quirk_case("access-log", "no-final-newline", b"\n".join(clean), "log", "the last line has no newline")


def har():
    with open(os.path.join(ROOT, "SampleLogs/har/web-app.har"), encoding="utf-8") as f:
        document = json.load(f)
    entries = document["log"]["entries"][:30]
    for entry in entries:
        entry["response"]["content"]["text"] = "{}"

    def render(items, raw_items=()):
        parts = [json.dumps(entry, ensure_ascii=False).encode() for entry in items]
        for index, raw in raw_items:
            parts.insert(index, raw)
        head = json.dumps({"log": {"version": "1.2", "creator": {"name": "corpus", "version": "1"}}})[:-2].encode()
        return head + b', "entries": [\n' + b",\n".join(parts) + b"\n]}}\n"

    write("har/clean.har", render(entries))
    good = json.dumps(entries[4], ensure_ascii=False).encode()
    bad_time = good.replace(entries[4]["startedDateTime"].encode(), b"2026-10-01T25:61:00Z")
    injected = [(5, bad_time), (9, b"42"), (12, b'{"startedDateTime": "2026-10-01T00:50:00.000Z", "request": "GET"}')]
    write("har/injected.har", render(entries, injected))
    cases.append({"file": "har/injected.har", "format": "har", "clean": "har/clean.har",
                  "rejected": [{"line": 7, "kind": "timestamp out of range"}, {"line": 11, "kind": "entry not an object"},
                               {"line": 14, "kind": "request not an object"}],
                  "note": "three malformed entries among clean ones (entries 6, 10 and 13 of log.entries; entry N starts on line N + 1)"})
    # Cut off mid-entry: the entries before the cut are the clean log.
    whole = render(entries)
    cut = whole.index(json.dumps(entries[20], ensure_ascii=False).encode()) + 120
    write("har/cut-off.har", whole[:cut])
    write("har/cut-off-clean.har", render(entries[:20]))
    cases.append({"file": "har/cut-off.har", "format": "har", "clean": "har/cut-off-clean.har",
                  "rejected": [{"line": 22, "kind": "cut off mid-entry"}], "note": "the capture ends inside entry 21, which starts on line 22"})
    quirk_case("har", "bom", b"\xef\xbb\xbf" + whole, "har", "a byte-order mark before the document")


def fuzz_seeds():
    """Seeds for the billing and pricing fuzzers: the real files and broken copies."""
    with open(os.path.join(ROOT, "SampleLogs/billing/cost-table-2026-10.csv"), "rb") as f:
        bill = f.read()
    write("billing/cost-table.csv", bill)
    write("billing/cost-table-cut.csv", bill[: len(bill) // 2])
    for name in ["legacy-list", "places-new-2025"]:
        with open(os.path.join(ROOT, f"Pricing/{name}.json"), "rb") as f:
            table = f.read()
        write(f"pricing/{name}.json", table)
    write("pricing/cut.json", table[: len(table) // 3])


def main():
    engine = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/placescost")
    jsonl(engine)
    csv(engine)
    access_log(engine)
    har()
    fuzz_seeds()
    manifest = {"schema": "placescost.malformed-corpus/1", "cases": cases}
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")


main()
