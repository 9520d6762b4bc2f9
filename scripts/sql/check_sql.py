#!/usr/bin/env python3
"""Checks `placescost sql` against the engine: DuckDB runs the DuckDB SQL, sqlglot parses the BigQuery SQL.

Usage:
    python3 scripts/sql/check_sql.py [--engine PATH] [--venv DIR] [--quick] [--require]

For each log (SampleLogs/, `placescost generate` logs over one and over two months, and
scripts/reference/random_log.py logs of every profile, written without malformed records, some
as CSV loaded by read_csv, seeded edge-case logs, and privacy-first logs that record the typed
length as input_length instead of input, each beside the same log with the text) and
each bundled price table, the log is loaded into a DuckDB table `calls` with the load command
docs/warehouse.md gives (scripts/sql/load_duckdb.sql), `placescost sql --dialect duckdb --pricing T`
is run on it, and its row is compared with `placescost analyze FILE --report json --pricing T`:
searches_total, searches_completed, searches_abandoned, avg_requests, the six anomaly counts
and every cost_<id>_d<k> against strategies[].list_cost_usd (equal within 1e-9 absolute or
relative; the SQL rounds to 1e-6 as report.json does). `--by-month` rows are compared with
the months of `analyze --report csv` (costs.csv; each row is rounded to 1e-6, so within
1e-5) and, for single-month logs, with strategies[].cost_usd. Some logs are also run with
--session-timeout 60 --user-gap 30 and --delays 2,8 (the SQL must price 1..4 too, as analyze),
loaded with read_json_auto (TIMESTAMPTZ and UUID columns), or with an order column.

The BigQuery SQL of several option sets, and the golden file of the Swift tests, are parsed by
sqlglot (read="bigquery"); the BigQuery SQL is also transpiled to DuckDB by sqlglot and run on
some logs, where its numbers must equal the engine's too (with --order-column when the log has
calls of one token or user at the same time, since a BigQuery table has no row order).

The script needs the Python packages duckdb and sqlglot: it runs itself again inside a venv
(default .venv-sql/ in the repository) after installing them there with pip. When the venv
cannot be made or pip cannot reach the registry, it says so and exits 0 without checking
(`.ci/run` prints that message), unless --require is given.
Ends with a line 'N passed, M failed'; exits 1 on any mismatch.
"""

import argparse
import csv
import io
import json
import os
import subprocess
import shutil
import sys
import tempfile
import venv

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
RANDOM_LOG = os.path.join(ROOT, "scripts", "reference", "random_log.py")
LOAD_SQL = os.path.join(HERE, "load_duckdb.sql")
GOLDEN_DIR = os.path.join(ROOT, "Tests", "PlacesCostKitTests", "Fixtures", "golden", "sql")
PACKAGES = ["duckdb", "sqlglot"]
TABLES = ["legacy-list", "legacy-2018", "legacy-2025", "places-new-2025"]
COUNTS = {
    "searches_total": ("searches", "total"), "searches_completed": ("searches", "completed"),
    "searches_abandoned": ("searches", "abandoned"), "avg_requests": ("searches", "avg_requests"),
    "token_reused": ("anomalies", "token_reused"), "expired": ("anomalies", "expired"),
    "details_without_autocomplete": ("anomalies", "details_without_autocomplete"),
    "no_token_requests": ("anomalies", "no_token_requests"),
    "fields_unspecified": ("anomalies", "fields_unspecified"),
    "one_request_sessions": ("anomalies", "one_request_sessions"),
}
PROFILES = ["random", "address-short", "address-delay", "address-long", "details", "mix"]


# ----------------------------------------------------------------------------- environment

def have_packages():
    try:
        import duckdb  # noqa: F401
        import sqlglot  # noqa: F401
        return True
    except ImportError:
        return False


def skip(message, require):
    if require:
        print("check_sql.py: error: cannot run the SQL check because %s" % message)
        sys.exit(1)
    print("check_sql.py: skipping the SQL check because %s" % message)
    sys.exit(0)


