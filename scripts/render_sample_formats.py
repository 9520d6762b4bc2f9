#!/usr/bin/env python3
"""Render SampleLogs/ios-app.jsonl as the other inputs `analyze` reads: the same traffic as a
backend proxy's nginx access log (legacy web-service URLs) and as a HAR capture of a web app
on Places API (New).

    python3 scripts/render_sample_formats.py

Writes SampleLogs/proxy/access.log and SampleLogs/har/web-app.har (sub-folders, so that
`placescost analyze` with no path, which reads the files directly in SampleLogs/, still reads
the canonical log once). Byte for byte reproducible; standard library only.

How each canonical field is carried, so that the three files give the same searches:
- time: the access log uses nginx's `combined` format, whose `$time_local` has whole seconds
  (no session or user gap of this sample changes when its times are cut to the second), the HAR
  `startedDateTime` keeps the milliseconds;
- user id: the access log's `$remote_user`; the HAR's `X-User-Id` request header;
- token, input and fields: the legacy URL parameters `sessiontoken`, `input`, `fields`; in the
  HAR the JSON body of `POST places:autocomplete` (`input`, `sessionToken`) and, for details,
  `?sessionToken=` with the `X-Goog-FieldMask` header.
Every request carries a placeholder API key (`key=` or `X-Goog-Api-Key`), as real ones do: the
tool must never print it.
"""

import json
import os
import urllib.parse
from datetime import datetime, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, "SampleLogs", "ios-app.jsonl")
ACCESS = os.path.join(ROOT, "SampleLogs", "proxy", "access.log")
HAR = os.path.join(ROOT, "SampleLogs", "har", "web-app.har")
KEY = "AIzaSyDEMO-not-a-real-key-0000000000000"

CANONICAL = {
    "autocomplete": "autocomplete",
    "findAutocompletePredictions": "autocomplete",
    "place_details": "place_details",
    "fetchPlace": "place_details",
    "geocoding": "geocoding",
}


def parse_time(text):
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)


def user_ip(user):
    number = int(user.split("-")[1]) if user else 0
    return "198.51.100.%d" % (number % 250 + 1)


def legacy_target(record, api):
    params = []
    if api == "autocomplete":
        path = "/maps/api/place/autocomplete/json"
        if "input" in record:
            params.append(("input", record["input"]))
    elif api == "place_details":
        path = "/maps/api/place/details/json"
        params.append(("place_id", record.get("place_id", "")))
        if "fields" in record:
            params.append(("fields", ",".join(record["fields"])))
    else:
        path = "/maps/api/geocode/json"
        params.append(("place_id", record.get("place_id", "")))
    if record.get("session_token") and api != "geocoding":
        params.append(("sessiontoken", record["session_token"]))
    params.append(("key", KEY))
    return path + "?" + urllib.parse.urlencode(params, quote_via=urllib.parse.quote_plus, safe=",")


def access_line(record):
    api = CANONICAL[record["api"]]
    time = parse_time(record["timestamp"])
    user = record.get("user_id") or "-"
    local = time.strftime("%d/%b/%Y:%H:%M:%S +0000")
    request = "GET %s HTTP/1.1" % legacy_target(record, api)
    agent = "PlacesProxy/2.4 (ios-app backend)"
    return '%s - %s [%s] "%s" 200 %d "-" "%s"\n' % (
        user_ip(record.get("user_id")), user, local, request, 900 + len(request) % 700, agent)


def har_entry(record):
    api = CANONICAL[record["api"]]
    time = parse_time(record["timestamp"])
    headers = [{"name": "X-Goog-Api-Key", "value": KEY}]
    if record.get("user_id"):
        headers.append({"name": "X-User-Id", "value": record["user_id"]})
    request = {"method": "GET", "httpVersion": "HTTP/2", "headers": headers, "queryString": [],
               "cookies": [], "headersSize": -1, "bodySize": 0}
    if api == "autocomplete":
        body = {}
        if "input" in record:
            body["input"] = record["input"]
        if record.get("session_token"):
            body["sessionToken"] = record["session_token"]
        text = json.dumps(body, ensure_ascii=False)
        request.update(method="POST", url="https://places.googleapis.com/v1/places:autocomplete",
                       postData={"mimeType": "application/json", "text": text}, bodySize=len(text.encode()))
        headers.append({"name": "Content-Type", "value": "application/json"})
    elif api == "place_details":
        query = "?sessionToken=" + urllib.parse.quote(record["session_token"]) if record.get("session_token") else ""
        request["url"] = "https://places.googleapis.com/v1/places/%s%s" % (record.get("place_id", ""), query)
        if "fields" in record:
            headers.append({"name": "X-Goog-FieldMask", "value": ",".join(record["fields"])})
    else:
        request["url"] = "https://maps.googleapis.com/maps/api/geocode/json?place_id=%s" % record.get("place_id", "")
    return {
        "startedDateTime": time.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (time.microsecond // 1000),
        "time": 84.2,
        "request": request,
        "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/2", "headers": [], "cookies": [],
                     "content": {"size": 0, "mimeType": "application/json", "text": "{}"},
                     "redirectURL": "", "headersSize": -1, "bodySize": 2},
        "cache": {},
        "timings": {"send": 0.1, "wait": 80.0, "receive": 4.1},
    }


def main():
    with open(SOURCE, encoding="utf-8") as source:
        records = [json.loads(line) for line in source if line.strip()]
    os.makedirs(os.path.dirname(ACCESS), exist_ok=True)
    os.makedirs(os.path.dirname(HAR), exist_ok=True)
    # The canonical sample swaps a few neighbouring lines on purpose; an access log is written as
    # requests complete and a HAR lists entries as they start, so both are in time order (which
    # matters for the access log: its whole-second times would otherwise tie in swapped order).
    records.sort(key=lambda record: record["timestamp"])
    with open(ACCESS, "w", encoding="utf-8", newline="\n") as out:
        for record in records:
            out.write(access_line(record))
    har = {"log": {"version": "1.2", "creator": {"name": "PlacesCost sample", "version": "1"},
                   "pages": [], "entries": [har_entry(record) for record in records]}}
    with open(HAR, "w", encoding="utf-8", newline="\n") as out:
        json.dump(har, out, ensure_ascii=False, indent=1)
        out.write("\n")
    print("wrote %s and %s: %d requests each" % (os.path.relpath(ACCESS, ROOT), os.path.relpath(HAR, ROOT), len(records)))


if __name__ == "__main__":
    main()
