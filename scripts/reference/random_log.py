#!/usr/bin/env python3
"""Deterministic generator of adversarial canonical request logs (differential testing).

Usage:
    python3 random_log.py --seed S --searches N [--format jsonl|csv]
                          [--api-version legacy|new|mixed]
                          [--profile random|address-short|address-delay|address-long|details|mix]
                          > file

The same --seed/--searches/--format always give the same bytes.  Each of the N "searches"
is one scenario drawn from SCENARIOS (normal, abandoned, expired, exactly-180-s, reused
tokens, autocomplete after details, details on a fresh token, a token shared by two projects,
token-less calls with and without a user id around the 60 s gap, geocoding with a token,
query_autocomplete, address_validation, unknown api names, timestamp ties, ...).  Calls are
then disordered (shuffled within small windows, sometimes globally), timestamps are written
in mixed formats (Z, +02:00/-05:30 offsets, space separator, micro/nano fractions, epoch-s, epoch-ms
numbers and digit strings), and about 2% malformed records of varied kinds are mixed in.
--api-version sets `api_version` on every valid record: all "legacy", all "new", or "mixed"
(each record legacy or new, drawn from its own seeded stream); without it about half the
records carry a random legacy/new/null value.  The option changes nothing else: the same
calls, times and malformed lines as without it.
--profile (default random: the bytes above, unchanged) steers the recommendation's decision
tree (see PROFILES below): the field masks of place_details calls (address-and-location
masks, details masks, or a mix) and how many autocomplete calls each scenario's typing makes,
typed as growing prefixes of one long text per search (so delays drop the first calls).
The other scenarios keep their own call counts, so they still mix in some short searches.
CSV mode writes the same calls under the canonical header (fields joined by '|') and skips
the malformed kinds that CSV cannot express (bad JSON, wrong JSON types, non-objects).
Standard library only.
"""

import argparse
import csv
import io
import json
import random
import sys

MISSING = object()   # key absent from the record
BASE_US = 1790812800 * 1000000   # 2026-10-01T00:00:00Z in microseconds
HEADER = ["timestamp", "api", "session_token", "input", "place_id", "fields",
          "api_version", "user_id", "project", "platform", "status"]

FIELD_MASKS = [
    MISSING, None, [], ["formattedAddress", "location"], ["name"], ["place_id", "geometry"],
    ["displayName", "rating"], ["formatted_address"], ["addressComponents", "viewport", "types"],
]
INPUT_TEXTS = ["1600 Amphitheatre", "pizza", "Caf\u00e9 de Flore", "M\u00fcnchen Hbf",
               "\u6771\u4eac\u99c5", "a, b", "say \"hi\"", "line\nbreak", "\U0001F355 place",
               "", "   ", "Z\u00fcrich|HB"]
