#!/usr/bin/env python3
"""PlacesCost reference implementation (slow, readable twin of the Swift engine).

Usage:
    python3 reference.py [--session-timeout 180] [--user-gap 60]
                         [--pricing TABLE.json|ID [--delays 1,2,3,4,5,6] [--skus]
                          [--needs-details auto|yes|no] [--max-delay 4]] FILE...

Reads canonical request logs (JSON Lines or CSV, detected per file by content) and prints
the session/search/anomaly counts of report.json as JSON with sorted keys.  With --pricing
(a price table file of the Pricing/ schema, or the id of one in ../../Pricing/) it also
prints `strategies` [{id, delay, list_cost_usd, cost_usd, valid}] for current,
session_details, session_details_basic and per_request_geocoding at delay 0, each --delays
value and each delay 1..--max-delay, and `break_even_requests` (rules P1-P7, P1b, P6b in
the pricing section below); --skus adds each entry's SKU counts (by the table's SKU names)
and unpriced calls (by api), for debugging.
With --pricing it also prints `recommendation` {strategy, delay, keep_current, tree_answer
{strategy, delay}}: the cheapest valid option by the bill (rule P11) checked against the
decision tree's answer (rules P8-P10), in the recommendation section below, with the
tree's debugging numbers (needs_details, needs_details_source, selections_masked,
selections_needing_details, means_by_delay).
Standard library only.  Written from docs/sessions.md, docs/formats.md section 1,
docs/cli.md and docs/billing.md section 3, never from the Swift sources.

Rules implemented, each with the sentence of docs/sessions.md (or the project's own choice
where Google is silent, marked [choice]: docs/sessions.md "Choices where Google is silent",
docs/billing.md and docs/recommendation.md state each) it implements:

R1  Grouping. "Group the calls that carry a token by (project if known, token); order each
    group by time (ties keep input order)."  -> key (project or None, token); stable sort by
    exact timestamp, input order across all files, files in command-line order.
R2  Opening. "An autocomplete call with no open session opens one (its start = this call's
    time), unless the token was already spent -> the call is a reused-token call."
R3  Joining / expiry. "An autocomplete call while a session is open joins it, unless more
    than the session timeout ... has passed since the session's start: then the session is
    closed as expired (billed as abandoned) and this call and every later call of the token
    are expired-token calls."  -> expired when (t - start) > timeout, strictly [choice].
R4  Completion. "A place_details call (or address_validation, New API) while a session is
    open and within the timeout completes it; the token is spent. Past the timeout: rule 2
    applies and the details call is billed as a plain details call."
R5  Fresh/spent details. "A place_details call whose token no autocomplete call opened:
    details without autocomplete ... After the token is spent: reused-token."  and "A
    place_details call on a fresh token spends the token."  address_validation behaves
    exactly like place_details in the walk [choice].
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
    part in the token walk and never counts as token_reused [choice]; query_autocomplete
    takes no part in sessions [choice].
R10 Unknown api. "An api value outside the known list is kept, counted under its own name in
    input.by_api ... and takes no part in sessions (it is not a malformed record)."
R11 Inferred token-less searches. "when a user/device id is present, consecutive token-less
    autocomplete calls of that user within 60 s of each other (gap option) form one inferred
    search, ended by that user's next geocoding or place_details call within the gap"
    -> group by (project, user_id) [choice]; an autocomplete joins while
    (t - previous autocomplete of the search) <= gap; a place_details/geocoding call
    completes the open search when (t - last autocomplete) <= gap; otherwise it is a base
    call.  Only token-less autocomplete, place_details and geocoding calls take part [choice].
R12 "Without a user id, token-less calls form no searches."
R13 Anomalies:
    token_reused  "every call made after its token was spent, whether spent by completion, by
                  a details call on a fresh token, or by expiry (the call that revealed the
                  expiry counts too)"
    expired       "sessions closed by the timeout"
    details_without_autocomplete  "details calls on a fresh token" (incl. address_validation
                  [choice])
    no_token_requests  "autocomplete calls with no token" (query_autocomplete not [choice])
    fields_unspecified "details calls with no field mask" (place_details only [choice]; any
                  token state)
    one_request_sessions "sessions (completed, abandoned or expired) holding exactly one
                  autocomplete call; runs of calls after the token was spent never count
                  here." (inferred token-less searches are not sessions: not counted.)
R14 Means. "searches.avg_requests mean autocomplete calls per search (all searches)";
    avg_requests_completed over completed searches; rounded to 1e-6 (docs/cli.md), half away
    from zero on the exact rational; 0 when there is no search.
R15 Input (docs/formats.md s.1 + choice): blank lines skipped silently; UTF-8 BOM stripped; CR line
    ends stripped; rejected records counted in input.rejected, never in input.records.
"""

