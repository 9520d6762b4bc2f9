#!/usr/bin/env python3
"""Write a large HAR capture of Places API (New) traffic for memory benchmarks, streaming (the
file is never held in memory): python3 scripts/bench/har_generate.py OUT.har [--megabytes 200]

Each search is a few POST places:autocomplete calls with JSON bodies and one GET places/ID with
X-Goog-FieldMask; one entry in --body-every (50) carries a 1 MB response body, as captures with content do.
"""
import argparse
import json
import random

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--megabytes", type=int, default=200)
    parser.add_argument("--body-every", type=int, default=50, help="one entry in N has a 1 MB response body")
    parser.add_argument("--response-bytes", type=int, default=2, help="size of the other responses' content (a Places prediction list is 1-3 KB)")
    args = parser.parse_args()
    rng = random.Random(7)
    limit = args.megabytes * 1024 * 1024
    big = "x" * (1024 * 1024)
    small = "y" * args.response_bytes
    written = 0
    entries = 0
    with open(args.out, "w", encoding="utf-8") as out:
        head = '{"log":{"version":"1.2","creator":{"name":"bench","version":"1"},"pages":[],"entries":[\n'
        out.write(head)
        written += len(head)
        second = 1790812800
        while written < limit:
            token = "%032x" % rng.getrandbits(128)
            text = rng.choice(["1600 Amphitheatre", "Hauptbahnhof München", "東京タワー", "Café de Flore"])
            calls = []
            for length in range(1, rng.randint(2, 10)):
                body = json.dumps({"input": text[:length], "sessionToken": token}, ensure_ascii=False)
                calls.append(("POST", "https://places.googleapis.com/v1/places:autocomplete", body, None))
            calls.append(("GET", "https://places.googleapis.com/v1/places/ChIJ%06d?sessionToken=%s" % (entries, token), None, "formattedAddress,location"))
            for method, url, body, mask in calls:
                second += rng.randint(1, 3)
                headers = [{"name": "X-Goog-Api-Key", "value": "AIzaSyBENCH-not-a-key"}]
                if mask:
                    headers.append({"name": "X-Goog-FieldMask", "value": mask})
                request = {"method": method, "url": url, "httpVersion": "HTTP/2", "headers": headers}
                if body:
                    request["postData"] = {"mimeType": "application/json", "text": body}
                content = big if entries % args.body_every == 0 else small
                entry = {"startedDateTime": "%sZ" % __import__("datetime").datetime.utcfromtimestamp(second).isoformat(),
                         "request": request, "response": {"status": 200, "content": {"text": content}}}
                text_entry = (",\n" if entries else "") + json.dumps(entry, ensure_ascii=False)
                out.write(text_entry)
                written += len(text_entry.encode())
                entries += 1
        out.write("\n]}}\n")
    print("wrote %s: %d entries, %.0f MB" % (args.out, entries, written / 1048576))

if __name__ == "__main__":
    main()
