#!/usr/bin/env python3
"""Campus routing by networkx (PyPI `networkx`), as a Fieldtest `route` system.

The map arrives in a `load` message (OSM XML). The walkable graph follows the routing contract of
Fieldtest's built-in profiles (docs/system-protocol.md, "What each built-in profile may use"; the
rules below are those of the profiles YAML, `RoutingProfiles.defaultYAML`): a way is usable when its
`highway` is accepted, `foot` does not deny it, `access` does not deny it (unless `foot` overrides),
none of the profile's excluded way tags is on it and its numeric `incline` is within the limit; its
pieces between junctions (way ends and nodes shared by usable ways) that pass through a node with an
excluded tag (a raised kerb, a stile, wheelchair=no) are not used; `oneway:foot` makes it one-way.
Each end goes to one of the 8 nodes of the profile's graph nearest to it within 200 m (no edge
snapping, unlike the built-in router; the harness judges the answer on its own nodes): Dijkstra on
great-circle edge lengths from a virtual start joined to the start's nodes to a virtual end joined to
the end's, each join as long as the node is far from its query point; duration at the profile's speed.

`python3 route_networkx.py --profiles` prints the rules as JSON (a test compares them with the
built-in profiles).
"""
import bisect
import json
import math
import os
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

WALK = {
    "speed_mps": 1.4,
    "highways": {"footway", "path", "pedestrian", "steps", "living_street", "residential", "service", "track",
                 "unclassified", "tertiary", "tertiary_link", "secondary", "secondary_link", "primary",
                 "primary_link", "cycleway", "corridor"},
    "mode_key": "foot",
    "mode_denied": {"no"},
    "access_denied": {"no", "private"},
    "mode_overrides_access": {"yes", "designated", "permissive"},
    "oneway_key": "oneway:foot",
    "exclude_ways": {},
    "exclude_nodes": {},
    "max_incline_percent": None,
    "accessibility_key": "wheelchair",
    "unknown_accessibility": "allow",
}
WHEELCHAIR = dict(
    WALK, speed_mps=1.0, max_incline_percent=8,
    exclude_ways={"highway": {"steps"}, "wheelchair": {"no"}},
    exclude_nodes={"kerb": {"raised"}, "barrier": {"stile", "turnstile", "kissing_gate"}, "wheelchair": {"no"}})
PROFILES = {
    "walk": WALK,
    "wheelchair": WHEELCHAIR,
    "wheelchair-strict": dict(WHEELCHAIR, exclude_ways={"highway": {"steps"}, "wheelchair": {"no", "limited"}},
                              unknown_accessibility="forbid"),
    "manual-wheelchair": dict(WHEELCHAIR, speed_mps=0.9, max_incline_percent=8.33),
    "powered-wheelchair": dict(WHEELCHAIR, speed_mps=1.3, max_incline_percent=12),
    "cane": dict(WALK, speed_mps=1.0, exclude_ways={"highway": {"steps"}}, max_incline_percent=14),
}
SNAP_METRES = 200
RADIUS = 6371008.8

points = {}  # node id -> (lat, lon)
node_tags = {}  # node id -> tags, for tagged nodes
runs = []  # (tags, [node ids]) of each stretch of a highway way whose nodes are all in the file
graphs = {}  # profile -> networkx.DiGraph, built on first use
indexes = {}  # profile -> nodes of its graph sorted by latitude


def metres(a, b):
    """Haversine distance in metres, as the harness computes it."""
    (la1, lo1), (la2, lo2) = a, b
    r = math.pi / 180
    h = math.sin((la2 - la1) * r / 2) ** 2 + math.cos(la1 * r) * math.cos(la2 * r) * math.sin((lo2 - lo1) * r / 2) ** 2
    return 2 * RADIUS * math.asin(min(1, math.sqrt(h)))


def incline_percent(raw):
    """A numeric OSM incline in percent (`8%`, `-12 %`, `4.5°`, bare number); None for `up`, `down`."""
    s = raw.strip().replace(",", ".")
    degrees = False
    if s.endswith("%"):
        s = s[:-1]
    elif s.endswith("°"):
        s, degrees = s[:-1], True
    elif s.endswith("deg"):
        s, degrees = s[:-3], True
    s = s.strip()
    # Read as Swift's Double(String) reads it: ASCII decimal or hexadecimal, finite.
    if not s or not s.isascii() or "_" in s:
        return None
    try:
        v = float.fromhex(s) if "x" in s.lower() else float(s)
    except ValueError:
        return None
    if not math.isfinite(v):
        return None
    return math.tan(math.radians(v)) * 100 if degrees else v


def directions(p, tags):
    """(forward, backward) the profile may walk a way with `tags`, or None when it may not use it."""
    highway = tags.get("highway")
    if highway not in p["highways"]:
        return None
    mode = tags.get(p["mode_key"])
    if mode in p["mode_denied"]:
        return None
    if tags.get("access") in p["access_denied"] and mode not in p["mode_overrides_access"]:
        return None
    if any(tags.get(k) in values for k, values in p["exclude_ways"].items()):
        return None
    incline = incline_percent(tags["incline"]) if "incline" in tags else None
    if p["max_incline_percent"] is not None and incline is not None and abs(incline) > p["max_incline_percent"]:
        return None
    if p["unknown_accessibility"] == "forbid" and p["accessibility_key"] not in tags:
        return None
    oneway = tags.get(p["oneway_key"]) if p["oneway_key"] else None
    if oneway in ("yes", "true", "1"):
        return (True, False)
    if oneway in ("-1", "reverse"):
        return (False, True)
    return (True, True)


