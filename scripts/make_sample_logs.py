#!/usr/bin/env python3
"""Write SampleLogs/ios-app.jsonl: a simulated week of Places calls from an iOS app.

The file is a canonical request log (docs/formats.md, section 1) for an app that
uses the Places SDK for iOS (legacy) from 2026-10-01 to 2026-10-07 UTC. Nothing in it comes
from real users. The random generator has a fixed seed, so running this script again writes
a byte-identical file.

Besides ordinary searches, the log holds a few of each anomaly the tool must recognise
(reused token, expired session, one-request sessions, details without autocomplete, details
without token), token-less calls from an older app build, alias `api` names and records
slightly out of order. The summary printed at the end lists what the generator intended;
what the tool derives from the file is what `swift run placescost analyze` prints.

Usage: python3 scripts/make_sample_logs.py   (standard library only)
"""

import datetime
import hashlib
import json
import os
import random
import string
import uuid
from collections import Counter

SEED = 20261001
OUT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "SampleLogs", "ios-app.jsonl")

PERIOD_START = datetime.datetime(2026, 10, 1, tzinfo=datetime.timezone.utc)
PERIOD_DAYS = 7
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
PERIOD_START_MS = (PERIOD_START - EPOCH) // datetime.timedelta(milliseconds=1)
PERIOD_END_MS = PERIOD_START_MS + PERIOD_DAYS * 86_400_000

KEY_ORDER = ("timestamp", "api", "session_token", "input", "place_id", "fields",
             "api_version", "user_id", "platform", "status")

USER_COUNT = 120
OLD_BUILD_USERS = 12          # app build that sends no session token
MIN_GAP_BETWEEN_SEARCHES_MS = 5 * 60_000   # one user's searches never overlap or touch

# Searches the generator plans, by kind. A "reused_token" plan is two searches (the second
# reuses the token of the first); a "details_without_autocomplete" plan is one details call
# and no search.
PLAN_COUNTS = {
    "completed": 362,
    "completed_with_long_pause": 6,
    "abandoned": 70,
    "tokenless_geocoded": 43,
    "tokenless_abandoned": 8,
    "reused_token": 4,
    "autocomplete_after_details": 4,
    "expired": 1,
    "token_per_keystroke": 4,
    "details_without_token": 4,
    "details_without_autocomplete": 4,
}

ALIAS_SHARE = 0.03            # records whose api is spelled as the SDK method name
DISORDER_SHARE = 0.015        # records swapped with one a few lines later (two move each time)
TYPO_SHARE = 0.05             # searches with one mistyped character, then a backspace

# (UTC offset in hours in October 2026, share of users, queries typed there)
REGIONS = {
    "us-west": (-7, 0.12, [
        "1600 Amphitheatre Pkwy", "1 Infinite Loop", "Golden Gate Bridge", "Pike Place Market",
        "2211 N First St San Jose", "Ferry Building", "Starbucks Reserve Roastery",
    ]),
    "us-east": (-4, 0.12, [
        "350 5th Ave", "JFK Terminal 4", "Union Station Chicago", "500 Boylston St",
        "Walgreens Mission St", "Grand Central Terminal",
    ]),
    "uk": (1, 0.09, [
        "221B Baker Street", "10 Downing Street", "King's Cross Station", "Tate Modern",
        "Borough Market", "Heathrow Terminal 5",
    ]),
    "fr": (2, 0.08, [
        "Rue de Rivoli 99", "Café de Flore", "Gare de Lyon", "Musée d'Orsay",
        "12 rue de la Paix", "Boulangerie Poilâne",
    ]),
    "de": (2, 0.08, [
        "Brandenburger Tor", "Friedrichstraße 43", "Hauptbahnhof München", "Kölner Dom",
        "Schönhauser Allee 36",
    ]),
    "es": (2, 0.05, [
        "Sagrada Família", "Plaça de Catalunya", "Calle de Alcalá 42",
    ]),
    "pl": (2, 0.06, [
        "Kraków Główny", "Rynek Główny 1", "Łazienki Królewskie", "ul. Marszałkowska 104",
    ]),
    "tr": (3, 0.07, [
        "İstiklal Caddesi", "Kadıköy İskele", "Ayasofya", "Bağdat Caddesi 300",
    ]),
    "il": (3, 0.05, [
        "הכותל המערבי", "דיזנגוף סנטר", "רחוב יפו 97 ירושלים",
    ]),
    "ae": (4, 0.06, [
        "مول الإمارات", "برج خليفة", "دبي مول", "شارع الشيخ زايد",
    ]),
    "in": (5.5, 0.07, [
        "नई दिल्ली रेलवे स्टेशन", "इंडिया गेट", "चांदनी चौक", "Connaught Place", "MG Road Bengaluru",
    ]),
    "jp": (9, 0.07, [
        "東京タワー", "渋谷駅", "新宿御苑", "大阪城", "東京都港区芝公園4-2-8",
    ]),
    "br": (-3, 0.08, [
        "São Paulo Museu", "Avenida Paulista 1578", "Praça da Sé", "Estação da Luz",
    ]),
}
HOME_QUERY_SHARE = 0.8        # the rest are typed while travelling: any region's query

