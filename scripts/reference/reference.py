#!/usr/bin/env python3
"""PlacesCost reference implementation (slow, readable twin of the Swift engine).

Usage:
    python3 reference.py [--session-timeout 180] [--user-gap 60] FILE...

Reads canonical request logs (JSON Lines or CSV, detected per file by content) and prints
the session/search/anomaly counts of report.json as JSON with sorted keys.  Standard
library only.  Written from /work/shared/domain/sessions.md, formats.md section 1,
spec/cli.md and billing.md section 3, never from the Swift sources.

Rules implemented, each with the sentence of sessions.md (or the project decision of the
brief, marked [brief]) it implements:

R1  Grouping. "Group the calls that carry a token by (project if known, token); order each
    group by time (ties keep input order)."  -> key (project or None, token); stable sort by
    exact timestamp, input order across all files, files in command-line order.
R2  Opening. "An autocomplete call with no open session opens one (its start = this call's
    time), unless the token was already spent -> the call is a reused-token call."
R3  Joining / expiry. "An autocomplete call while a session is open joins it, unless more
    than the session timeout ... has passed since the session's start: then the session is
    closed as expired (billed as abandoned) and this call and every later call of the token
    are expired-token calls."  -> expired when (t - start) > timeout, strictly [brief].
R4  Completion. "A place_details call (or address_validation, New API) while a session is
    open and within the timeout completes it; the token is spent. Past the timeout: rule 2
    applies and the details call is billed as a plain details call."
R5  Fresh/spent details. "A place_details call whose token no autocomplete call opened:
    details without autocomplete ... After the token is spent: reused-token."  and "A
    place_details call on a fresh token spends the token."  address_validation behaves
    exactly like place_details in the walk [brief].
R6  Abandonment. "At the end of the group an open session is abandoned."
R7  Post-spend runs. "Calls made after a token was spent (rule 1, 2 and 4 ...) also form
    searches ...: consecutive such calls up to and including a details call are one search.
    A details call that no autocomplete call of its run precedes is a standalone details
    call ... and not a search."  -> a run with >= 1 autocomplete ending at a details call is
    a completed search; a run with >= 1 autocomplete still going at the end of the group is
    an abandoned search; a run with no autocomplete is not a search.
R8  Searches. "A search is ... a run of one token's calls, in order, that holds at least one
    autocomplete call and ends at a details call (completed) or at the end of the group or
    at expiry (abandoned)."  searches.total = completed + abandoned.
R9  Geocoding / others with a token. "A geocoding call carrying a token changes no session
    state."  Every api other than autocomplete, place_details, address_validation takes no
    part in the token walk and never counts as token_reused [brief]; query_autocomplete
    takes no part in sessions [brief].
R10 Unknown api. "An api value outside the known list is kept, counted under its own name in
    input.by_api ... and takes no part in sessions (it is not a malformed record)."
R11 Inferred token-less searches. "when a user/device id is present, consecutive token-less
    autocomplete calls of that user within 60 s of each other (gap option) form one inferred
    search, ended by that user's next geocoding or place_details call within the gap"
    -> group by (project, user_id) [brief]; an autocomplete joins while
    (t - previous autocomplete of the search) <= gap; a place_details/geocoding call
    completes the open search when (t - last autocomplete) <= gap; otherwise it is a base
    call.  Only token-less autocomplete, place_details and geocoding calls take part [brief].
R12 "Without a user id, token-less calls form no searches."
R13 Anomalies:
    token_reused  "every call made after its token was spent, whether spent by completion, by
                  a details call on a fresh token, or by expiry (the call that revealed the
                  expiry counts too)"
    expired       "sessions closed by the timeout"
    details_without_autocomplete  "details calls on a fresh token" (incl. address_validation
                  [brief])
    no_token_requests  "autocomplete calls with no token" (query_autocomplete not [brief])
    fields_unspecified "details calls with no field mask" (place_details only [brief]; any
                  token state)
    one_request_sessions "sessions (completed, abandoned or expired) holding exactly one
                  autocomplete call; runs of calls after the token was spent never count
                  here." (inferred token-less searches are not sessions: not counted.)
R14 Means. "searches.avg_requests mean autocomplete calls per search (all searches)";
    avg_requests_completed over completed searches; rounded to 1e-6 (cli.md), half away
    from zero on the exact rational; 0 when there is no search.
R15 Input (formats.md s.1 + brief): blank lines skipped silently; UTF-8 BOM stripped; CR line
    ends stripped; rejected records counted in input.rejected, never in input.records.
"""