def ensure_venv(args):
    """Runs the script again inside a venv holding duckdb and sqlglot (made on first use)."""
    if have_packages():
        return
    if os.environ.get("PLACESCOST_SQL_VENV_ACTIVE") == "1":
        skip("duckdb and sqlglot are still missing inside %s" % args.venv, args.require)
    python = os.path.join(args.venv, "bin", "python")
    if not os.path.exists(python):
        try:
            venv.EnvBuilder(with_pip=True).create(args.venv)
        except Exception as error:   # no ensurepip, read-only tree, ...
            skip("a venv cannot be made in %s (%s)" % (args.venv, error), args.require)
    check = subprocess.run([python, "-c", "import duckdb, sqlglot"], capture_output=True)
    if check.returncode != 0:
        print("check_sql.py: installing %s into %s with pip" % (" ".join(PACKAGES), args.venv))
        install = subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                                  "--retries", "2", "--timeout", "30"]
                                 + PACKAGES, capture_output=True, text=True)
        if install.returncode != 0:
            tail = (install.stderr or install.stdout).strip().splitlines()[-1:] or ["no output"]
            skip("pip could not install %s (%s)" % (" ".join(PACKAGES), tail[0]), args.require)
    env = dict(os.environ, PLACESCOST_SQL_VENV_ACTIVE="1")
    os.execve(python, [python, os.path.abspath(__file__)] + sys.argv[1:], env)


# ----------------------------------------------------------------------------- running things

class Engine:
    def __init__(self, path):
        self.path = path

    def run(self, args, cwd=ROOT):
        done = subprocess.run([self.path] + args, capture_output=True, text=True, cwd=cwd)
        if done.returncode != 0:
            raise RuntimeError("placescost %s: exit %d: %s" % (" ".join(args), done.returncode, done.stderr.strip()))
        return done.stdout

    def sql(self, dialect, options):
        return self.run(["sql", "--dialect", dialect, "--quiet"] + options)

    def report(self, path, table, options):
        args = ["analyze"] + ([path] if path else []) + ["--report", "json", "--pricing", table, "--quiet"]
        return json.loads(self.run(args + options))

    def costs_csv(self, path, table, options):
        args = ["analyze"] + ([path] if path else []) + ["--report", "csv", "--pricing", table, "--quiet"]
        return list(csv.DictReader(io.StringIO(self.run(args + options))))


def load(con, path, how):
    """Loads a canonical JSON Lines log into table `calls`: as docs/warehouse.md says, or other ways."""
    con.execute("DROP TABLE IF EXISTS calls")
    if how == "readme":
        with open(LOAD_SQL) as handle:
            con.execute(handle.read().replace("'log.jsonl'", quote(path)))
    elif how == "auto":
        # read_json_auto infers TIMESTAMPTZ, UUID or JSON columns, keeps sessionToken apart and
        # leaves out keys no record has (project, here): the DuckDB SQL copes with all of it.
        con.execute("CREATE TABLE calls AS SELECT * FROM read_json_auto(%s)" % quote(path))
    elif how == "csv":
        # A CSV log as read_csv_auto types it: `fields` is one cell of text (a|b or a,b).
        con.execute("CREATE TABLE calls AS SELECT * FROM read_csv_auto(%s)" % quote(path))
    elif how == "csv-text":
        con.execute("CREATE TABLE calls AS SELECT * FROM read_csv(%s, header = true, all_varchar = true)" % quote(path))
    elif how == "ordered":
        # The documented load, then the rows shuffled with a line number kept in column `line`.
        load(con, path, "readme")
        con.execute("CREATE TABLE shuffled AS SELECT row_number() OVER () AS line, * FROM calls")
        con.execute("DROP TABLE calls")
        con.execute("CREATE TABLE calls AS SELECT * FROM shuffled ORDER BY hash(line)")
        con.execute("DROP TABLE shuffled")
    else:
        raise ValueError(how)


def quote(path):
    return "'" + path.replace("'", "''") + "'"


def run_sql(con, sql):
    cursor = con.execute(sql)
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def close(a, b, tolerance=1e-9):
    if a is None or b is None:
        return a is b
    return abs(a - b) <= tolerance or abs(a - b) <= tolerance * max(abs(a), abs(b))