# --profile masks.  ADDRESS_MASKS ask only for fields of docs/sessions.md's address-and-location
# list (in the three naming schemes, any case) or carry no mask; DETAILS_MASKS ask for at
# least one field outside it (one entry carries no mask, for fields_unspecified).  Only
# names whose data SKU docs/billing.md gives under both legacy and New tables are used, so that
# the profiles test the recommendation, not an unspecified field category (New-only names
# such as websiteUri or currentOpeningHours have no legacy category in docs/billing.md s.4).
ADDRESS_MASKS = [
    MISSING, None, [], ["formattedAddress", "location"], ["formatted_address", "geometry"],
    ["place_id", "geometry"], ["formatted_address"], ["addressComponents", "viewport", "types"],
    ["Formatted_Address", "Geometry/Location"], ["plusCode", "id"], ["coordinate"],
    ["geometry/viewport", "type", "plus_code"],
]
DETAILS_MASKS = [
    MISSING, ["name"], ["displayName", "rating"], ["formatted_address", "name"],
    ["formattedAddress", "website"], ["geometry", "opening_hours"], ["openingHours"],
    ["formatted_phone_number"],
]
# --profile typing: one text per search, typed as prefixes 1, 2, ..., n code points (some
# with combining marks, CJK or an emoji so that code points differ from bytes and graphemes);
# each has at least as many code points as the longest run a profile types (27).
LONG_TEXTS = [
    "1600 Amphitheatre Parkway, Mountain View", "Caf\u00e9 de Flore, 172 Boulevard Saint-Germain",
    "M\u00fcnchen Hauptbahnhof, Bayerstra\u00dfe 10A",
    "\u6771\u4eac\u99c5\u4e38\u306e\u5185\u5317\u53e3 \u5343\u4ee3\u7530\u533a\u4e38\u306e\u5185"
    "\u4e00\u4e01\u76ee\u4e5d\u756a\u4e00\u53f7 \u6771\u4eac\u90fd",
    "Cafe\u0301 Central, Herrengasse 14, 1010 Wien",
    "\U0001F355 Pizzeria da Michele, Via Cesare Sersale 1", "Z\u00fcrich HB, Bahnhofplatz 1, 8001 Z\u00fcrich",
]
# Profile -> (masks of place_details calls, autocomplete calls per typing run).  A standalone
# details call (on a fresh token, or token-less without a user) is no selection: in the
# address profiles it may ask for details fields, a trap for a needs-details answer that
# looks at every details call instead of the selections only.
# (The other scenarios' short searches dilute the means: each delay step lowers a log's mean
# by about 0.7, not 1.  Measured with reference.py, 300 searches, seeds 1-40.)
#   address-short  address masks, 1-4 calls: mean about 2.4 -> per-request, delay 0
#   address-delay  address masks; calls per run drawn per log from 4-7, 5-8, 6-9 or 7-10
#                  (legacy break-even 4.24: delay 1, 2, 3 or 4 wins, a few logs reach
#                  session_details_basic; New: delay 0) or 16-21 (New's 12: delay 2-4;
#                  legacy: session_details_basic)
#   address-long   address masks, 22-27 calls: mean about 14.5 at delay 4 -> basic
#                  under both break-evens
#   details        details masks, 1-4 calls -> session_details although the mean is low
#   mix            address masks, 1 in 10 details masks, 1-4 calls -> session_details
PROFILES = ["random", "address-short", "address-delay", "address-long", "details", "mix"]
UNKNOWN_APIS = ["nearby_search", "PhotoMedia", "distance_matrix", "routes", "Autocomplete2"]
ALIASES = {
    "autocomplete": ["autocomplete", "Autocomplete", "findAutocompletePredictions",
                     "AutocompletePlaces", "AUTOCOMPLETE", "findautocompletepredictions"],
    "place_details": ["place_details", "fetchPlace", "GetPlace", "Place_Details", "FETCHPLACE"],
    "geocoding": ["geocoding", "geocode", "Geocode", "GEOCODING"],
    "address_validation": ["address_validation", "Address_Validation"],
    "query_autocomplete": ["query_autocomplete", "Query_Autocomplete"],
}