import argparse
import csv
import io
import json
import re
import sys
from decimal import Decimal
from fractions import Fraction

KNOWN_APIS = {
    "autocomplete", "query_autocomplete", "place_details", "geocoding",
    "find_place", "text_search", "address_validation",
}
ALIASES = {
    "findautocompletepredictions": "autocomplete",
    "autocompleteplaces": "autocomplete",
    "fetchplace": "place_details",
    "getplace": "place_details",
    "geocode": "geocoding",
}
MAX_EPOCH_MS = 253402300799999

csv.field_size_limit(sys.maxsize)
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)  # any valid JSON integer parses

RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})",
    re.ASCII,
)


class Reject(Exception):
    """A malformed record (counted in input.rejected)."""


class Call:
    """One accepted log record."""

    def __init__(self, seq, time, api, token, has_mask, user, project):
        self.seq = seq            # global input order (ties keep it)
        self.time = time          # exact seconds since the epoch (Fraction)
        self.api = api            # canonical api name, or the raw unknown name
        self.token = token        # None = no token
        self.has_mask = has_mask  # False = no field mask
        self.user = user          # None = no user id
        self.project = project    # None = project unknown


# ----------------------------------------------------------------------------- time

def days_from_civil(y, m, d):
    """Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm)."""
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def is_leap(y):
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def days_in_month(y, m):
    if m == 2:
        return 29 if is_leap(y) else 28
    return 30 if m in (4, 6, 9, 11) else 31


def parse_rfc3339(text):
    """Exact seconds since the epoch, or None when `text` is not RFC 3339 with an offset."""
    match = RFC3339.fullmatch(text)
    if not match:
        return None
    year, month, day, hour, minute, second = (int(g) for g in match.groups()[:6])
    frac, offset = match.group(7), match.group(8)
    if not 1 <= month <= 12:
        return None
    if not 1 <= day <= days_in_month(year, month):
        return None
    if hour > 23 or minute > 59 or second > 59:   # leap second 60 rejected (see report)
        return None
    offset_seconds = 0
    if offset not in ("Z", "z"):
        off_h, off_m = int(offset[1:3]), int(offset[4:6])
        if off_h > 23 or off_m > 59:
            return None
        offset_seconds = (off_h * 3600 + off_m * 60) * (1 if offset[0] == "+" else -1)
    seconds = Fraction(days_from_civil(year, month, day) * 86400
                       + hour * 3600 + minute * 60 + second - offset_seconds)
    if frac:
        seconds += Fraction(int(frac[1:]), 10 ** (len(frac) - 1))
    return seconds


def parse_timestamp(value):
    """Exact seconds since the epoch; raises Reject."""
    if value is None:
        raise Reject("timestamp missing")
    if isinstance(value, bool):
        raise Reject("timestamp is a boolean")
    if isinstance(value, (int, Decimal)):
        if isinstance(value, Decimal) and not value.is_finite():
            raise Reject("timestamp not finite")
        ms = Fraction(value)
        if not 0 <= ms <= MAX_EPOCH_MS:
            raise Reject("epoch milliseconds out of range")
        return ms / 1000
    if isinstance(value, str):
        if value != "" and all(ch in "0123456789" for ch in value):
            ms = int(value)
            if ms > MAX_EPOCH_MS:
                raise Reject("epoch milliseconds out of range")
            return Fraction(ms, 1000)
        seconds = parse_rfc3339(value)
        if seconds is None:
            raise Reject("timestamp is not RFC 3339 with an offset")
        return seconds
    raise Reject("timestamp has the wrong type")


# ----------------------------------------------------------------------------- records

def canonical_api(value):
    if value is None:
        raise Reject("api missing")
    if not isinstance(value, str):
        raise Reject("api is not a string")
    if value == "":
        raise Reject("api empty")
    lower = value.lower()
    if lower in KNOWN_APIS:
        return lower
    if lower in ALIASES:
        return ALIASES[lower]
    return value  # unknown api: kept under its own name


def scalar_id(value, key):
    """user_id / project / platform / status: string, number or null."""
    if isinstance(value, (dict, list, bool)):
        raise Reject(key + " is an object, array or boolean")
    if value is None:
        return None
    if isinstance(value, str):
        return value if value != "" else None
    return str(value)  # a number: its decimal text


def optional_string(obj, key):
    value = obj.get(key)
    if value is not None and not isinstance(value, str):
        raise Reject(key + " is neither a string nor null")
    return value


