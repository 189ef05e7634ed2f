#!/usr/bin/env python3
"""A routing system that answers wrongly, speaking docs/system-protocol.md, so the tests can show
that NavUP's routing checks judge the system under test and not the built-in router.

  no-route           answers every route query with status no_route
  straight           answers every route query with a straight line between its ends (no map nodes)
  detour FIELDTEST   asks `FIELDTEST serve route` for the route through a point 150 m north of the
                     start (there and back again), so every answer is a real walk on the map, only longer
  own-ends FIELDTEST asks `FIELDTEST serve route` and drops the first and last node of each answer of
                     four or more nodes: a real walk on the map that starts and ends at nodes of its own
  wall FIELDTEST     asks `FIELDTEST serve route` and keeps only the first and last node of each answer
                     of three or more nodes: a jump between nodes that no way joins
"""
import json
import subprocess
import sys


def ask(child, request):
    child.stdin.write(json.dumps(request) + "\n")
    child.stdin.flush()
    return json.loads(child.stdout.readline())


def detour(child, q):
    """The route from the start to a point 150 m north of it and on to the end, or the direct one."""
    via_lat = q["from_lat"] + 150 / 111_195
    first = ask(child, dict(q, id="leg-1", to_lat=via_lat, to_lon=q["from_lon"]))
    second = ask(child, dict(q, id="leg-2", from_lat=via_lat, from_lon=q["from_lon"]))
    if first.get("status") != "ok" or second.get("status") != "ok":
        return ask(child, q)
    nodes = first["node_ids"] + second["node_ids"]
    return {
        "id": q["id"], "status": "ok", "length_m": first["length_m"] + second["length_m"],
        "duration_s": first["duration_s"] + second["duration_s"], "node_ids": nodes,
        "path": first["path"] + second["path"],
    }


def trimmed(child, q, mode):
    """The served route with its inner or outer nodes dropped (see the modes above)."""
    a = ask(child, q)
    nodes = a.get("node_ids", [])
    if a.get("status") == "ok" and mode == "own-ends" and len(nodes) >= 4:
        nodes = nodes[1:-1]
    elif a.get("status") == "ok" and mode == "wall" and len(nodes) >= 3:
        nodes = [nodes[0], nodes[-1]]
    else:
        return a
    return dict(a, node_ids=nodes, path=[])


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "no-route"
    child = None
    if mode in ("detour", "own-ends", "wall"):
        child = subprocess.Popen(
            [sys.argv[2], "serve", "route"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for line in sys.stdin:
        request = json.loads(line)
        op = request.get("op")
        if op == "hello":
            if child:
                ask(child, request)
            answer = {"ok": True, "name": "wrong-router", "version": mode}
        elif op == "load":
            answer = ask(child, request) if child else {"id": request.get("id"), "ok": True}
        elif op == "route" and child:
            answer = detour(child, request) if mode == "detour" else trimmed(child, request, mode)
        elif op == "route" and mode == "straight":
            ends = [[request["from_lat"], request["from_lon"]], [request["to_lat"], request["to_lon"]]]
            answer = {"id": request["id"], "status": "ok", "length_m": 1, "duration_s": 1, "node_ids": [], "path": ends}
        elif op == "route":
            answer = {"id": request["id"], "status": "no_route"}
        else:
            answer = {"id": request.get("id"), "ok": False, "error": "unknown op"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