# Relative activity by local hour (0..23): quiet at night, busy at midday and early evening.
HOUR_WEIGHTS = [1, 0.5, 0.3, 0.2, 0.2, 0.4, 1.5, 3, 5, 5, 5, 6,
                7, 6, 5, 5, 6, 8, 8, 7, 6, 4, 3, 2]

# GMSPlaceProperty names, as the app passes them to fetchPlace.
FIELD_MASKS = [
    # (share of searches, mask; None = no field mask at all)
    (0.40, ["formattedAddress", "coordinate"]),
    (0.30, ["placeID", "formattedAddress", "addressComponents", "coordinate"]),
    (0.12, ["name", "formattedAddress", "coordinate", "openingHours", "phoneNumber"]),
    (0.08, ["name", "rating", "photos"]),
    (0.05, ["name", "formattedAddress", "coordinate"]),
    (0.05, None),
]
ADDRESS_ONLY_MASK = ["placeID", "formattedAddress", "addressComponents", "coordinate"]

URLSAFE = string.ascii_letters + string.digits + "-_"

rng = random.Random(SEED)
typos_made = 0


# ---------------------------------------------------------------------------------------------
# Small random helpers

def new_token():
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def ms_between(low_s, high_s, mode_s=None):
    """A duration in whole milliseconds, triangular between low_s and high_s seconds."""
    if mode_s is None:
        return int(rng.uniform(low_s, high_s) * 1000)
    return int(rng.triangular(low_s, high_s, mode_s) * 1000)


def weighted(pairs):
    total = sum(w for w, _ in pairs)
    x = rng.random() * total
    for w, value in pairs:
        x -= w
        if x < 0:
            return value
    return pairs[-1][1]


def format_ms(ms):
    t = EPOCH + datetime.timedelta(milliseconds=ms)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (ms % 1000)


# ---------------------------------------------------------------------------------------------
# Users and places

def make_users():
    regions = list(REGIONS)
    users = []
    for i in range(1, USER_COUNT + 1):
        region = weighted([(REGIONS[r][1], r) for r in regions])
        # A few heavy users, many occasional ones.
        activity = 0.8 + 4.0 * rng.random() ** 3
        users.append({"id": "u-%04d" % i, "region": region, "activity": activity,
                      "old_build": False})
    for user in rng.sample(users, OLD_BUILD_USERS):
        user["old_build"] = True
    return users


ALL_QUERIES = [q for r in REGIONS for q in REGIONS[r][2]]
PLACE_IDS = {}
for _query in ALL_QUERIES:
    PLACE_IDS[_query] = "ChIJ" + "".join(rng.choice(URLSAFE) for _ in range(23))


def pick_query(user):
    if rng.random() < HOME_QUERY_SHARE:
        return rng.choice(REGIONS[user["region"]][2])
    return rng.choice(ALL_QUERIES)


def pick_mask():
    return weighted([(share, mask) for share, mask in FIELD_MASKS])


# ---------------------------------------------------------------------------------------------
# Typing: one autocomplete call per keystroke, some skipped by the debounce

def chars_at_selection(query):
    """How many characters the user has typed when the wanted prediction shows up."""
    n = int(round(rng.triangular(3, 15, 5)))
    return max(2, min(n, len(query)))


def chars_at_abandon(query):
    n = int(round(rng.triangular(1, 12, 3)))
    return max(1, min(n, len(query)))


