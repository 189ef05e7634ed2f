#!/usr/bin/env python3
"""Dependency-free systems under test that answer wrongly on purpose, speaking docs/system-protocol.md.

The capability comes from the handshake; the first argument chooses the mistake:

  sun fixed        sunrise 06:00:00Z and sunset 18:00:00Z of the query's date, whatever the place
  sun never        no event at all (as on a polar night)
  route half       every query 'ok', half the straight-line distance, a two-point path
  route none       every query 'no_route'
  route ids        every query 'ok' along the node ids its id names after a colon (`q1:10_11_12`), no path
  locate origin    every fingerprint at (0, 0), floor 0, building 0
  sentiment happy  every tweet 'positive' with score 1
"""
import json
import math
import sys


def answer(capability, mode, row):
    if capability == "sun":
        if mode == "never":
            return {"note": "polar_night"}
        return {"sunrise": row["date"] + "T06:00:00Z", "sunset": row["date"] + "T18:00:00Z", "note": ""}
    if capability == "route":
        if mode == "none":
            return {"status": "no_route"}
        if mode == "ids":
            nodes = [int(n) for n in row["id"].split(":")[1].split("_")]
            return {"status": "ok", "length_m": 1, "duration_s": 1, "node_ids": nodes, "path": []}
        a, b = (row["from_lat"], row["from_lon"]), (row["to_lat"], row["to_lon"])
        metres = 6371008.8 * math.radians(math.hypot(b[0] - a[0], (b[1] - a[1]) * math.cos(math.radians(a[0]))))
        return {"status": "ok", "length_m": metres / 2, "duration_s": metres, "node_ids": [],
                "path": [list(a), list(b)]}
    if capability == "locate":
        return {"longitude": 0, "latitude": 0, "floor": 0, "building": 0}
    return {"label": "positive", "score": 1}


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    capability = None
    for line in sys.stdin:
        request = json.loads(line)
        op = request.get("op")
        if op == "hello":
            capability = request["capability"]
            reply = {"ok": True, "name": "wrong-" + capability, "version": mode}
        elif op == "load":
            reply = {"id": request.get("id"), "ok": True}
        elif "rows" in request:
            reply = {"id": request["id"],
                     "rows": [dict(id=r["id"], **answer(capability, mode, r)) for r in request["rows"]]}
        else:
            reply = dict(id=request["id"], **answer(capability, mode, request))
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