class Gen:
    def __init__(self, seed, profile=None):
        self.rng = random.Random(seed)
        self.clock = BASE_US + self.rng.randrange(0, 86400) * 1000000
        self.token_no = 0
        self.users = ["user-%d" % i for i in range(1, 9)]
        self.calls = []          # (time_us, record dict)
        self.profile = profile   # None = "random": no extra draw anywhere (bytes unchanged)
        if profile == "address-delay":
            # one scale per log: legacy break-even (4.24) at growing delays, or New's (12)
            self.delay_runs = self.rng.choice([(4, 7), (5, 8), (6, 9), (7, 10), (16, 21)])

    # ---------------------------------------------------------------- helpers
    def token(self):
        self.token_no += 1
        r = self.rng
        return "%08x-%04x-4%03x-%04x-%012x" % (r.getrandbits(32), r.getrandbits(16),
                                                r.getrandbits(12), r.getrandbits(16),
                                                r.getrandbits(48))

    def api_name(self, api):
        if self.rng.random() < 0.8:
            return api
        return self.rng.choice(ALIASES.get(api, [api]))

    def project(self):
        return self.rng.choice([MISSING, MISSING, None, "proj-a", "proj-b", ""])

    def typed(self, prefix_len):
        text = self.rng.choice(INPUT_TEXTS)
        return text[:prefix_len] if prefix_len else text

    def masks(self, role):
        """The masks a place_details call draws from (role "standalone": no selection)."""
        if self.profile is None:
            return FIELD_MASKS
        if self.profile == "details":
            return DETAILS_MASKS
        if self.profile == "mix":
            return DETAILS_MASKS if self.rng.random() < 0.1 else ADDRESS_MASKS
        return ADDRESS_MASKS + DETAILS_MASKS if role == "standalone" else ADDRESS_MASKS

    def typing_count(self):
        """Autocomplete calls of one typing run under a --profile."""
        if self.profile == "address-delay":
            return self.rng.randint(*self.delay_runs)
        if self.profile == "address-long":
            return self.rng.randint(22, 27)
        return self.rng.randint(1, 4)

    def add(self, t, api, token=MISSING, user=MISSING, project=MISSING, fields=MISSING,
            text=MISSING, place=MISSING, role=None):
        r = self.rng
        rec = {"api": self.api_name(api)}
        if token is not MISSING:
            rec["token"] = token
        if text is MISSING and api in ("autocomplete", "query_autocomplete") and r.random() < 0.85:
            text = self.typed(r.randint(1, 12))
        if text is not MISSING:
            rec["input"] = text
        if place is MISSING and api in ("place_details", "geocoding", "address_validation") \
                and r.random() < 0.8:
            place = "ChIJ" + "".join(r.choice("abcdefXYZ0123_-") for _ in range(10))
        if place is not MISSING:
            rec["place_id"] = place
        if api == "place_details" and fields is MISSING:
            fields = r.choice(self.masks(role))
        if fields is not MISSING:
            rec["fields"] = fields
        if user is not MISSING:
            rec["user_id"] = user
        if project is not MISSING:
            rec["project"] = project
        if r.random() < 0.5:
            rec["api_version"] = r.choice(["legacy", "new", None])
        if r.random() < 0.5:
            rec["platform"] = r.choice(["ios", "android", "web", None])
        if r.random() < 0.4:
            rec["status"] = r.choice(["OK", 200, "ZERO_RESULTS", None, 403])
        self.calls.append((t, rec))

    def step(self, lo_s, hi_s):
        """A random delay in microseconds, whole milliseconds."""
        return self.rng.randint(int(lo_s * 1000), int(hi_s * 1000)) * 1000

    def typing(self, t, n, token, user=MISSING, project=MISSING, lo=0.2, hi=8.0):
        """n autocomplete calls starting at t; returns the last call's time."""
        if self.profile is not None and n > 0:
            return self.profile_typing(t, token, user, project, lo, hi)
        for i in range(n):
            if i:
                t += self.step(lo, hi)
            self.add(t, "autocomplete", token=token, user=user, project=project)
        return t

    def profile_typing(self, t, token, user, project, lo, hi):
        """--profile typing run: the prefixes 1..n of one long text, 1 in 20 calls with a null
        input (not recorded: kept by every delay), steps of at most 6 s so that a run of 27
        calls stays inside the 180 s session timeout."""
        r = self.rng
        n = self.typing_count()
        text = r.choice(LONG_TEXTS)
        hi = min(hi, 6.0)
        for i in range(n):
            if i:
                t += self.step(lo, hi)
            typed = None if r.random() < 0.05 else text[:i + 1]
            self.add(t, "autocomplete", token=token, user=user, project=project, text=typed)
        return t

    # ---------------------------------------------------------------- scenarios
    def normal(self, t):
        tok, proj = self.token(), self.project()
        t = self.typing(t, self.rng.randint(1, 9), tok, project=proj)
        self.add(t + self.step(0.3, 20), "place_details", token=tok, project=proj)

    def abandoned(self, t):
        tok, proj = self.token(), self.project()
        self.typing(t, self.rng.randint(1, 7), tok, project=proj)

    def expired(self, t):
        r = self.rng
        tok, proj = self.token(), self.project()
        start = t
        t = self.typing(t, r.randint(1, 4), tok, project=proj, hi=30)
        late = start + r.choice([180001000, 181000000, 240000000, 900000000,
                                 180000000 + 1000, 3600000000])
        t = max(t, late)
        for _ in range(r.randint(0, 3)):
            self.add(t, "autocomplete", token=tok, project=proj)
            t += self.step(0.5, 10)
        if r.random() < 0.7:
            self.add(t, r.choice(["place_details", "place_details", "address_validation"]),
                     token=tok, project=proj)
        if r.random() < 0.3:
            self.typing(t + self.step(1, 5), r.randint(1, 3), tok, project=proj)

    def exactly_timeout(self, t):
        r = self.rng
        tok, proj = self.token(), self.project()
        start = t + r.randint(0, 999) * 1000   # odd milliseconds: float subtraction traps
        self.add(start, "autocomplete", token=tok, project=proj)
        self.typing(start + self.step(1, 60), r.randint(0, 3), tok, project=proj)
        end = start + 180000000
        if r.random() < 0.5:
            self.add(end, "autocomplete", token=tok, project=proj)
            end += r.choice([0, 1000, 5000000])
        if r.random() < 0.8:
            self.add(end, "place_details", token=tok, project=proj)

    def reused(self, t):
        r = self.rng
        tok, proj = self.token(), self.project()
        t = self.typing(t, r.randint(1, 5), tok, project=proj)
        t += self.step(0.5, 10)
        self.add(t, "place_details", token=tok, project=proj)
        for _ in range(r.randint(1, 3)):
            t += self.step(1, 400)
            if r.random() < 0.7:
                t = self.typing(t, r.randint(1, 4), tok, project=proj)
            if r.random() < 0.7:
                t += self.step(0.1, 5)
                self.add(t, "place_details", token=tok, project=proj)

    def after_details(self, t):
        tok, proj = self.token(), self.project()
        t = self.typing(t, self.rng.randint(1, 3), tok, project=proj)
        t += self.step(0.5, 5)
        self.add(t, "place_details", token=tok, project=proj)
        self.typing(t + self.step(0, 3), self.rng.randint(1, 3), tok, project=proj)

    def fresh_details(self, t):
        r = self.rng
        tok, proj = self.token(), self.project()
        self.add(t, r.choice(["place_details", "place_details", "address_validation"]),
                 token=tok, project=proj, role="standalone")
        if r.random() < 0.6:
            t = self.typing(t + self.step(0, 10), r.randint(1, 4), tok, project=proj)
            if r.random() < 0.5:
                self.add(t + self.step(0, 10), "place_details", token=tok, project=proj)

    def two_projects(self, t):
        r = self.rng
        tok = self.token()
        for proj in r.sample(["proj-a", "proj-b", MISSING, None], 2):
            u = t + self.step(0, 5)
            u = self.typing(u, r.randint(1, 4), tok, project=proj)
            if r.random() < 0.7:
                self.add(u + self.step(0, 10), "place_details", token=tok, project=proj)

    def tokenless_user(self, t):
        r = self.rng
        user, proj = r.choice(self.users), r.choice([MISSING, MISSING, "proj-a"])
        notoken = r.choice([MISSING, None, ""])
        gaps_s = [1, 5, 30, 59.999, 60, 60, 60.001, 61, 90]
        for _ in range(r.randint(1, 6)):
            self.add(t, "autocomplete", token=notoken, user=user, project=proj)
            t += int(r.choice(gaps_s) * 1000) * 1000
        t -= int(r.choice(gaps_s) * 1000) * 1000
        t += int(r.choice(gaps_s) * 1000) * 1000
        if r.random() < 0.8:
            self.add(t, r.choice(["place_details", "geocoding", "address_validation"]),
                     token=notoken, user=user, project=proj)

    def tokenless_anonymous(self, t):
        r = self.rng
        t = self.typing(t, r.randint(1, 5), r.choice([MISSING, None, ""]))
        if r.random() < 0.6:
            self.add(t + self.step(0, 30), r.choice(["place_details", "geocoding"]),
                     role="standalone")

    def geocoding_with_token(self, t):
        r = self.rng
        tok, proj = self.token(), self.project()
        t = self.typing(t, r.randint(1, 3), tok, project=proj)
        self.add(t + self.step(0, 5), "geocoding", token=tok, project=proj)
        if r.random() < 0.5:
            self.add(t + self.step(5, 10), "place_details", token=tok, project=proj)
        if r.random() < 0.5:
            self.add(t + self.step(10, 15), "geocoding", token=tok, project=proj)

    def query_autocomplete(self, t):
        r = self.rng
        tok = self.token() if r.random() < 0.5 else MISSING
        user = r.choice(self.users) if r.random() < 0.5 else MISSING
        for _ in range(r.randint(1, 4)):
            self.add(t, "query_autocomplete", token=tok, user=user)
            t += self.step(0.2, 5)
        if r.random() < 0.5:
            self.add(t, "place_details", token=tok, user=user)

    def address_validation(self, t):
        r = self.rng
        tok, proj = self.token(), self.project()
        t = self.typing(t, r.randint(1, 5), tok, project=proj)
        t += self.step(0.5, 20)
        self.add(t, "address_validation", token=tok, project=proj)
        if r.random() < 0.4:
            self.add(t + self.step(0, 5), "address_validation", token=tok, project=proj)

    def unknown_api(self, t):
        r = self.rng
        tok = self.token() if r.random() < 0.5 else MISSING
        for _ in range(r.randint(1, 3)):
            self.calls.append((t, {"api": r.choice(UNKNOWN_APIS), "token": tok}
                               if tok is not MISSING else {"api": r.choice(UNKNOWN_APIS)}))
            t += self.step(0, 5)
        if tok is not MISSING and r.random() < 0.5:
            self.typing(t, r.randint(1, 3), tok)
        for api in ("find_place", "text_search"):
            if r.random() < 0.3:
                self.add(t, api, token=tok)

    def ties(self, t):
        r = self.rng
        tok, proj = self.token(), self.project()
        kinds = ["autocomplete"] * r.randint(1, 3) + ["place_details"] * r.randint(1, 2)
        r.shuffle(kinds)
        for api in kinds:
            self.add(t, api, token=tok, project=proj)
            if r.random() < 0.3:
                t += 1000
        if r.random() < 0.5:
            user = r.choice(self.users)
            self.add(t, "autocomplete", user=user)
            self.add(t, r.choice(["place_details", "geocoding"]), user=user)

    def missing_input(self, t):
        tok = self.token()
        for i in range(self.rng.randint(1, 4)):
            self.add(t + i * 700000, "autocomplete", token=tok, text=None if i % 2 else MISSING)
        self.add(t + 5000000, "place_details", token=tok, fields=self.rng.choice([MISSING, None, []]))

    SCENARIOS = [
        ("normal", 8), ("abandoned", 4), ("expired", 3), ("exactly_timeout", 2),
        ("reused", 3), ("after_details", 2), ("fresh_details", 2), ("two_projects", 2),
        ("tokenless_user", 5), ("tokenless_anonymous", 2), ("geocoding_with_token", 2),
        ("query_autocomplete", 1), ("address_validation", 2), ("unknown_api", 1),
        ("ties", 2), ("missing_input", 1),
    ]

    def generate(self, searches):
        names = [n for n, w in self.SCENARIOS for _ in range(w)]
        for _ in range(searches):
            getattr(self, self.rng.choice(names))(self.clock)
            self.clock += self.step(0, 120)   # scenarios overlap in time
        self.calls.sort(key=lambda c: c[0])
        r = self.rng
        if r.random() < 0.25:
            r.shuffle(self.calls)                 # global disorder
        else:
            i = 0
            while i < len(self.calls):            # disorder within windows
                w = r.randint(1, 12)
                window = self.calls[i:i + w]
                if r.random() < 0.6:
                    r.shuffle(window)
                self.calls[i:i + w] = window
                i += w
        return self.calls