def keystrokes(query, count, allow_typo=True, long_pause=False):
    """Keystrokes typing the first `count` characters of `query`.

    Returns (offset_ms, text_in_field, status) for each autocomplete call the app makes:
    a keystroke followed within 0.5 s by the next one is often swallowed by the debounce;
    the last keystroke always fires. With a typo, a wrong letter is typed and erased.
    """
    global typos_made
    events = []   # (offset_ms, text) for every keystroke
    t = 0
    typo_at = None
    if allow_typo and count >= 4 and rng.random() < TYPO_SHARE:
        candidates = [i for i in range(2, count - 1) if query[i].isascii() and query[i].isalpha()]
        if candidates:
            typo_at = rng.choice(candidates)
    if typo_at is not None:
        typos_made += 1
    pause_at = rng.randrange(2, count) if long_pause and count > 2 else None
    for i in range(1, count + 1):
        if i > 1:
            t += ms_between(0.3, 1.5, 0.6)
        if pause_at is not None and i == pause_at + 1:
            t += ms_between(45, 100)
        if typo_at is not None and i == typo_at + 1:
            wrong = rng.choice([c for c in string.ascii_lowercase if c != query[typo_at].lower()])
            events.append((t, query[:typo_at] + wrong, True))
            t += ms_between(0.4, 1.2)
            events.append((t, query[:typo_at], False))   # after backspace
            t += ms_between(0.3, 1.0)
        events.append((t, query[:i], False))
    calls = []
    for k, (offset, text, is_typo) in enumerate(events):
        last = k == len(events) - 1
        if not last and events[k + 1][0] - offset < 500 and rng.random() < 0.6:
            continue
        status = "OK"
        if is_typo and rng.random() < 0.3:
            status = "ZERO_RESULTS"
        elif not last and rng.random() < 0.01:
            status = "ZERO_RESULTS"
        calls.append((offset, text, status))
    return calls


# ---------------------------------------------------------------------------------------------
# Plans: the calls of one user action, with times relative to its start

def ac(offset, text, token, status="OK"):
    return {"t": offset, "api": "autocomplete", "session_token": token, "input": text,
            "status": status}


def details(offset, query, token, mask):
    call = {"t": offset, "api": "place_details", "session_token": token,
            "place_id": PLACE_IDS[query], "status": "OK"}
    if mask is not None:
        call["fields"] = list(mask)
    return call


def geocode(offset, query):
    return {"t": offset, "api": "geocoding", "place_id": PLACE_IDS[query], "status": "OK"}


def typed_session(query, count, token, long_pause=False):
    return [ac(o, text, token, status) for o, text, status in keystrokes(query, count, long_pause=long_pause)]


def plan_completed(user, long_pause=False):
    query = pick_query(user)
    token = new_token()
    calls = typed_session(query, chars_at_selection(query), token, long_pause)
    calls.append(details(calls[-1]["t"] + ms_between(1, 4), query, token, pick_mask()))
    return calls


def plan_abandoned(user):
    query = pick_query(user)
    calls = typed_session(query, chars_at_abandon(query), new_token())
    if rng.random() < 0.2:
        calls[-1]["status"] = "ZERO_RESULTS"   # nothing useful came back; the user gave up
    return calls


def plan_tokenless(user, selects):
    query = pick_query(user)
    count = chars_at_selection(query) if selects else chars_at_abandon(query)
    calls = typed_session(query, count, None)
    if selects:
        calls.append(geocode(calls[-1]["t"] + ms_between(1, 4), query))
    return calls


def plan_reused_token(user):
    """Two searches on one token: the app keeps the token after the first selection."""
    token = new_token()
    first = pick_query(user)
    calls = typed_session(first, chars_at_selection(first), token)
    calls.append(details(calls[-1]["t"] + ms_between(1, 4), first, token, pick_mask()))
    second = pick_query(user)
    start = calls[-1]["t"] + ms_between(15, 120)
    for o, text, status in keystrokes(second, chars_at_selection(second)):
        calls.append(ac(start + o, text, token, status))
    calls.append(details(calls[-1]["t"] + ms_between(1, 4), second, token, pick_mask()))
    return calls