def make_call(obj, seq, from_csv):
    """Validate one record (a dict) and build a Call; raises Reject."""
    time = parse_timestamp(obj.get("timestamp"))
    api = canonical_api(obj.get("api"))

    tokens = [optional_string(obj, "session_token"), optional_string(obj, "sessionToken")]
    optional_string(obj, "input")
    optional_string(obj, "place_id")
    optional_string(obj, "placeId")
    optional_string(obj, "api_version")
    token = None
    for candidate in tokens:           # first non-empty of session_token, sessionToken
        if candidate:
            token = candidate
            break

    fields = obj.get("fields")
    if from_csv:
        parts = re.split(r"[,|]", fields) if fields else []
        has_mask = any(part.strip() for part in parts)
    else:
        if fields is None:
            has_mask = False
        elif isinstance(fields, list) and all(isinstance(f, str) for f in fields):
            has_mask = any(f != "" for f in fields)
        else:
            raise Reject("fields is neither a list of strings nor null")

    user = scalar_id(obj.get("user_id"), "user_id")
    project = scalar_id(obj.get("project"), "project")
    scalar_id(obj.get("platform"), "platform")
    scalar_id(obj.get("status"), "status")
    return Call(seq, time, api, token, has_mask, user, project)


def reject_constant(name):
    raise ValueError("not JSON: " + name)


def jsonl_objects(data):
    """Yield a dict, or a Reject, per non-blank line of a JSON Lines file."""
    for raw in data.split(b"\n"):
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if raw.strip(b" \t\r") == b"":
            continue
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            yield Reject("invalid UTF-8")
            continue
        try:
            obj = json.loads(line, parse_float=Decimal, parse_constant=reject_constant)
        except (ValueError, RecursionError):
            yield Reject("not valid JSON")
            continue
        if not isinstance(obj, dict):
            yield Reject("not a JSON object")
            continue
        yield obj


def csv_objects(data):
    """Yield a dict (cell text by column name; empty cell = absent) or a Reject per row."""
    text = data.decode("utf-8", errors="surrogateescape")
    reader = csv.reader(io.StringIO(text, newline=""))
    header = None
    for row in reader:
        if not row or (len(row) == 1 and row[0].strip(" \t") == ""):
            continue  # blank line
        if header is None:
            header = [cell.strip() for cell in row]
            continue
        if any("\udc80" <= ch <= "\udcff" for cell in row for ch in cell):
            yield Reject("invalid UTF-8")
            continue
        obj = {}
        for name, cell in zip(header, row):
            if cell != "" and name not in obj:
                obj[name] = cell
        yield obj


def read_file(path):
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as handle:
            data = handle.read()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    first = b""
    for line in data.split(b"\n"):
        if line.strip(b" \t\r") != b"":
            first = line.lstrip(b" \t\r")
            break
    if first.startswith(b"{"):
        return jsonl_objects(data), False
    return csv_objects(data), True


# ----------------------------------------------------------------------------- analysis

class Result:
    def __init__(self):
        self.searches = []   # (autocomplete count, completed?)
        self.token_reused = 0
        self.expired = 0
        self.details_without_autocomplete = 0
        self.no_token_requests = 0
        self.fields_unspecified = 0
        self.one_request_sessions = 0

    def session(self, autocompletes, completed):
        """A token session closed (completed, abandoned or expired)."""
        self.searches.append((autocompletes, completed))
        if autocompletes == 1:
            self.one_request_sessions += 1


def walk_token_group(calls, timeout, result):
    """R2-R8 on one (project, token) group, already sorted by time."""
    state = "fresh"        # fresh -> open -> spent, or fresh -> spent
    start = None           # open session's start time
    session_ac = 0         # autocomplete calls in the open session
    run_ac = 0             # autocomplete calls in the current post-spend run
    for call in calls:
        if call.api == "autocomplete":
            if state == "fresh":                      # R2: opens
                state, start, session_ac = "open", call.time, 1
            elif state == "open":
                if call.time - start > timeout:       # R3: expiry revealed by this call
                    result.expired += 1
                    result.session(session_ac, completed=False)
                    state = "spent"
                    result.token_reused += 1
                    run_ac = 1
                else:                                 # R3: joins
                    session_ac += 1
            else:                                     # R2: reused-token call
                result.token_reused += 1
                run_ac += 1
        else:                                         # place_details / address_validation
            if state == "fresh":                      # R5: details without autocomplete
                result.details_without_autocomplete += 1
                state = "spent"                       # standalone details call
            elif state == "open":
                if call.time - start > timeout:       # R4 -> R3: expiry
                    result.expired += 1
                    result.session(session_ac, completed=False)
                    state = "spent"
                    result.token_reused += 1
                    run_ac = 0                        # run of one details call: standalone
                else:                                 # R4: completes
                    result.session(session_ac, completed=True)
                    state = "spent"
            else:                                     # R5: reused-token details call
                result.token_reused += 1
                if run_ac > 0:                        # R7: run ends at this details call
                    result.searches.append((run_ac, True))
                run_ac = 0                            # else standalone details call
    if state == "open":                               # R6: abandoned
        result.session(session_ac, completed=False)
    if run_ac > 0:                                    # R7: run still going at the end
        result.searches.append((run_ac, False))


