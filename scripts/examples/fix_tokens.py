#!/usr/bin/env python3
"""Write docs/examples/after-fix/ios-app.jsonl: SampleLogs/ios-app.jsonl with its token mistakes fixed.

The same users type the same text at the same times; only what the app sends changes, as it would
after the fixes `analyze` suggests for the sample (docs/sessions.md, "Anomalies"):

- every search gets a session token of its own, made when the user starts typing: no token is
  reused after its details call, none is kept across a pause long enough to expire, none is
  made per keystroke, and the older build's token-less searches get one too;
- a search's selection is a Place Details call on the search's token (the older build's
  `geocoding` call by place ID becomes one), with a field mask (address and location when the
  app sent none);
- a details call that no search led to (a saved place) is sent without a token.

A search is a run of one user's calls, in time order, that ends at a details or geocoding call,
or at a pause of more than PAUSE_SECONDS. Tokens are derived from the user id and the search's
number (uuid5), so running the script again writes a byte-identical file. The records keep the
order of the input file. Used by the README's "Before and after" example of `placescost compare`.

Usage: python3 scripts/examples/fix_tokens.py   (standard library only)
"""

import datetime
import json
import os
import uuid

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir)
IN_PATH = os.path.join(ROOT, "SampleLogs", "ios-app.jsonl")
OUT_PATH = os.path.join(ROOT, "docs", "examples", "after-fix", "ios-app.jsonl")

# Longer than the sample's 45-100 s pauses while typing, well under the 180 s session timeout.
PAUSE_SECONDS = 120
AUTOCOMPLETE = {"autocomplete", "findAutocompletePredictions"}
SELECTION = {"place_details", "fetchPlace", "geocoding"}
ADDRESS_AND_LOCATION = ["formattedAddress", "coordinate"]
KEY_ORDER = ["timestamp", "api", "session_token", "input", "place_id", "fields", "api_version", "user_id", "platform", "status"]
NAMESPACE = uuid.UUID("6f1c1d3e-2a41-4c55-9a55-000000000025")


def time_of(record):
    return datetime.datetime.fromisoformat(record["timestamp"].replace("Z", "+00:00"))


def main():
    with open(IN_PATH, encoding="utf-8") as source:
        records = [json.loads(line) for line in source if line.strip()]

    by_user = {}
    for index, record in enumerate(records):
        by_user.setdefault(record["user_id"], []).append(index)

    tokens = {}  # record index -> the token it is sent with, or None for none
    for user, indices in sorted(by_user.items()):
        indices.sort(key=lambda i: (time_of(records[i]), i))
        search = 0
        open_search = False
        last_time = None
        for i in indices:
            record = records[i]
            now = time_of(record)
            if open_search and (now - last_time).total_seconds() > PAUSE_SECONDS:
                open_search = False
            last_time = now
            if record["api"] in AUTOCOMPLETE:
                if not open_search:
                    search += 1
                    open_search = True
                tokens[i] = str(uuid.uuid5(NAMESPACE, f"{user}/{search}"))
            elif record["api"] in SELECTION:
                tokens[i] = str(uuid.uuid5(NAMESPACE, f"{user}/{search}")) if open_search else None
                open_search = False
            else:
                tokens[i] = record.get("session_token")

    with open(OUT_PATH, "w", encoding="utf-8", newline="\n") as out:
        for index, record in enumerate(records):
            fixed = dict(record)
            fixed.pop("session_token", None)
            if tokens[index] is not None:
                fixed["session_token"] = tokens[index]
            if record["api"] == "geocoding" and tokens[index] is not None:
                fixed["api"] = "place_details"
            if fixed["api"] in {"place_details", "fetchPlace"} and "fields" not in fixed:
                fixed["fields"] = ADDRESS_AND_LOCATION
            ordered = {key: fixed[key] for key in KEY_ORDER if key in fixed}
            ordered.update({key: value for key, value in fixed.items() if key not in ordered})
            out.write(json.dumps(ordered, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"wrote {os.path.relpath(OUT_PATH, ROOT)}: {len(records)} records")


if __name__ == "__main__":
    main()