def compare_summary(row, report):
    problems = []
    for column, (section, key) in COUNTS.items():
        want = report[section][key]
        got = row.get(column)
        if isinstance(want, float) or column == "avg_requests":
            if not close(float(got), float(want)):
                problems.append("%s: sql %r, engine %r" % (column, got, want))
        elif got != want:
            problems.append("%s: sql %r, engine %r" % (column, got, want))
    costs = 0
    for entry in report["strategies"]:
        column = "cost_%s_d%d" % (entry["id"], entry["delay"])
        costs += 1
        if column not in row:
            problems.append("%s: missing from the SQL row" % column)
        elif not close(row[column], entry["list_cost_usd"]):
            problems.append("%s: sql %r, engine %r" % (column, row[column], entry["list_cost_usd"]))
    extra = [c for c in row if c.startswith("cost_") and c not in
             {"cost_%s_d%d" % (e["id"], e["delay"]) for e in report["strategies"]}]
    if extra:
        problems.append("columns the engine does not price: %s" % ", ".join(extra))
    return problems


def compare_by_month(rows, costs_rows, report):
    problems = []
    engine = {}
    for line in costs_rows:
        key = (line["month"], "cost_%s_d%s" % (line["strategy"], line["delay"]))
        engine[key] = engine.get(key, 0.0) + float(line["cost_usd"])
    months = sorted({m for m, _ in engine})
    if [r["month"] for r in rows] != months:
        problems.append("months: sql %r, engine %r" % ([r["month"] for r in rows], months))
        return problems
    for row in rows:
        for column, value in row.items():
            if column == "month":
                continue
            want = engine.get((row["month"], column), 0.0)
            if not close(value, want, 1e-5):
                problems.append("%s %s: sql %r, engine costs.csv %r" % (row["month"], column, value, want))
    if len(rows) == 1:   # one month: the report's cost_usd, unrounded per SKU
        for entry in report["strategies"]:
            column = "cost_%s_d%d" % (entry["id"], entry["delay"])
            if not close(rows[0].get(column), entry["cost_usd"]):
                problems.append("%s: sql %r, engine cost_usd %r" % (column, rows[0].get(column), entry["cost_usd"]))
    return problems


def has_ties(path):
    """Whether two calls of one (project, token), or of one token-less (project, user), share a time.

    Read with scripts/reference/reference.py, the independent reader of canonical logs.
    """
    sys.path.insert(0, os.path.join(ROOT, "scripts", "reference"))
    import reference
    with open(path, "rb") as handle:
        data = handle.read()
    seen = set()
    for seq, obj in enumerate(reference.jsonl_objects(data)):
        if isinstance(obj, reference.Reject):
            continue
        try:
            call = reference.make_call(obj, seq, False)
        except reference.Reject:
            continue
        key = (call.project, "token", call.token) if call.token is not None else (call.project, "user", call.user)
        if call.token is None and call.user is None:
            continue
        if (key, call.time) in seen:
            return True
        seen.add((key, call.time))
    return False


# ----------------------------------------------------------------------------- edge-case logs

FUZZ_APIS = (["autocomplete"] * 8 + ["place_details"] * 4 + [
    "geocoding", "address_validation", "query_autocomplete", "find_place", "text_search", "nearby_search",
    "AUTOCOMPLETE", "findAutocompletePredictions", "AutocompletePlaces", "fetchPlace", "GetPlace",
    "Place_Details", "Geocode", "Address_Validation"])
FUZZ_FIELDS = [
    None, [], [""], [" ", "\t"], ["*"], [" * "], ["places.displayName"], ["PLACES.formattedAddress"],
    ["geometry/location"], ["/viewport"], ["servesBeer"], ["allowsDogs"], ["goodForChildren"], ["unknownField"],
    ["name"], ["rating"], ["website"], ["reviews"], ["formatted_address", "\tname "], ["id"], ["photos"],
    ["displayName", "rating", "reviews"], ["currentOpeningHours"], ["Formatted_Address", "Geometry"],
    ["formattedAddress", "location"], ["place_id", "geometry"], ["addressComponents", "viewport", "types"],
    ["businessStatus"], ["priceLevel"], ["opening_hours", "formatted_phone_number"], ["takeout", "id"],
    # The legacy service's older singular names and New field masks written as proto paths.
    ["address_component", "geometry"], ["photo"], ["name", "review"], ["permanently_closed"],
    ["display_name", "regular_opening_hours"], ["short_formatted_address", "location"], ["good_for_children"],
    ["places.user_rating_count"],
]
FUZZ_INPUTS = [None, "", " ", "a", "ab", "abc", "abcd", "abcde", "abcdef", "abcdefg", "h\u00e9llo",
               "e\u0301", "\U0001F355\U0001F355", "\u6771\u4eac\u99c5", "M\u00fcnchen Hbf", "a, b|c"]