# -------------------------------------------------------------------- formatting

def civil_from_days(z):
    z += 719468
    era = (z if z >= 0 else z - 146096) // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return y + (m <= 2), m, d


def rfc3339(t_us, offset_min, sep="T", frac_digits=3):
    local = t_us + offset_min * 60 * 1000000
    secs, us = divmod(local, 1000000)
    days, sod = divmod(secs, 86400)
    y, m, d = civil_from_days(days)
    text = "%04d-%02d-%02d%s%02d:%02d:%02d" % (y, m, d, sep, sod // 3600, sod // 60 % 60, sod % 60)
    if frac_digits == 3:
        if us % 1000:
            frac_digits = 6
        elif us == 0:
            frac_digits = 0
    if frac_digits:
        text += "." + ("%06d" % us + "000")[:frac_digits]
    if offset_min == 0 and frac_digits != 9:
        return text + "Z"
    sign = "+" if offset_min >= 0 else "-"
    return text + "%s%02d:%02d" % (sign, abs(offset_min) // 60, abs(offset_min) % 60)


def timestamp(rng, t_us, csv_mode):
    choice = rng.random()
    whole_ms = t_us % 1000 == 0
    if choice < 0.05 and t_us % 1_000_000 == 0:
        # Epoch seconds: a number below 10^11 is read as seconds.
        return t_us // 1_000_000 if not csv_mode and rng.random() < 0.7 else str(t_us // 1_000_000)
    if choice < 0.05 and whole_ms and not csv_mode:
        # Epoch seconds with milliseconds, as a JSON number.
        return (t_us // 1000) / 1000
    if choice < 0.15 and whole_ms:
        return t_us // 1000 if not csv_mode and rng.random() < 0.7 else str(t_us // 1000)
    if choice < 0.35:
        return rfc3339(t_us, rng.choice([120, -330, 60, 0, 345, -600]))
    if choice < 0.42:
        return rfc3339(t_us, rng.choice([0, 120]), sep=" ")
    if choice < 0.47:
        return rfc3339(t_us, rng.choice([0, -300]), frac_digits=9)
    return rfc3339(t_us, 0)


def malformed_kinds(csv_mode):
    both = ["month13", "day32", "feb29", "hour24", "minute60", "no_offset", "bad_offset",
            "garbage_ts", "missing_ts", "epoch_too_big", "epoch_negative", "missing_api",
            "empty_api", "bad_utf8"]
    json_only = ["truncated", "trailing_garbage", "not_object", "token_number",
                 "fields_string", "fields_numbers", "user_object", "user_bool",
                 "project_array", "status_object", "api_number", "input_number",
                 "place_number", "version_bool", "ts_bool", "ts_nan", "ts_object"]
    return both if csv_mode else both + json_only


def make_malformed(rng, t_us, kind):
    """Returns (record dict or raw str/bytes line)."""
    rec = {"timestamp": rfc3339(t_us, 0), "api": rng.choice(["autocomplete", "place_details"]),
           "session_token": "bad-%d" % rng.randrange(10 ** 6)}
    ts = rec["timestamp"]
    if kind == "month13":
        rec["timestamp"] = ts[:5] + "13" + ts[7:]
    elif kind == "day32":
        rec["timestamp"] = ts[:8] + "32" + ts[10:]
    elif kind == "feb29":
        rec["timestamp"] = "2026-02-29" + ts[10:]
    elif kind == "hour24":
        rec["timestamp"] = ts[:11] + "24" + ts[13:]
    elif kind == "minute60":
        rec["timestamp"] = ts[:14] + "60" + ts[16:]
    elif kind == "no_offset":
        rec["timestamp"] = ts.rstrip("Z")
    elif kind == "bad_offset":
        rec["timestamp"] = ts.rstrip("Z") + rng.choice(["+25:00", "+0200", "+02", "UTC", "+02:60"])
    elif kind == "garbage_ts":
        rec["timestamp"] = rng.choice(["yesterday", "2026/10/01 09:00:00", "", "1.5e12x",
                                       "2026-10-01", "T09:00:00Z", " 1790812800000"])
    elif kind == "missing_ts":
        del rec["timestamp"]
    elif kind == "epoch_too_big":
        rec["timestamp"] = rng.choice([253402300800000, 10 ** 16])
    elif kind == "epoch_negative":
        rec["timestamp"] = -rng.randint(1, 10 ** 12)
    elif kind == "missing_api":
        del rec["api"]
    elif kind == "empty_api":
        rec["api"] = ""
    elif kind == "bad_utf8":
        rec["input"] = "caf\udce9"   # a lone 0xE9 byte once encoded with surrogateescape
    elif kind == "truncated":
        return json.dumps(rec)[:rng.randint(1, 40)]
    elif kind == "trailing_garbage":
        return json.dumps(rec) + rng.choice([" x", "}", ",", " {}"])
    elif kind == "not_object":
        return rng.choice(["[1,2,3]", "\"autocomplete\"", "42", "null", "true", "[{}]"])
    elif kind == "token_number":
        rec["session_token"] = rng.randint(0, 99999)
    elif kind == "fields_string":
        rec["fields"] = "formattedAddress,location"
    elif kind == "fields_numbers":
        rec["fields"] = ["name", 3]
    elif kind == "user_object":
        rec["user_id"] = {"id": "u1"}
    elif kind == "user_bool":
        rec["user_id"] = rng.choice([True, False])
    elif kind == "project_array":
        rec["project"] = ["p1"]
    elif kind == "status_object":
        rec["status"] = {"code": 200}
    elif kind == "api_number":
        rec["api"] = 7
    elif kind == "input_number":
        rec["input"] = 1234
    elif kind == "place_number":
        rec[rng.choice(["place_id", "placeId"])] = 99
    elif kind == "version_bool":
        rec["api_version"] = True
    elif kind == "ts_bool":
        rec["timestamp"] = True
    elif kind == "ts_nan":
        return json.dumps(rec).replace(json.dumps(ts), rng.choice(["NaN", "Infinity", "-Infinity"]))
    elif kind == "ts_object":
        rec["timestamp"] = {"seconds": 1790812800}
    return rec


def json_line(rng, t_us, rec):
    out = {}
    keys = ["timestamp", "api", "token", "input", "place_id", "fields", "api_version",
            "user_id", "project", "platform", "status"]
    rng.shuffle(keys)
    for key in keys:
        if key == "timestamp":
            out["timestamp"] = timestamp(rng, t_us, csv_mode=False)
        elif key in rec:
            if key == "token":
                out[rng.choice(["session_token", "session_token", "sessionToken"])] = rec[key]
            elif key == "place_id":
                out[rng.choice(["place_id", "place_id", "placeId"])] = rec[key]
            else:
                out[key] = rec[key]
    if rng.random() < 0.1:
        out["extra_" + rng.choice(["trace", "latency_ms", "region"])] = rng.choice(["x", 12, None, [1]])
    return json.dumps(out, ensure_ascii=rng.random() < 0.5,
                      separators=rng.choice([(",", ":"), (", ", ": ")]))


def csv_cells(rng, t_us, rec):
    def cell(value):
        if value is MISSING or value is None:
            return ""
        if isinstance(value, list):
            return "|".join(value)
        return str(value)
    row = {
        "timestamp": timestamp(rng, t_us, csv_mode=True),
        "api": rec.get("api", MISSING),
        "session_token": rec.get("token", MISSING),
        "input": rec.get("input", MISSING),
        "place_id": rec.get("place_id", MISSING),
        "fields": rec.get("fields", MISSING),
        "api_version": rec.get("api_version", MISSING),
        "user_id": rec.get("user_id", MISSING),
        "project": rec.get("project", MISSING),
        "platform": rec.get("platform", MISSING),
        "status": rec.get("status", MISSING),
    }
    return [cell(row[h]) for h in HEADER]


def malformed_csv_cells(rec):
    def cell(value):
        return "" if value is None else str(value)
    mapping = dict(rec)
    if "session_token" in mapping:
        mapping["session_token"] = mapping.pop("session_token")
    return [cell(mapping.get(h)) for h in HEADER]


def main():
    parser = argparse.ArgumentParser(description="adversarial canonical log generator")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--searches", type=int, required=True)
    parser.add_argument("--format", choices=["jsonl", "csv"], default="jsonl")
    parser.add_argument("--malformed-rate", type=float, default=0.02)
    parser.add_argument("--api-version", choices=["legacy", "new", "mixed"],
                        help="api_version of every valid record (default: a random mix "
                             "with absent and null values)")
    parser.add_argument("--profile", choices=PROFILES, default="random",
                        help="steer field masks and typing length towards one branch of the "
                             "recommendation (default random: the bytes of before)")
    parser.add_argument("--manifest", metavar="FILE",
                        help="also write {records, rejected} as known by construction")
    args = parser.parse_args()

    gen = Gen(args.seed, None if args.profile == "random" else args.profile)
    calls = gen.generate(args.searches)
    if args.api_version:
        versions = random.Random(args.seed * 31337 + 11)   # own stream: nothing else moves
        for _, rec in calls:
            rec["api_version"] = args.api_version if args.api_version != "mixed" \
                else versions.choice(["legacy", "new"])
    csv_mode = args.format == "csv"
    # Where malformed and blank lines go, and of which kind, is drawn from its own stream so
    # that the JSONL and CSV files of one seed hold the same valid calls in the same order
    # (their analyses must agree on everything but input.rejected).  Kinds CSV cannot
    # express are skipped in CSV mode.
    noise = random.Random(args.seed * 7919 + 17)
    rng = random.Random(args.seed * 104729 + (3 if csv_mode else 5))   # per-format styling
    all_kinds = malformed_kinds(False)
    csv_kinds = set(malformed_kinds(True))
    crlf = noise.random() < 0.3
    bom = noise.random() < 0.2
    newline = "\r\n" if crlf else "\n"

    lines = []          # ("ok", (time, record)) / ("bad", record or raw line) / ("blank", None)
    for t_us, rec in calls:
        # never a malformed first record: a non-'{' first line would make a JSONL file
        # look like CSV (format detection is by content)
        if lines and noise.random() < args.malformed_rate:
            kind = noise.choice(all_kinds)
            bad = make_malformed(noise, t_us + noise.randint(0, 5) * 1000000, kind)
            if not csv_mode or kind in csv_kinds:
                lines.append(("bad", bad))
        if noise.random() < 0.01:
            lines.append(("blank", None))
        lines.append(("ok", (t_us, rec)))

    out = io.StringIO()
    if csv_mode:
        writer = csv.writer(out, lineterminator=newline)
        writer.writerow(HEADER)
        for kind, item in lines:
            if kind == "blank":
                out.write(newline)
            elif kind == "bad":
                writer.writerow(malformed_csv_cells(item))
            else:
                writer.writerow(csv_cells(rng, item[0], item[1]))
    else:
        for kind, item in lines:
            if kind == "blank":
                out.write(rng.choice(["", "  ", "\t"]) + newline)
            elif kind == "bad":
                text = item if isinstance(item, str) else json.dumps(item, ensure_ascii=False)
                out.write(text + newline)
            else:
                out.write(json_line(rng, item[0], item[1]) + newline)
    data = out.getvalue().encode("utf-8", errors="surrogateescape")
    if bom:
        data = b"\xef\xbb\xbf" + data
    sys.stdout.buffer.write(data)
    if args.manifest:
        with open(args.manifest, "w") as handle:
            json.dump({"records": sum(1 for k, _ in lines if k == "ok"),
                       "rejected": sum(1 for k, _ in lines if k == "bad")}, handle)


if __name__ == "__main__":
    main()