def plan_autocomplete_after_details(user):
    """Setting the field to the chosen place fires autocomplete again on the spent token."""
    calls = plan_completed(user)
    token = calls[-1]["session_token"]
    query = next(q for q, pid in PLACE_IDS.items() if pid == calls[-1]["place_id"])
    t = calls[-1]["t"] + ms_between(0.1, 0.5)
    calls.append(ac(t, query, token))
    if rng.random() < 0.75:
        t += ms_between(2, 8)
        calls.append(ac(t, query[:-1], token))   # the user deletes a character
    return calls


def plan_expired(user):
    """The user types, leaves the app for over four minutes, comes back and selects."""
    query = pick_query(user)
    while len(query) < 8:
        query = pick_query(user)
    token = new_token()
    keys = []
    while len(keys) < 5:
        keys = keystrokes(query, max(chars_at_selection(query), 6), allow_typo=False)
    split = 3
    idle = ms_between(250, 400)
    calls = [ac(o, text, token, status) for o, text, status in keys[:split]]
    calls += [ac(o + idle, text, token, status) for o, text, status in keys[split:]]
    calls.append(details(calls[-1]["t"] + ms_between(1, 4), query, token, pick_mask()))
    return calls


def plan_token_per_keystroke(user):
    """A bug: a fresh token on every keystroke; details carry the last one."""
    query = pick_query(user)
    calls = [ac(o, text, new_token(), status)
             for o, text, status in keystrokes(query, chars_at_selection(query))]
    calls.append(details(calls[-1]["t"] + ms_between(1, 4), query,
                         calls[-1]["session_token"], pick_mask()))
    return calls


def plan_details_without_token(user):
    calls = plan_completed(user)
    calls[-1]["session_token"] = None
    return calls


def plan_details_without_autocomplete(user):
    """Details for a saved place, fetched with a fresh token no autocomplete call used."""
    query = pick_query(user)
    return [details(0, query, new_token(), ADDRESS_ONLY_MASK)]


PLANNERS = {
    "completed": plan_completed,
    "completed_with_long_pause": lambda u: plan_completed(u, long_pause=True),
    "abandoned": plan_abandoned,
    "tokenless_geocoded": lambda u: plan_tokenless(u, True),
    "tokenless_abandoned": lambda u: plan_tokenless(u, False),
    "reused_token": plan_reused_token,
    "autocomplete_after_details": plan_autocomplete_after_details,
    "expired": plan_expired,
    "token_per_keystroke": plan_token_per_keystroke,
    "details_without_token": plan_details_without_token,
    "details_without_autocomplete": plan_details_without_autocomplete,
}


# ---------------------------------------------------------------------------------------------
# Scheduling: a start time per plan, in the user's waking hours, never near their other plans

def pick_start(user, duration_ms, busy):
    offset_h = REGIONS[user["region"]][0]
    max_weight = max(HOUR_WEIGHTS)
    while True:
        start = PERIOD_START_MS + rng.randrange(PERIOD_END_MS - PERIOD_START_MS - duration_ms)
        local_hour = int(((start / 3_600_000) + offset_h) % 24)
        if rng.random() * max_weight > HOUR_WEIGHTS[local_hour]:
            continue
        end = start + duration_ms
        if all(end + MIN_GAP_BETWEEN_SEARCHES_MS <= s or e + MIN_GAP_BETWEEN_SEARCHES_MS <= start
               for s, e in busy):
            busy.append((start, end))
            return start