def walk_user_group(calls, gap, result):
    """R11 on one (project, user_id) group of token-less calls, sorted by time."""
    open_ac = 0            # autocomplete calls of the open inferred search (0 = none open)
    last_ac = None         # time of its last autocomplete call
    for call in calls:
        if call.api == "autocomplete":
            if open_ac > 0 and call.time - last_ac <= gap:
                open_ac += 1
            else:
                if open_ac > 0:
                    result.searches.append((open_ac, False))
                open_ac = 1
            last_ac = call.time
        else:                                         # place_details or geocoding
            if open_ac > 0 and call.time - last_ac <= gap:
                result.searches.append((open_ac, True))
                open_ac = 0
            # otherwise a base call
    if open_ac > 0:
        result.searches.append((open_ac, False))


def round6(value):
    """Exact rational -> float rounded to 1e-6, half away from zero (values are >= 0)."""
    scaled = value * 10 ** 6
    whole = scaled.numerator // scaled.denominator
    if scaled - whole >= Fraction(1, 2):
        whole += 1
    return float(Decimal(whole) / Decimal(10 ** 6))


def mean(counts):
    if not counts:
        return 0.0
    return round6(Fraction(sum(counts), len(counts)))


def analyze(paths, timeout, gap):
    calls = []
    rejected = 0
    seq = 0
    for path in paths:
        objects, from_csv = read_file(path)
        for obj in objects:
            if isinstance(obj, Reject):
                rejected += 1
                continue
            try:
                calls.append(make_call(obj, seq, from_csv))
            except Reject:
                rejected += 1
            seq += 1  # global input order across files

    by_api = {}
    for call in calls:
        by_api[call.api] = by_api.get(call.api, 0) + 1

    result = Result()
    token_groups = {}
    user_groups = {}
    for call in calls:
        if call.api == "place_details" and not call.has_mask:
            result.fields_unspecified += 1
        if call.api == "autocomplete" and call.token is None:
            result.no_token_requests += 1
        if call.token is not None:
            if call.api in ("autocomplete", "place_details", "address_validation"):
                token_groups.setdefault((call.project, call.token), []).append(call)
        elif call.user is not None:
            if call.api in ("autocomplete", "place_details", "geocoding"):
                user_groups.setdefault((call.project, call.user), []).append(call)

    def order(group):
        return sorted(group, key=lambda c: (c.time, c.seq))

    for key in token_groups:
        walk_token_group(order(token_groups[key]), timeout, result)
    for key in user_groups:
        walk_user_group(order(user_groups[key]), gap, result)

    all_counts = [n for n, _ in result.searches]
    completed_counts = [n for n, done in result.searches if done]
    return {
        "input": {"records": len(calls), "rejected": rejected, "by_api": by_api},
        "searches": {
            "total": len(all_counts),
            "completed": len(completed_counts),
            "abandoned": len(all_counts) - len(completed_counts),
            "avg_requests": mean(all_counts),
            "avg_requests_completed": mean(completed_counts),
        },
        "anomalies": {
            "token_reused": result.token_reused,
            "expired": result.expired,
            "details_without_autocomplete": result.details_without_autocomplete,
            "no_token_requests": result.no_token_requests,
            "fields_unspecified": result.fields_unspecified,
            "one_request_sessions": result.one_request_sessions,
        },
    }


def seconds_option(text):
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError("not a number of seconds: " + text)
    if value < 0:
        raise argparse.ArgumentTypeError("negative: " + text)
    return value


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--session-timeout", type=seconds_option, default=Fraction(180))
    parser.add_argument("--user-gap", type=seconds_option, default=Fraction(60))
    parser.add_argument("files", nargs="+", metavar="FILE")
    args = parser.parse_args(argv)
    try:
        report = analyze(args.files, args.session_timeout, args.user_gap)
    except OSError as error:
        sys.stderr.write("reference.py: error: %s\n" % error)
        sys.exit(66)
    json.dump(report, sys.stdout, sort_keys=True, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