FUZZ_STEPS_S = [0, 0, 0.001, 0.4, 2, 10, 30, 59.999, 60, 60.001, 61, 90, 120, 179.999, 180, 180.001, 200]


def fuzz_time_text(rng, t_us):
    """One of the timestamp spellings analyze accepts, for the instant t_us."""
    import datetime
    style = rng.random()
    if t_us % 1000 == 0 and style < 0.15:
        return t_us // 1000 if rng.random() < 0.5 else str(t_us // 1000)
    offset = rng.choice([0, 0, 120, -330, 345]) if style < 0.5 else 0
    moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(microseconds=t_us + offset * 60 * 1000000)
    text = moment.strftime("%Y-%m-%d") + rng.choice(["T", "T", "t", " "]) + moment.strftime("%H:%M:%S")
    digits = rng.choice([0, 3, 6, 6, 9])
    if digits == 0 and moment.microsecond:
        digits = 6
    if digits:
        text += "." + ("%06d" % moment.microsecond + "000")[:digits]
    if offset == 0:
        return text + rng.choice(["Z", "Z", "z", "+00:00"])
    return text + "%s%02d:%02d" % ("+" if offset > 0 else "-", abs(offset) // 60, abs(offset) % 60)


def write_fuzz_log(path, seed, calls, privacy=False):
    """Calls on a few tokens and users with every edge the rules have: ties, the timeout and the
    gap to the microsecond, aliases in any case, odd field masks, empty and combining inputs.

    With `privacy`, the same calls as without, each typed text recorded as its length in code
    points in every way docs/formats.md section 1 allows (privacy_first)."""
    import random
    rng = random.Random(seed)
    tokens = ["tok-%d" % i for i in range(6)] + ["TOK-0", " tok-1"]
    t_us = 1790812800 * 1000000 + rng.randrange(0, 86400) * 1000000
    lines = []
    for _ in range(calls):
        t_us += int(rng.choice(FUZZ_STEPS_S) * 1000000) + (rng.randrange(0, 3) if rng.random() < 0.2 else 0)
        record = {"timestamp": fuzz_time_text(rng, t_us), "api": rng.choice(FUZZ_APIS)}
        token = rng.choice(tokens + [None, None, None, ""])
        if token is not None:
            record["sessionToken" if rng.random() < 0.2 else "session_token"] = token
        user = rng.choice(["u1", "u2", "u3", None, ""])
        if user is not None:
            record["user_id"] = user
        project = rng.choice([None, None, None, "p1", "p2", ""])
        if project is not None:
            record["project"] = project
        text = rng.choice(FUZZ_INPUTS)
        if text is not None or rng.random() < 0.5:
            record["input"] = text
        fields = rng.choice(FUZZ_FIELDS)
        if fields is not None or rng.random() < 0.5:
            record["fields"] = fields
        if rng.random() < 0.1:
            record["platform"] = "ios"
        lines.append(record)
    # Disorder: neighbours swapped now and then (the walks sort by time, ties keep this order).
    for index in range(len(lines) - 1):
        if rng.random() < 0.1:
            lines[index], lines[index + 1] = lines[index + 1], lines[index]
    if privacy:
        lines = privacy_first(lines, random.Random(seed + 1000))
    with open(path, "w", encoding="utf-8") as handle:
        for record in lines:
            handle.write(json.dumps(record, ensure_ascii=rng.random() < 0.5) + "\n")


def privacy_first(records, rng):
    """The records with `input` recorded as `input_length` (code points, as Python's len counts),
    mostly alone and now and then as a string of digits, under the alias inputLength, beside the
    text it agrees with, or left as the text; an absent input as a null, an empty string or no key."""
    out = []
    for record in records:
        record = dict(record)
        if "input" not in record or record["input"] is None:
            record.pop("input", None)
            way = rng.choice(["none", "none", "null", "empty"])
            if way != "none":
                record["input_length"] = None if way == "null" else ""
        else:
            text = record.pop("input")
            way = rng.choice(["number"] * 6 + ["digits", "alias", "both", "text"])
            if way in ("both", "text"):
                record["input"] = text
            if way in ("number", "both"):
                record["input_length"] = len(text)
            elif way == "digits":
                record["input_length"] = str(len(text))
            elif way == "alias":
                record["inputLength"] = len(text)
        out.append(record)
    return out


# ----------------------------------------------------------------------------- the check

class Check:
    def __init__(self, args):
        import duckdb
        self.duckdb = duckdb
        self.engine = Engine(args.engine)
        self.passed = 0
        self.failed = 0
        self.kinds = {}      # kind of comparison -> how many ran
        self.logs = set()
        self.work = tempfile.mkdtemp(prefix="placescost-sql-")
        self.sql_cache = {}

    def sql(self, dialect, options):
        key = (dialect, tuple(options))
        if key not in self.sql_cache:
            self.sql_cache[key] = self.engine.sql(dialect, options)
        return self.sql_cache[key]

    def record(self, name, problems, kind="summary"):
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        if problems:
            self.failed += 1
            print("FAIL %s" % name)
            for problem in problems[:12]:
                print("    " + problem)
            if len(problems) > 12:
                print("    ... %d more" % (len(problems) - 12))
        else:
            self.passed += 1

    def log_case(self, name, path, engine_path=None, tables=TABLES, how="readme", option_sets=((),),
                 by_month=True, bigquery=False):
        """Every table and option set on one log; `engine_path` None = analyze with no path."""
        self.logs.add(path)
        con = self.duckdb.connect()
        try:
            load(con, path, how)
        except Exception as error:
            self.record("%s: load (%s)" % (name, how), ["DuckDB could not load the log: %s" % error])
            return
        order = ["--order-column", "line"] if how == "ordered" else []
        ties = has_ties(path) if bigquery else True
        for table in tables:
            for options in option_sets:
                options = list(options)
                label = "%s [%s, %s%s]" % (name, table, how, (" " + " ".join(options)) if options else "")
                try:
                    report = self.engine.report(engine_path, table, options)
                    rows = run_sql(con, self.sql("duckdb", ["--pricing", table] + order + options))
                    problems = compare_summary(rows[0], report) if len(rows) == 1 else ["%d rows" % len(rows)]
                    self.record(label, problems)
                    if by_month:
                        month_options = [o for o in options if not o.startswith("--delays") and o != "2,8"]
                        month_rows = run_sql(con, self.sql("duckdb", ["--pricing", table, "--by-month"] + order + month_options))
                        report_m = self.engine.report(engine_path, table, month_options)
                        costs_rows = self.engine.costs_csv(engine_path, table, month_options)
                        self.record(label + " --by-month", compare_by_month(month_rows, costs_rows, report_m), "by-month")
                except Exception as error:
                    self.record(label, ["error: %s" % str(error).splitlines()[0]])
                    continue
                if bigquery:
                    try:
                        rows = self.bigquery_via_duckdb(con, table, options + (["--order-column", "line"] if ties else []))
                        self.record(label + " BigQuery SQL via sqlglot", compare_summary(rows[0], report), "bigquery-in-duckdb")
                    except Exception as error:
                        self.record(label + " BigQuery SQL via sqlglot", ["error: %s" % str(error).splitlines()[0]],
                                    "bigquery-in-duckdb")
        con.close()

    def same_report(self, name, path, twin):
        """The engine gives `twin` (the privacy-first form of `path`) the figures of `path`."""
        self.logs.add(twin)
        problems = []
        for table in ("legacy-list", "places-new-2025"):
            ours, theirs = self.engine.report(path, table, []), self.engine.report(twin, table, [])
            for section in ("searches", "anomalies", "strategies"):
                if ours[section] != theirs[section]:
                    problems.append("%s [%s]: the engine's figures differ between the two logs" % (section, table))
        self.record(name, problems, "privacy-twin")

    def month_zone_case(self, path, zone):
        con = self.duckdb.connect()
        load(con, path, "readme")
        for table in ("legacy-2025", "places-new-2025"):
            options = ["--timezone", zone]
            rows = run_sql(con, self.sql("duckdb", ["--pricing", table, "--by-month"] + options))
            report = self.engine.report(path, table, options)
            costs_rows = self.engine.costs_csv(path, table, options)
            self.record("two months in %s [%s] --by-month" % (zone, table),
                        compare_by_month(rows, costs_rows, report), "by-month")
        con.close()

    def bigquery_via_duckdb(self, con, table, options):
        """The BigQuery SQL, transpiled to DuckDB by sqlglot, over a copy of `calls` whose
        `timestamp` is a TIMESTAMPTZ, as BigQuery's TIMESTAMP column is, with the row order in
        column `line` (for logs with ties, given as --order-column)."""
        import sqlglot
        con.execute("""
          CREATE OR REPLACE TABLE calls_typed AS
          SELECT * REPLACE (CASE WHEN regexp_full_match("timestamp", '[0-9]+')
                                 THEN timezone('UTC', make_timestamp(CAST("timestamp" AS BIGINT)
                                      * CASE WHEN CAST("timestamp" AS BIGINT) < 100000000000 THEN 1000000 ELSE 1000 END))
                                 WHEN regexp_full_match("timestamp", '[0-9]+[.][0-9]*')
                                 THEN timezone('UTC', make_timestamp(CAST(round(CAST("timestamp" AS DOUBLE)
                                      * CASE WHEN CAST("timestamp" AS DOUBLE) < 100000000000 THEN 1000000 ELSE 1000 END) AS BIGINT)))
                                 ELSE CAST(upper("timestamp") AS TIMESTAMPTZ) END AS "timestamp"),
                 row_number() OVER () AS line
          FROM calls""")
        bq = self.sql("bigquery", ["--pricing", table, "--table", "calls_typed"] + options)
        return run_sql(con, sqlglot.transpile(bq, read="bigquery", write="duckdb")[0])

    def bigquery_parse(self):
        import sqlglot
        option_sets = [
            [], ["--pricing", "places-new-2025"], ["--pricing", "legacy-2018", "--by-month"],
            ["--pricing", "legacy-2025", "--by-month", "--timezone", "Europe/Paris"],
            ["--table", "my-project.logs.calls", "--order-column", "line", "--delays", "3,5"],
        ]
        for options in option_sets:
            sql = self.sql("bigquery", options)
            try:
                statements = sqlglot.parse(sql, read="bigquery", error_level=sqlglot.ErrorLevel.RAISE)
                problems = [] if len([s for s in statements if s is not None]) == 1 else ["not one statement"]
            except Exception as error:
                problems = ["sqlglot: %s" % str(error).splitlines()[0]]
            self.record("BigQuery SQL parses (%s)" % " ".join(options or ["defaults"]), problems, "parse")
        if os.path.isdir(GOLDEN_DIR):
            for name in sorted(os.listdir(GOLDEN_DIR)):
                if not name.endswith(".sql"):
                    continue
                dialect = "bigquery" if "bigquery" in name else "duckdb"
                text = open(os.path.join(GOLDEN_DIR, name)).read()
                try:
                    sqlglot.parse(text, read=dialect, error_level=sqlglot.ErrorLevel.RAISE)
                    problems = []
                except Exception as error:
                    problems = ["sqlglot: %s" % str(error).splitlines()[0]]
                self.record("golden %s parses as %s" % (name, dialect), problems, "parse")

    def generate(self, name, args):
        path = os.path.join(self.work, name)
        self.engine.run(["generate"] + args + ["--out", path])
        return path

    def random_log(self, seed, profile, searches, form="jsonl"):
        path = os.path.join(self.work, "random-%d-%s.%s" % (seed, profile, form))
        with open(path, "wb") as handle:
            subprocess.run([sys.executable, RANDOM_LOG, "--seed", str(seed), "--searches", str(searches),
                            "--profile", profile, "--format", form, "--malformed-rate", "0"],
                           stdout=handle, check=True)
        with open(path, "rb") as handle:
            data = handle.read()
        if data.startswith(b"\xef\xbb\xbf"):   # DuckDB's readers take a byte order mark for data
            with open(path, "wb") as handle:
                handle.write(data[3:])
        return path

    def run(self, quick):
        short = [("--session-timeout", "60", "--user-gap", "30")]
        delays = [("--delays", "2,8")]
        # 1. SampleLogs/: what `analyze` reads with no path.
        sample = self.engine.report(None, "legacy-list", [])
        files = [os.path.join(ROOT, f) for f in sample["input"]["files"]]
        if len(files) == 1:
            self.log_case("SampleLogs", files[0], None, option_sets=[(), short[0], delays[0]], bigquery=True)
            self.log_case("SampleLogs", files[0], None, tables=["legacy-list"], how="auto", by_month=False)
            self.log_case("SampleLogs", files[0], None, tables=["legacy-list"], how="ordered", by_month=False)
        else:
            self.record("SampleLogs", ["analyze read %d files; the check loads one" % len(files)])
        # 2. Realistic logs of `placescost generate`.
        seeds = [1, 2] if quick else [1, 2, 3, 4, 5, 6]
        for seed in seeds:
            path = self.generate("generate-%d.jsonl" % seed, ["--searches", "1500", "--seed", str(seed)])
            options = [()] if seed > 2 else [(), short[0]]
            self.log_case("generate seed %d" % seed, path, path, option_sets=options, bigquery=seed <= 2)
            if seed == 1:
                self.log_case("generate seed 1", path, path, tables=["legacy-list"], how="auto", by_month=False)
        two_months = self.generate("generate-2-months.jsonl", ["--searches", "3000", "--seed", "9",
                                                               "--start", "2026-10-20", "--days", "20"])
        self.log_case("generate over two months", two_months, two_months)
        big = self.generate("generate-big.jsonl", ["--searches", "20000" if quick else "60000", "--seed", "11"])
        self.log_case("generate %s searches" % ("20000" if quick else "60000"), big, big,
                      tables=["legacy-list", "places-new-2025"])
        # 3. Adversarial logs of random_log.py, every profile (no malformed records: the table
        #    holds canonical calls; the engine skips malformed records, a warehouse load fails).
        count = 2 if quick else 8
        for index, profile in enumerate(PROFILES):
            for seed in range(1, count + 1):
                path = self.random_log(seed * 10 + index, profile, 150)
                options = [()] + ([short[0]] if seed % 3 == 0 else []) + ([delays[0]] if seed % 4 == 0 else [])
                self.log_case("random_log %s seed %d" % (profile, seed * 10 + index), path, path,
                              option_sets=options, by_month=seed % 2 == 1, bigquery=seed == 1)
                if seed == 2:
                    self.log_case("random_log %s seed %d" % (profile, seed * 10 + index), path, path,
                                  tables=["legacy-list"], how="auto", by_month=False)
        # 3b. The same kinds of logs as CSV, loaded by read_csv_auto or as text: `fields` is one
        #     cell, split as analyze splits it.
        csv_log = self.generate("generate-3.csv", ["--searches", "1500", "--seed", "3", "--format", "csv"])
        for how in ("csv", "csv-text"):
            self.log_case("generate seed 3 as CSV", csv_log, csv_log, tables=["legacy-list", "places-new-2025"],
                          how=how, by_month=False)
        for index, profile in enumerate(PROFILES[: 2 if quick else len(PROFILES)]):
            path = self.random_log(40 + index, profile, 150, "csv")
            self.log_case("random_log %s seed %d as CSV" % (profile, 40 + index), path, path,
                          tables=["legacy-list"], how="csv" if index % 2 == 0 else "csv-text", by_month=False)
        # 4. Edge cases: few tokens and users, times on the timeout and the gap, odd masks and inputs.
        for seed in range(1, 4 if quick else 13):
            path = os.path.join(self.work, "edges-%d.jsonl" % seed)
            write_fuzz_log(path, seed, 400)
            options = [(), short[0]] if seed % 2 == 0 else [()]
            self.log_case("edge cases seed %d" % seed, path, path, option_sets=options,
                          tables=TABLES if seed % 3 == 1 else ["legacy-list", "places-new-2025"],
                          by_month=seed % 3 == 1, bigquery=seed % 2 == 1)
            if seed % 3 == 2:
                self.log_case("edge cases seed %d" % seed, path, path, tables=["legacy-list"], how="auto", by_month=False)
        # 4b. Privacy-first logs (docs/formats.md section 1): the typed length recorded as
        #     input_length, not as input. Each must give the engine's figures at every delay, as
        #     must the same log with the text; the engine gives both the same figures.
        plain = self.generate("generate-4-with-input.jsonl", ["--searches", "3000", "--seed", "4"])
        private = self.generate("generate-4-privacy.jsonl", ["--searches", "3000", "--seed", "4", "--privacy"])
        self.same_report("generate seed 4, privacy-first and with input", plain, private)
        for name, path in (("generate seed 4 with input", plain), ("generate seed 4 privacy-first", private)):
            self.log_case(name, path, path, option_sets=[(), short[0], delays[0]], bigquery=True)
        self.log_case("generate seed 4 privacy-first", private, private, tables=["legacy-list"], how="auto", by_month=False)
        private_csv = self.generate("generate-3-privacy.csv", ["--searches", "1500", "--seed", "3", "--format", "csv", "--privacy"])
        for how in ("csv", "csv-text"):
            self.log_case("generate seed 3 privacy-first as CSV", private_csv, private_csv,
                          tables=["legacy-list", "places-new-2025"], how=how, by_month=False)
        for seed in range(1, 3 if quick else 7):
            path = os.path.join(self.work, "edges-%d-privacy.jsonl" % seed)
            write_fuzz_log(path, seed, 400, privacy=True)
            self.same_report("edge cases seed %d, privacy-first and with input" % seed,
                             os.path.join(self.work, "edges-%d.jsonl" % seed), path)
            self.log_case("edge cases seed %d privacy-first" % seed, path, path, option_sets=[(), delays[0]],
                          tables=["legacy-list", "places-new-2025"], by_month=seed % 2 == 1, bigquery=seed % 2 == 1)
            if seed % 2 == 0:
                self.log_case("edge cases seed %d privacy-first" % seed, path, path, tables=["legacy-list"], how="auto",
                              by_month=False)
        # 5. Calendar months in another zone, over a log that spans two months.
        self.month_zone_case(two_months, "America/New_York")
        # 6. docs/warehouse.md (where the README points for loading) shows the load command this
        # check uses.
        statement = open(LOAD_SQL).read()
        statement = statement[statement.index("CREATE TABLE"):].strip()
        with open(os.path.join(ROOT, "docs", "warehouse.md")) as handle:
            shown = statement in handle.read()
        self.record("docs/warehouse.md shows scripts/sql/load_duckdb.sql", [] if shown else ["the load command of docs/warehouse.md differs"], "readme")
        # 7. The BigQuery dialect parses.
        self.bigquery_parse()
        print("check_sql.py: %d logs; comparisons: %s" % (
            len(self.logs), ", ".join("%s %d" % item for item in sorted(self.kinds.items()))))
        print("%d passed, %d failed" % (self.passed, self.failed))
        return 1 if self.failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=os.path.join(ROOT, ".build", "release", "placescost"),
                        help="the placescost executable (default .build/release/placescost)")
    parser.add_argument("--venv", default=os.path.join(ROOT, ".venv-sql"),
                        help="where to install duckdb and sqlglot (default .venv-sql/)")
    parser.add_argument("--quick", action="store_true", help="fewer and smaller logs")
    parser.add_argument("--require", action="store_true",
                        help="fail instead of skipping when duckdb or sqlglot cannot be installed")
    args = parser.parse_args()
    args.venv = os.path.abspath(args.venv)
    args.engine = os.path.abspath(args.engine)
    if not os.path.exists(args.engine):
        print("check_sql.py: %s not found: build it first (swift build -c release)" % args.engine)
        return 1
    ensure_venv(args)
    check = Check(args)
    status = 1
    try:
        status = check.run(args.quick)
    finally:
        # The logs take over 100 MB: kept only to look into a failure.
        if status == 0:
            shutil.rmtree(check.work, ignore_errors=True)
        else:
            print("the logs checked are kept in %s" % check.work)
    return status


if __name__ == "__main__":
    sys.exit(main())