def main():
    users = make_users()
    new_build = [u for u in users if not u["old_build"]]
    old_build = [u for u in users if u["old_build"]]

    kinds = [kind for kind, n in PLAN_COUNTS.items() for _ in range(n)]
    rng.shuffle(kinds)

    busy = {u["id"]: [] for u in users}
    records = []   # (time_ms, sequence, record)
    for kind in kinds:
        pool = old_build if kind.startswith("tokenless") else new_build
        user = weighted([(u["activity"], u) for u in pool])
        calls = PLANNERS[kind](user)
        start = pick_start(user, calls[-1]["t"] - calls[0]["t"], busy[user["id"]])
        for call in calls:
            rec = {"timestamp": start + call["t"] - calls[0]["t"], "api": call["api"]}
            if call.get("session_token"):
                rec["session_token"] = call["session_token"]
            for key in ("input", "place_id", "fields"):
                if key in call:
                    rec[key] = call[key]
            rec.update(api_version="legacy", user_id=user["id"], platform="ios",
                       status=call["status"])
            records.append(rec)

    records.sort(key=lambda r: r["timestamp"])   # stable: ties keep generation order

    # Spell a few api names as the SDK methods the app calls.
    aliases = {"autocomplete": "findAutocompletePredictions", "place_details": "fetchPlace"}
    for rec in records:
        if rec["api"] in aliases and rng.random() < ALIAS_SHARE:
            rec["api"] = aliases[rec["api"]]

    # Late telemetry uploads: a record written a few lines after its time.
    swapped = 0
    touched = set()
    for i in range(len(records)):
        if i in touched or rng.random() >= DISORDER_SHARE:
            continue
        j = i + rng.randint(1, 4)
        if j >= len(records) or j in touched:
            continue
        records[i], records[j] = records[j], records[i]
        touched.update((i, j))
        swapped += 1

    lines = []
    for rec in records:
        rec["timestamp"] = format_ms(rec["timestamp"])
        ordered = {k: rec[k] for k in KEY_ORDER if k in rec}
        lines.append(json.dumps(ordered, separators=(",", ":"), ensure_ascii=False))
    data = ("\n".join(lines) + "\n").encode("utf-8")

    out_path = os.path.normpath(OUT_PATH)
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    with open(out_path, "wb") as f:
        f.write(data)

    print_summary(out_path, data, records, swapped)


def print_summary(out_path, data, records, swapped):
    by_api = Counter(r["api"] for r in records)
    canonical = Counter({"autocomplete": by_api["autocomplete"] + by_api["findAutocompletePredictions"],
                         "place_details": by_api["place_details"] + by_api["fetchPlace"],
                         "geocoding": by_api["geocoding"]})
    print("wrote %s" % out_path)
    print("  %d records, %d bytes, sha256 %s" % (len(records), len(data), hashlib.sha256(data).hexdigest()))
    print("  period %s .. %s" % (min(r["timestamp"] for r in records), max(r["timestamp"] for r in records)))
    print("  users: %d in the file (of %d simulated; %d on the old build that sends no token)"
          % (len({r["user_id"] for r in records}), USER_COUNT, OLD_BUILD_USERS))
    print()
    print("calls per api (as written):")
    for api, n in sorted(by_api.items(), key=lambda kv: (-kv[1], kv[0])):
        print("  %-28s %5d" % (api, n))
    print("calls per api (aliases folded):")
    for api, n in canonical.items():
        print("  %-28s %5d" % (api, n))
    no_token = sum(1 for r in records if "session_token" not in r)
    print("  records without session_token %5d" % no_token)
    print("  records with fields absent on details %d" % sum(
        1 for r in records if r["api"] in ("place_details", "fetchPlace") and "fields" not in r))
    print("  records with status ZERO_RESULTS %d" % sum(1 for r in records if r["status"] == "ZERO_RESULTS"))
    print("  records swapped out of time order %d pairs" % swapped)
    print("  searches with a typo erased by backspace %d" % typos_made)
    print()
    print("what the generator intended (user actions, not the tool's analysis):")
    notes = {
        "completed": "typed, then selected (details with the token)",
        "completed_with_long_pause": "as above, with one 45-100 s pause while typing",
        "abandoned": "typed with a token, no selection",
        "tokenless_geocoded": "old build: no token, then geocoding by place_id",
        "tokenless_abandoned": "old build: no token, no selection",
        "reused_token": "two searches each; the second reuses the first's spent token",
        "autocomplete_after_details": "completed, then 1-2 autocomplete calls on the spent token",
        "expired": "idle over 4 min mid-search, then typed on and selected, same token",
        "token_per_keystroke": "a fresh token per autocomplete call, details with the last",
        "details_without_token": "autocomplete with a token, details with none",
        "details_without_autocomplete": "one details call on a token no autocomplete used (not a search)",
    }
    searches = 0
    for kind, n in PLAN_COUNTS.items():
        print("  %-30s %4d  %s" % (kind, n, notes[kind]))
        if kind == "reused_token":
            searches += 2 * n
        elif kind != "details_without_autocomplete":
            searches += n
    print("  user searches intended in all: %d" % searches)


if __name__ == "__main__":
    main()