import argparse
import csv
import io
import os
import json
import math
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
EPOCH_SECONDS_LIMIT = 10 ** 11  # an epoch number below this is seconds, not milliseconds

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

    def __init__(self, seq, time, api, token, has_mask, user, project, text=None, fields=None):
        self.seq = seq            # global input order (ties keep it)
        self.time = time          # exact seconds since the epoch (Fraction)
        self.api = api            # canonical api name, or the raw unknown name
        self.token = token        # None = no token
        self.has_mask = has_mask  # False = no field mask
        self.user = user          # None = no user id
        self.project = project    # None = project unknown
        self.text = text          # typed input; None = not recorded (absent, null; in CSV
                                  # an empty cell is absent, in JSON "" is 0 characters)
        self.fields = fields      # non-empty field names (stripped); None = no field mask


# ----------------------------------------------------------------------------- time

def days_from_civil(y, m, d):
    """Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm)."""
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def utc_month(seconds):
    """(year, month) of the UTC calendar date of exact epoch seconds (H. Hinnant's inverse)."""
    z = int(seconds // 86400) + 719468
    era = (z if z >= 0 else z - 146096) // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    month = mp + 3 if mp < 10 else mp - 9
    return (yoe + era * 400 + (month <= 2), month)


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
    if hour > 23 or minute > 59 or second > 60:
        return None
    if second == 60:
        # A leap second is the last microsecond of its minute, whatever its fraction (the
        # engine's rule, Timestamp.clock): order and calendar month are kept.
        second, frac = 59, ".999999"
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
        # Below 10^11 the number is epoch seconds (as milliseconds it would be before 1973).
        return ms if ms < EPOCH_SECONDS_LIMIT else ms / 1000
    if isinstance(value, str):
        if value != "" and all(ch in "0123456789" for ch in value):
            ms = int(value)
            if ms > MAX_EPOCH_MS:
                raise Reject("epoch milliseconds out of range")
            return Fraction(ms) if ms < EPOCH_SECONDS_LIMIT else Fraction(ms, 1000)
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
    text = optional_string(obj, "input")   # JSON "" = a recorded input of 0 characters
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
        names = [part.strip() for part in parts if part.strip()]
    else:
        if fields is None:
            has_mask = False
            names = []
        elif isinstance(fields, list) and all(isinstance(f, str) for f in fields):
            has_mask = any(f != "" for f in fields)
            names = [f.strip() for f in fields if f.strip()]
        else:
            raise Reject("fields is neither a list of strings nor null")

    user = scalar_id(obj.get("user_id"), "user_id")
    project = scalar_id(obj.get("project"), "project")
    scalar_id(obj.get("platform"), "platform")
    scalar_id(obj.get("status"), "status")
    return Call(seq, time, api, token, has_mask, user, project, text,
                names if has_mask and names else None)


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

class Search:
    """One search: a token session, a post-spend run, or an inferred token-less search."""

    def __init__(self, kind, first):
        self.kind = kind          # "session", "run" (after the token was spent), "inferred"
        self.acs = [first]        # its autocomplete calls, in walk order
        self.completed = False
        self.selection = None     # the call that completed it (place_details,
                                  # address_validation or, inferred only, geocoding)


class Result:
    def __init__(self):
        self.searches = []   # Search objects (sessions, runs and inferred searches)
        self.base = []       # calls outside every search (priced alike in every strategy)
        self.token_reused = 0
        self.expired = 0
        self.details_without_autocomplete = 0
        self.no_token_requests = 0
        self.fields_unspecified = 0
        self.one_request_sessions = 0

    def close(self, search, selection):
        """A search ends: completed by `selection`, or abandoned (selection None)."""
        search.completed = selection is not None
        search.selection = selection
        self.searches.append(search)
        if search.kind == "session" and len(search.acs) == 1:
            self.one_request_sessions += 1


def walk_token_group(calls, timeout, result):
    """R2-R8 on one (project, token) group, already sorted by time."""
    state = "fresh"        # fresh -> open -> spent, or fresh -> spent
    start = None           # open session's start time
    session = None         # the open session
    run = None             # the current post-spend run (holds >= 1 autocomplete call)
    for call in calls:
        if call.api == "autocomplete":
            if state == "fresh":                      # R2: opens
                state, start, session = "open", call.time, Search("session", call)
            elif state == "open":
                if call.time - start > timeout:       # R3: expiry revealed by this call
                    result.expired += 1
                    result.close(session, None)
                    state, session = "spent", None
                    result.token_reused += 1
                    run = Search("run", call)
                else:                                 # R3: joins
                    session.acs.append(call)
            else:                                     # R2: reused-token call
                result.token_reused += 1
                if run is None:
                    run = Search("run", call)
                else:
                    run.acs.append(call)
        else:                                         # place_details / address_validation
            if state == "fresh":                      # R5: details without autocomplete
                result.details_without_autocomplete += 1
                state = "spent"                       # standalone details call
                result.base.append(call)
            elif state == "open":
                if call.time - start > timeout:       # R4 -> R3: expiry
                    result.expired += 1
                    result.close(session, None)
                    state, session = "spent", None
                    result.token_reused += 1
                    run = None                        # run of one details call: standalone
                    result.base.append(call)
                else:                                 # R4: completes
                    result.close(session, call)
                    state, session = "spent", None
            else:                                     # R5: reused-token details call
                result.token_reused += 1
                if run is not None:                   # R7: run ends at this details call
                    result.close(run, call)
                else:                                 # standalone details call
                    result.base.append(call)
                run = None
    if state == "open":                               # R6: abandoned
        result.close(session, None)
    if run is not None:                               # R7: run still going at the end
        result.close(run, None)


def walk_user_group(calls, gap, result):
    """R11 on one (project, user_id) group of token-less calls, sorted by time."""
    search = None          # the open inferred search
    last_ac = None         # time of its last autocomplete call
    for call in calls:
        if call.api == "autocomplete":
            if search is not None and call.time - last_ac <= gap:
                search.acs.append(call)
            else:
                if search is not None:
                    result.close(search, None)
                search = Search("inferred", call)
            last_ac = call.time
        else:                                         # place_details or geocoding
            if search is not None and call.time - last_ac <= gap:
                result.close(search, call)
                search = None
            else:
                result.base.append(call)              # a base call
    if search is not None:
        result.close(search, None)


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


# ----------------------------------------------------------------------------- pricing
#
# P1  list_cost_usd = sum over billable events of the FIRST tier's usd_per_1000 / 1000 of
#     the event's SKU (no free cap, no credit, no later tier) [docs/sessions.md "From counts to
#     money"; choice].  SKUs are found in the table by `roles`; exact rational arithmetic,
#     rounded to 1e-6 at the end.
# P1b cost_usd = the bill estimate [docs/sessions.md "From counts to money": "group events by
#     calendar month (UTC unless --timezone), count each SKU's monthly volume (times
#     --scale), apply the free cap or monthly credit and the volume tiers"; docs/billing.md s.4-5].
#     Every event of a search falls in the UTC calendar month of the search's first
#     autocomplete call, a base call's event in its own call's month [reference's choice:
#     it matters only for a search across a month boundary under caps, tiers or credit].
#     Per month, per SKU (events of roles sharing one SKU name count together): the
#     volume's units 1..V are numbered in order; units 1..free_monthly are free
#     (free_monthly null = unlimited, as docs/billing.md's "unlimited"; 0 = none); a unit i above
#     the cap costs the price of the tier whose range (previous up_to, up_to] holds i (up_to
#     null = no end; past a last finite up_to, the last tier's price).  So Google's example:
#     200,000 requests in a month = 90,000 x 2.83/1000 + 100,000 x 2.27/1000 = $481.70.  The
#     month's sum minus monthly_credit_usd, floored at 0; cost_usd = the months' sum, exact,
#     rounded to 1e-6 at the end.  --scale and --timezone are not modelled (scale 1, UTC).
#     legacy-list has no cap, tier or credit, so there cost_usd = list_cost_usd; under
#     places-new-2025, legacy-2025 and legacy-2018 a log of a few thousand calls a month
#     bills $0 in every strategy (free caps; the $200 credit).
# P2  Delay k (k >= 1) drops every autocomplete call of a search whose input has k or fewer
#     code points (len() of the str); a call with no recorded input (absent or null; in
#     CSV an empty cell is absent) is kept, a JSON "" input has 0 characters and is
#     dropped; a completed search keeps at least one request; an abandoned search may
#     drop to zero calls and then costs nothing (legacy: no per-session charge either).
#     Delay 0 keeps every call.  Delays apply to every strategy (also `current`), never to base
#     calls [docs/sessions.md "Strategies"; choice].
# P3  Base calls (outside every search), alike in every strategy and delay: autocomplete ->
#     autocomplete_request; query_autocomplete -> query_autocomplete_request; place_details
#     -> plain details call; geocoding -> geocoding; find_place, text_search,
#     address_validation, unknown apis -> unpriced (listed, $0) [choice].
# P4  Legacy table: completed session by place_details = autocomplete_session_with_details
#     + place_details + data SKUs of its fields; by address_validation =
#     autocomplete_session_with_details + AV unpriced; abandoned/expired with >= 1 kept
#     request = autocomplete_session_without_details; plain details = place_details + data
#     SKUs.  Data SKUs by docs/billing.md s.4 categories (case-insensitive, a path counts as its
#     first component, each category once per call, no mask or "*" = Basic + Contact +
#     Atmosphere, unknown field = Basic) [docs/billing.md s.3-4; choice].
# P5  New table: a details call's SKU = highest of its fields (IDs Only < Essentials < Pro <
#     Enterprise < Enterprise + Atmosphere; no mask or "*" = Enterprise + Atmosphere;
#     unknown field = Pro).  Completed session: IDs Only -> every kept request billed as a
#     request + details IDs Only; Essentials -> first essentials_request_cap requests billed,
#     the rest Session Usage, + details Essentials; higher -> every request Session Usage +
#     details at Enterprise + Atmosphere (session_rules.terminating_details.rule
#     "enterprise_atmosphere"; any other rule value: at the SKU of its fields; the rule's
#     date is not consulted).  Completed by address_validation -> every request Session
#     Usage + AV unpriced.  Abandoned/expired -> each kept request billed as a request
#     [docs/billing.md s.5; choice].
# P6  Strategies per search (n = kept requests at the delay):
#     current: session -> P4/P5 with the selection as made; post-spend run and inferred
#       search -> n requests + the selection as made (place_details -> plain details,
#       geocoding -> geocoding, address_validation -> unpriced).
#     session_details: completed -> completed session whose details call has the
#       selection's fields if it was place_details, else ["formatted_address","geometry"];
#       not completed -> abandoned session.
#     session_details_basic: the same with every completed search's mask =
#       ["formatted_address","geometry"].
#     per_request_geocoding: n requests + 1 geocoding per completed search.
# P6b valid [docs/sessions.md "Strategies": "`valid` is false when the app needs details" for
#     session_details_basic and per_request_geocoding]: those two are valid exactly when the
#     app does not need details (P8, after --needs-details); current and session_details
#     are always valid.  Every strategy is priced at every delay, valid or not.
# P7  break_even_requests: legacy = (with_details + place_details + data_basic - geocoding)
#     / autocomplete_request; New = essentials_request_cap + (details_essentials - geocoding)
#     / autocomplete_request if geocoding <= details_essentials else 0; first-tier prices,
#     rounded to 1e-6 [docs/sessions.md; docs/billing.md s.2, s.5; choice].

STRATEGIES = ["current", "session_details", "session_details_basic", "per_request_geocoding"]
ADDRESS_MASK = ["formatted_address", "geometry"]
HERE_DIR = os.path.dirname(os.path.abspath(__file__))

LEGACY_CONTACT = {name.replace("_", "") for name in (
    "formatted_phone_number", "international_phone_number", "phonenumber", "opening_hours",
    "openinghours", "current_opening_hours", "secondary_opening_hours", "website",
)}
LEGACY_ATMOSPHERE = {name.replace("_", "") for name in (
    "price_level", "pricelevel", "rating", "user_ratings_total", "userratingstotal",
    "reviews", "review", "editorial_summary", "editorialsummary", "takeout", "delivery", "dine_in",
    "curbside_pickup", "reservable",
)}
LEGACY_ATMOSPHERE_PREFIXES = ("serves",)          # serves_* (also servesBeer-style names)

IDS_ONLY, ESSENTIALS, PRO, ENTERPRISE, ENTERPRISE_ATMOSPHERE = range(5)
NEW_LEVEL_ROLES = ["details_ids_only", "details_essentials", "details_pro",
                   "details_enterprise", "details_enterprise_atmosphere"]
NEW_FIELDS = {}
for _level, _names in (
    (IDS_ONLY, "id name photos photo attributions movedplace movedplaceid place_id placeid"),
    (ESSENTIALS, "addresscomponents adrformataddress formattedaddress location pluscode "
                 "postaladdress shortformattedaddress types viewport formatted_address "
                 "address_components address_component adr_address vicinity geometry coordinate "
                 "plus_code type"),
    (PRO, "displayname businessstatus business_status permanently_closed primarytype primarytypedisplayname "
          "googlemapsuri googlemapslinks url utcoffsetminutes utc_offset timezone "
          "accessibilityoptions iconmaskbaseuri iconbackgroundcolor icon containingplaces "
          "pureservicearea subdestinations"),
    (ENTERPRISE, "currentopeninghours regularopeninghours currentsecondaryopeninghours "
                 "regularsecondaryopeninghours nationalphonenumber internationalphonenumber "
                 "formatted_phone_number international_phone_number phonenumber "
                 "opening_hours openinghours current_opening_hours secondary_opening_hours "
                 "pricelevel price_level pricerange rating userratingcount user_ratings_total "
                 "userratingstotal websiteuri website"),
    (ENTERPRISE_ATMOSPHERE, "reviews review editorialsummary editorial_summary generativesummary "
                            "reviewsummary takeout delivery dinein dine_in curbsidepickup "
                            "curbside_pickup reservable parkingoptions paymentoptions "
                            "outdoorseating livemusic menuforchildren restroom "
                            "evchargeoptions fueloptions"),
):
    for _name in _names.split():
        NEW_FIELDS[_name.replace("_", "")] = _level
NEW_ATMOSPHERE_PREFIXES = ("serves", "allows", "goodfor")


def field_key(name):
    """Case- and underscore-insensitive (display_name is displayName); a path like
    geometry/location counts as its first component; a `places.` prefix is dropped."""
    key = name.strip().lower().split("/", 1)[0]
    if key.startswith("places."):
        key = key[len("places."):]
    return key.replace("_", "")


def all_fields(fields):
    return fields is None or any(f.strip() == "*" for f in fields)


def legacy_data_roles(fields):
    if all_fields(fields):
        return ["data_basic", "data_contact", "data_atmosphere"]
    roles = set()
    for name in fields:
        key = field_key(name)
        if key in LEGACY_CONTACT:
            roles.add("data_contact")
        elif key in LEGACY_ATMOSPHERE or key.startswith(LEGACY_ATMOSPHERE_PREFIXES):
            roles.add("data_atmosphere")
        else:
            roles.add("data_basic")                   # Basic, or an unknown field
    return sorted(roles)


def new_level(fields):
    if all_fields(fields):
        return ENTERPRISE_ATMOSPHERE
    level = IDS_ONLY
    for name in fields:
        key = field_key(name)
        if key in NEW_FIELDS:
            this = NEW_FIELDS[key]
        elif key.startswith(NEW_ATMOSPHERE_PREFIXES):
            this = ENTERPRISE_ATMOSPHERE
        else:
            this = PRO                                # unknown field
        level = max(level, this)
    return level


class Table:
    def __init__(self, path):
        if not os.path.exists(path) and "/" not in path and not path.endswith(".json"):
            path = os.path.join(HERE_DIR, "..", "..", "Pricing", path + ".json")   # an id
        with open(path, "rb") as handle:
            data = json.loads(handle.read().decode("utf-8"), parse_float=Decimal)
        self.id = data.get("id")
        self.version = data.get("api_version")
        if self.version not in ("legacy", "new"):
            raise ValueError("price table api_version must be legacy or new")
        self.by_role = {}                             # role -> (SKU name, USD per event)
        self.by_name = {}                             # SKU name -> (free cap, tiers) (P1b)
        for sku in data["skus"]:
            price = Fraction(sku["tiers"][0]["usd_per_1000"]) / 1000
            for role in sku["roles"]:
                self.by_role.setdefault(role, (sku["name"], price))
            free = sku.get("free_monthly", 0)
            tiers = [(tier.get("up_to"), Fraction(tier["usd_per_1000"]) / 1000)
                     for tier in sku["tiers"]]
            self.by_name.setdefault(sku["name"], (None if free is None else int(free), tiers))
        self.credit = Fraction(data.get("monthly_credit_usd") or 0)
        rules = data.get("session_rules") or {}
        self.cap = rules.get("essentials_request_cap", 12)
        terminating = rules.get("terminating_details") or {}
        self.terminator_ea = terminating.get("rule", "enterprise_atmosphere") \
            == "enterprise_atmosphere"

    def price(self, role):
        return self.by_role[role][1]

    def monthly_cost(self, name, volume):
        """P1b: one SKU's exact USD for `volume` events in one month (free cap, tiers)."""
        free, tiers = self.by_name[name]
        if free is None:
            return Fraction(0)                        # unlimited free cap
        cost = Fraction(0)
        low = 0
        for index, (up_to, price) in enumerate(tiers):
            last = index == len(tiers) - 1
            high = volume if up_to is None or last else min(int(up_to), volume)
            charged = high - max(low, free)           # units in (max(low, free), high]
            if charged > 0:
                cost += charged * price
            if up_to is None or high >= volume:
                break
            low = int(up_to)
        return cost


class Bill:
    """SKU counts of one strategy at one delay."""

    def __init__(self, table):
        self.table = table
        self.counts = {}        # role -> count
        self.unpriced = {}      # api name -> count
        self.month = None       # (year, month) the next events fall in (P1b)
        self.by_month = {}      # (year, month) -> role -> count

    def at(self, time):
        """The events added next fall in the UTC calendar month of `time` (P1b)."""
        self.month = utc_month(time)

    def add(self, role, n=1):
        if n:
            self.counts[role] = self.counts.get(role, 0) + n
            month = self.by_month.setdefault(self.month, {})
            month[role] = month.get(role, 0) + n

    def skip(self, api):
        self.unpriced[api] = self.unpriced.get(api, 0) + 1

    def plain_details(self, fields):
        if self.table.version == "legacy":
            self.add("place_details")
            for role in legacy_data_roles(fields):
                self.add(role)
        else:
            self.add(NEW_LEVEL_ROLES[new_level(fields)])

    def completed_session(self, n, selection_api, fields):
        cap = self.table.cap
        if self.table.version == "legacy":
            self.add("autocomplete_session_with_details")
            if selection_api == "address_validation":
                self.skip("address_validation")
            else:
                self.plain_details(fields)
            return
        if selection_api == "address_validation":
            self.add("autocomplete_session_usage", n)
            self.skip("address_validation")
            return
        level = new_level(fields)
        if level == IDS_ONLY:
            self.add("autocomplete_request", n)
            self.add("details_ids_only")
        elif level == ESSENTIALS:
            self.add("autocomplete_request", min(n, cap))
            self.add("autocomplete_session_usage", max(0, n - cap))
            self.add("details_essentials")
        else:
            self.add("autocomplete_session_usage", n)
            self.add(NEW_LEVEL_ROLES[ENTERPRISE_ATMOSPHERE if self.table.terminator_ea
                                     else level])

    def abandoned_session(self, n):
        if n == 0:
            return
        if self.table.version == "legacy":
            self.add("autocomplete_session_without_details")
        else:
            self.add("autocomplete_request", n)

    def selection_as_made(self, call):
        if call.api == "place_details":
            self.plain_details(call.fields)
        elif call.api == "geocoding":
            self.add("geocoding")
        else:
            self.skip(call.api)

    def base_call(self, call):
        if call.api == "autocomplete":
            self.add("autocomplete_request")
        elif call.api == "query_autocomplete":
            self.add("query_autocomplete_request")
        elif call.api == "place_details":
            self.plain_details(call.fields)
        elif call.api == "geocoding":
            self.add("geocoding")
        else:
            self.skip(call.api)

    def list_cost(self):
        return sum((Fraction(n) * self.table.price(role) for role, n in self.counts.items()),
                   Fraction(0))

    def cost(self):
        """P1b: the bill estimate, exact: per month, per SKU, caps and tiers, less credit."""
        total = Fraction(0)
        for counts in self.by_month.values():
            volumes = {}
            for role, n in counts.items():
                name = self.table.by_role[role][0]
                volumes[name] = volumes.get(name, 0) + n
            month = sum((self.table.monthly_cost(name, v) for name, v in volumes.items()),
                        Fraction(0))
            total += max(Fraction(0), month - self.table.credit)
        return total

    def skus(self):
        out = {}
        for role, n in self.counts.items():
            name = self.table.by_role[role][0]
            out[name] = out.get(name, 0) + n
        return out


def kept_requests(search, delay):
    if delay == 0:
        n = len(search.acs)
    else:
        n = sum(1 for call in search.acs if call.text is None or len(call.text) > delay)
    if search.completed:
        n = max(n, 1)
    return n


def price_search(bill, strategy, search, delay):
    n = kept_requests(search, delay)
    sel = search.selection
    if strategy == "current":
        if search.kind == "session":
            if search.completed:
                bill.completed_session(n, sel.api, sel.fields)
            else:
                bill.abandoned_session(n)
        else:
            bill.add("autocomplete_request", n)
            if search.completed:
                bill.selection_as_made(sel)
    elif strategy in ("session_details", "session_details_basic"):
        if search.completed:
            if strategy == "session_details" and sel.api == "place_details":
                fields = sel.fields
            else:
                fields = ADDRESS_MASK
            bill.completed_session(n, "place_details", fields)
        else:
            bill.abandoned_session(n)
    else:                                             # per_request_geocoding
        bill.add("autocomplete_request", n)
        if search.completed:
            bill.add("geocoding")


def price_strategies(result, table, delays, with_skus=False, needs_details=True):
    out = []
    for strategy in STRATEGIES:
        for delay in [0] + [d for d in delays if d != 0]:
            bill = Bill(table)
            for call in result.base:
                bill.at(call.time)
                bill.base_call(call)
            for search in result.searches:
                bill.at(search.acs[0].time)
                price_search(bill, strategy, search, delay)
            entry = {"id": strategy, "delay": delay, "list_cost_usd": round6(bill.list_cost()),
                     "cost_usd": round6(bill.cost()),
                     "valid": strategy in ("current", "session_details") or not needs_details}
            if with_skus:
                entry["skus"] = bill.skus()
                entry["unpriced"] = bill.unpriced
            out.append(entry)
    return out


def break_even_exact(table):
    """P7 as an exact rational (prices are read as Decimal, so e.g. 1200/283 at legacy list)."""
    p = table.price
    if table.version == "legacy":
        return (p("autocomplete_session_with_details") + p("place_details") + p("data_basic")
                - p("geocoding")) / p("autocomplete_request")
    if p("geocoding") <= p("details_essentials"):
        return table.cap + (p("details_essentials") - p("geocoding")) / p("autocomplete_request")
    return Fraction(0)


def break_even(table):
    """break_even_requests as printed: P7 rounded to 1e-6."""
    return round6(break_even_exact(table))


# ----------------------------------------------------------------------------- recommendation
#
# P8  Needs details [docs/sessions.md "Needs details, or address and location only?"; choice].
#     The selections are the calls that END a completed search and are place_details or
#     address_validation calls (a session's completing call, the details call ending a
#     post-spend run, an inferred search's place_details; never a standalone/base details
#     call, never a geocoding call).  A selection "carries a mask" when it has at least one
#     non-blank field name (Call.fields is not None).  A masked selection needs details as
#     soon as one of its fields, compared case-insensitively as a whole name (so
#     "geometry/location" is listed, "Geometry" matches "geometry", "*" is not listed),
#     is outside ADDRESS_LOCATION_FIELDS.  Auto answer: yes when any masked selection needs
#     details, and also yes when no selection carries a mask ("assume yes").
#     --needs-details yes|no overrides the auto answer.
# P9  Means [docs/sessions.md "From counts to money"; choice].  mean(k) = Fraction(sum over ALL
#     searches of kept_requests(search, k), number of searches): the delay rule P2 (a
#     completed search keeps >= 1 request, an abandoned one may keep 0, a call with no
#     recorded input is kept); mean(0) is the plain mean (searches.avg_requests unrounded).
#     Zero searches: every mean(k) is 0 (as avg_requests is 0).
# P10 Decision tree [docs/sessions.md "From counts to money"; docs/billing.md s.2].  be = P7 exact
#     (break_even_exact, not the rounded break_even_requests):
#       needs details                      -> session_details, delay 0
#       else mean(0) <= be                 -> per_request_geocoding, delay 0
#       else smallest k in 1..max_delay with mean(k) <= be
#                                          -> per_request_geocoding, delay k
#       else                               -> session_details_basic, delay 0
#     Every comparison is exact (Fraction <= Fraction).  With zero searches the walk is the
#     same: no selection carries a mask, so auto says "needs details" -> session_details;
#     with --needs-details no, mean(0) = 0 <= be (be is never negative) ->
#     per_request_geocoding, delay 0.
#     The tree's answer is reported as recommendation.tree_answer {strategy, delay}; the
#     recommendation itself is P11's.
# P11 Follow the money within the app's needs [issue 19: the recommendation follows the
#     money; docs/sessions.md "From counts to money": "It then ranks every strategy by cost_usd
#     and, where the cheapest differs from the tree's answer ..., says so"].  Over the
#     priced strategies (price_strategies: every strategy at delay 0 and at each priced
#     delay, which include 1..max_delay):
#       bill(o) = floor(o.cost_usd * 1e6 + 0.5), whole micro-dollars of the printed cost_usd
#                 (P1b; costs are never negative, so this is the engine's
#                 (usd * 1_000_000).rounded() [choice]); list(o) the same of list_cost_usd.
#       options    = the entries with delay <= max_delay;
#       candidates = the options with valid (P6b) true, but for `current` at delay 0 (the
#                    calls as made, which the candidates are held against): `current` at a
#                    delay, the calls as made sent from a later character, is one;
#       best       = min over candidates of (bill, 0 if (id, delay) is the tree's answer
#                    else 1, delay, list, index in STRATEGIES: current 0, session_details 1,
#                    session_details_basic 2, per_request_geocoding 3);
#       current0   = the `current` option at delay 0 (the calls as made).
#     bill(best) < bill(current0), strictly -> recommendation = best (strategy = its id,
#     delay = its delay), keep_current false.  Else (no candidate bills less than the calls
#     as made, also when every bill is $0, and with no candidate at all, which cannot happen
#     since session_details is always valid) -> current, delay 0, keep_current true.
#     `current` at a delay k > 0 is recommended as any other option, keep_current false
#     [issue 19: "the valid option (strategy and delay up to --max-delay) with the lowest
#     bill"; choice: keeping the structure and adding a delay is a real option].  The seeds' example: typing 7 characters at
#     legacy-list prices, the tree says per_request_geocoding delay 3 (4 requests + Geocoding
#     = $0.01632) but delay 4 (3 requests + Geocoding = $0.01349) bills less -> delay 4.
#     The comparison needs the prices: without a table there is no recommendation.

ADDRESS_LOCATION_FIELDS = {
    field_key(name) for name in (
        "place_id", "placeid", "id", "formatted_address", "formattedAddress",
        "address_components", "address_component", "addressComponents", "geometry", "geometry/location",
        "geometry/viewport", "location", "coordinate", "viewport", "plus_code", "plusCode",
        "types", "type",
    )
}
SELECTION_APIS = ("place_details", "address_validation")


def needs_details_auto(searches):
    """P8: (answer, masked selections, masked selections needing details)."""
    masked = needing = 0
    for search in searches:
        sel = search.selection
        if not search.completed or sel.api not in SELECTION_APIS or sel.fields is None:
            continue                                  # not a selection, or no field mask
        masked += 1
        if any(field_key(name) not in ADDRESS_LOCATION_FIELDS for name in sel.fields):
            needing += 1
    return (needing > 0 or masked == 0), masked, needing


def mean_kept(searches, delay):
    """P9: exact mean kept requests per search at `delay` (0 when there is no search)."""
    if not searches:
        return Fraction(0)
    return Fraction(sum(kept_requests(search, delay) for search in searches), len(searches))


def tree_answer(means, be, needs):
    """P10: the decision tree's (strategy, delay) from the exact means and break-even."""
    if needs:
        return "session_details", 0
    if means[0] <= be:
        return "per_request_geocoding", 0
    for k in range(1, len(means)):
        if means[k] <= be:
            return "per_request_geocoding", k
    return "session_details_basic", 0


def micro_usd(usd):
    """P11: a printed USD amount (>= 0) in whole micro-dollars, half up."""
    return math.floor(usd * 1e6 + 0.5)


def follow_the_money(strategies, tree, max_delay):
    """P11: (strategy, delay, keep_current) from the priced options and the tree's answer."""
    options = [o for o in strategies if o["delay"] <= max_delay]
    candidates = [o for o in options if o["valid"] and (o["id"] != "current" or o["delay"] > 0)]
    current0 = next(o for o in options if o["id"] == "current" and o["delay"] == 0)
    if not candidates:
        return "current", 0, True
    best = min(candidates, key=lambda o: (
        micro_usd(o["cost_usd"]),
        0 if (o["id"], o["delay"]) == tree else 1,
        o["delay"],
        micro_usd(o["list_cost_usd"]),
        STRATEGIES.index(o["id"])))
    if micro_usd(best["cost_usd"]) < micro_usd(current0["cost_usd"]):
        return best["id"], best["delay"], False
    return "current", 0, True


def recommend(searches, table, strategies, needs_option="auto", max_delay=4):
    """P10 + P11: the recommendation object (strategy, delay, keep_current, tree_answer and
    the numbers the tree used).  `strategies` is price_strategies' list for this table."""
    auto, masked, needing = needs_details_auto(searches)
    needs = auto if needs_option == "auto" else needs_option == "yes"
    be = break_even_exact(table)
    means = [mean_kept(searches, k) for k in range(max_delay + 1)]
    tree = tree_answer(means, be, needs)
    strategy, delay, keep_current = follow_the_money(strategies, tree, max_delay)
    return {
        "strategy": strategy,
        "delay": delay,
        "keep_current": keep_current,
        "tree_answer": {"strategy": tree[0], "delay": tree[1]},
        # for debugging only (run_cases.py and difftest.py compare strategy, delay,
        # keep_current and tree_answer's strategy and delay):
        "needs_details": needs,
        "needs_details_source": "auto" if needs_option == "auto" else "option",
        "selections_masked": masked,
        "selections_needing_details": needing,
        "means_by_delay": {str(k): round6(m) for k, m in enumerate(means)},
    }


def needs_details_answer(searches, needs_option):
    """P8 after --needs-details: does the app need details (for P6b's `valid`)?"""
    return needs_details_auto(searches)[0] if needs_option == "auto" else needs_option == "yes"


def analyze(paths, timeout, gap, table=None, delays=(), with_skus=False,
            needs_option="auto", max_delay=4):
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
            else:
                result.base.append(call)              # R9/R10: no part in sessions
        elif call.user is not None:
            if call.api in ("autocomplete", "place_details", "geocoding"):
                user_groups.setdefault((call.project, call.user), []).append(call)
            else:
                result.base.append(call)
        else:
            result.base.append(call)                  # R12: no searches without a user

    def order(group):
        return sorted(group, key=lambda c: (c.time, c.seq))

    for key in token_groups:
        walk_token_group(order(token_groups[key]), timeout, result)
    for key in user_groups:
        walk_user_group(order(user_groups[key]), gap, result)

    all_counts = [len(s.acs) for s in result.searches]
    completed_counts = [len(s.acs) for s in result.searches if s.completed]
    report = {
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
    if table is not None:
        report["pricing"] = {"id": table.id}
        priced = sorted(set(delays) | set(range(1, max_delay + 1)))   # docs/cli.md --max-delay
        needs = needs_details_answer(result.searches, needs_option)
        report["strategies"] = price_strategies(result, table, priced, with_skus, needs)
        report["break_even_requests"] = break_even(table)
        report["recommendation"] = recommend(result.searches, table, report["strategies"],
                                             needs_option, max_delay)
    return report


def seconds_option(text):
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError("not a number of seconds: " + text)
    if value < 0:
        raise argparse.ArgumentTypeError("negative: " + text)
    return value


def delays_option(text):
    try:
        values = [int(part) for part in text.split(",") if part.strip() != ""]
    except ValueError:
        raise argparse.ArgumentTypeError("not a comma-separated list of integers: " + text)
    if any(v < 0 for v in values):
        raise argparse.ArgumentTypeError("negative delay: " + text)
    return sorted(set(values))


def max_delay_option(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not an integer: " + text)
    if value < 0:
        raise argparse.ArgumentTypeError("negative: " + text)
    return value


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--session-timeout", type=seconds_option, default=Fraction(180))
    parser.add_argument("--user-gap", type=seconds_option, default=Fraction(60))
    parser.add_argument("--pricing", metavar="TABLE",
                        help="price table JSON file (or an id of ../../Pricing/): adds "
                             "strategies[], break_even_requests and recommendation")
    parser.add_argument("--delays", type=delays_option, default=[1, 2, 3, 4, 5, 6],
                        help="with --pricing: delays priced besides 0 (1..--max-delay are "
                             "always priced)")
    parser.add_argument("--skus", action="store_true",
                        help="with --pricing: also print each strategy's SKU counts (debug)")
    parser.add_argument("--needs-details", choices=["auto", "yes", "no"], default="auto",
                        help="with --pricing: override the recommendation's needs-details "
                             "answer (default auto: from the selections' field masks)")
    parser.add_argument("--max-delay", type=max_delay_option, default=4,
                        help="with --pricing: largest delay the recommendation may choose")
    parser.add_argument("files", nargs="+", metavar="FILE")
    args = parser.parse_args(argv)
    table = None
    if args.pricing:
        try:
            table = Table(args.pricing)
        except (OSError, ValueError, KeyError, IndexError, TypeError) as error:
            sys.stderr.write("reference.py: error: price table %s: %s\n" % (args.pricing, error))
            sys.exit(66)
    try:
        report = analyze(args.files, args.session_timeout, args.user_gap, table, args.delays,
                         args.skus, args.needs_details, args.max_delay)
    except OSError as error:
        sys.stderr.write("reference.py: error: %s\n" % error)
        sys.exit(66)
    json.dump(report, sys.stdout, sort_keys=True, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