def blocks(p, node):
    tags = node_tags.get(node)
    return bool(tags) and any(tags.get(k) in values for k, values in p["exclude_nodes"].items())


def load(path, fmt):
    if fmt != "osm-xml":
        raise ValueError("route_networkx reads osm-xml maps")
    root = ET.parse(path).getroot()
    deleted = lambda e: e.get("visible") == "false" or e.get("action") == "delete"  # noqa: E731
    for n in root.iter("node"):
        if deleted(n):
            continue
        i = int(n.get("id"))
        points[i] = (float(n.get("lat")), float(n.get("lon")))
        tags = {t.get("k"): t.get("v") for t in n.iter("tag")}
        if tags:
            node_tags[i] = tags
    for way in root.iter("way"):
        tags = {t.get("k"): t.get("v") for t in way.iter("tag")}
        if deleted(way) or "highway" not in tags:
            continue
        run = []
        for nd in way.iter("nd"):
            ref = int(nd.get("ref"))
            if ref in points:
                run.append(ref)
                continue
            if len(run) >= 2:
                runs.append((tags, run))
            run = []
        if len(run) >= 2:
            runs.append((tags, run))


def pieces():
    """Each usable run cut at its junctions: (tags, nodes) between consecutive junctions."""
    usable = [(tags, run) for tags, run in runs if any(directions(p, tags) for p in PROFILES.values())]
    uses = {}
    junction = set()
    for _, run in usable:
        junction.update((run[0], run[-1]))
        for n in run:
            uses[n] = uses.get(n, 0) + 1
    junction.update(n for n, k in uses.items() if k >= 2)
    for tags, run in usable:
        start = 0
        for j in range(1, len(run)):
            if run[j] in junction:
                yield tags, run[start:j + 1]
                start = j


def graph(name):
    import networkx as nx

    if name in graphs:
        return graphs[name]
    p = PROFILES[name]
    g = nx.DiGraph()
    for tags, piece in pieces():
        d = directions(p, tags)
        if d is None or any(blocks(p, n) for n in piece):
            continue
        for a, b in zip(piece, piece[1:]):
            if a == b:
                continue
            length = metres(points[a], points[b])
            if d[0]:
                g.add_edge(a, b, length=length)
            if d[1]:
                g.add_edge(b, a, length=length)
    graphs[name] = g
    indexes[name] = sorted((points[n][0], n) for n in g.nodes)
    return g


def nearest(name, p, k=8):
    """Up to `k` nodes of the profile's graph nearest to `p` within SNAP_METRES, as (metres, node)."""
    index = indexes[name]
    band = SNAP_METRES / RADIUS * 180 / math.pi
    lo = bisect.bisect_left(index, (p[0] - band, -math.inf))
    hi = bisect.bisect_right(index, (p[0] + band, math.inf))
    near = sorted((metres(points[n], p), n) for _, n in index[lo:hi])
    return [(d, n) for d, n in near[:k] if d <= SNAP_METRES]


def route(row):
    import networkx as nx

    name = row["profile"]
    if name not in PROFILES:
        raise ValueError(f"unknown profile {name}")
    g = graph(name)
    starts = nearest(name, (row["from_lat"], row["from_lon"]))
    ends = nearest(name, (row["to_lat"], row["to_lon"]))
    if not starts or not ends:
        return {"status": "no_snap"}
    # A few nearest nodes at each end, weighed by their distance from the query point, so that an end
    # beside an isolated stretch of path still reaches the network (one search, from a virtual start).
    source, target = ("start",), ("end",)
    g.add_weighted_edges_from(((source, n, d) for d, n in starts), weight="length")
    g.add_weighted_edges_from(((n, target, d) for d, n in ends), weight="length")
    try:
        nodes = nx.shortest_path(g, source, target, weight="length")[1:-1]
    except nx.NetworkXNoPath:
        return {"status": "no_route"}
    finally:
        g.remove_nodes_from([source, target])
    length = sum(g[u][v]["length"] for u, v in zip(nodes, nodes[1:]))
    return {"status": "ok", "length_m": length, "duration_s": length / PROFILES[name]["speed_mps"],
            "node_ids": nodes, "path": [list(points[n]) for n in nodes]}


def profiles_json():
    def plain(v):
        if isinstance(v, set):
            return sorted(v)
        if isinstance(v, dict):
            return {k: plain(x) for k, x in sorted(v.items())}
        return v
    return json.dumps({name: plain(p) for name, p in PROFILES.items()}, sort_keys=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["--profiles"]:
        print(profiles_json())
        sys.exit(0)
    from importlib.metadata import version

    from protocol import serve

    serve("route", "networkx-dijkstra", version("networkx"), route, load)
