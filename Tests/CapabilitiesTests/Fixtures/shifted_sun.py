#!/usr/bin/env python3
"""A sun-times system for the tests that is wrong by a fixed amount, speaking docs/system-protocol.md.

Usage: shifted_sun.py FIELDTEST SECONDS

Starts `FIELDTEST serve sun` (the built-in calculator served over the protocol), passes every
request to it and moves every time in its answers (sunrise, sunset, noon, twilight, golden hour)
SECONDS later, so a scenario can show that a system with wrong times fails the accuracy checks.
"""
import datetime
import json
import subprocess
import sys

TIME_FIELDS = [
    "sunrise", "sunset", "solar_noon", "civil_dawn", "civil_dusk", "golden_hour_morning_start",
    "golden_hour_morning_end", "golden_hour_evening_start", "golden_hour_evening_end",
]
FORMAT = "%Y-%m-%dT%H:%M:%SZ"


def shift(row, seconds):
    for name in TIME_FIELDS:
        if isinstance(row.get(name), str):
            t = datetime.datetime.strptime(row[name], FORMAT) + datetime.timedelta(seconds=seconds)
            row[name] = t.strftime(FORMAT)
    return row


def main():
    executable, seconds = sys.argv[1], float(sys.argv[2])
    served = subprocess.Popen(
        [executable, "serve", "sun"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    for line in sys.stdin:
        served.stdin.write(line)
        served.stdin.flush()
        answer = json.loads(served.stdout.readline())
        request = json.loads(line)
        if request.get("op") == "hello":
            answer["name"] = "shifted-sun"
        elif request.get("op") == "sun" and "error" not in answer:
            for row in answer.get("rows", [answer]):
                shift(row, seconds)
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    served.stdin.close()
    served.wait()


if __name__ == "__main__":
    main()
