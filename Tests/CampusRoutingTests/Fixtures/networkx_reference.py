#!/usr/bin/env python3
"""Independent reference lengths for the routing core, computed with networkx.

For each bundled campus this script reads the OSM XML with ElementTree, builds a node-level
directed graph per profile straight from the rules of the routing issue (not from the Swift code),
draws seeded random query pairs, snaps each end to the nearest routable vertex within 200 m and
runs networkx's Dijkstra (weight = haversine metres, R = 6,371,008.8 m). Output:
reference_<campus>.csv with id,from_lat,from_lon,to_lat,to_lon,profile,status,length_m.

Run from the package root:  python3 Tests/CampusRoutingTests/Fixtures/networkx_reference.py
(It is a check, never used at runtime; numpy/networkx only.)
"""
import csv
import math
import os
import random
import sys
import xml.etree.ElementTree as ET

import networkx as nx

R = 6371008.8
WALK_HIGHWAYS = {"footway", "path", "pedestrian", "steps", "living_street", "residential", "service", "track",
                 "unclassified", "tertiary", "tertiary_link", "secondary", "secondary_link", "primary",
                 "primary_link", "cycleway", "corridor"}
SNAP_METRES = 200.0


def haversine(a, b):
    rad = math.pi / 180
    dlat = (b[0] - a[0]) * rad
    dlon = (b[1] - a[1]) * rad
    h = math.sin(dlat / 2) ** 2 + math.cos(a[0] * rad) * math.cos(b[0] * rad) * math.sin(dlon / 2) ** 2
    return 2 * R * math.asin(min(1.0, math.sqrt(h)))


def incline_percent(raw):
    s = raw.strip().replace(",", ".")
    deg = False
    if s.endswith("%"):
        s = s[:-1]
    elif s.endswith("°"):
        s, deg = s[:-1], True
    try:
        v = float(s.strip())
    except ValueError:
        return None
    if not math.isfinite(v):
        return None
    return math.tan(math.radians(v)) * 100 if deg else v


def walk_dirs(t):
    """(forward, backward) or None, per the walk rules of the issue."""
    if t.get("highway") not in WALK_HIGHWAYS:
        return None
    foot = t.get("foot")
    if foot == "no":
        return None
    if t.get("access") in ("no", "private") and foot not in ("yes", "designated", "permissive"):
        return None
    ow = t.get("oneway:foot")
    if ow in ("yes", "true", "1"):
        return (True, False)
    if ow in ("-1", "reverse"):
        return (False, True)
    return (True, True)


def wheelchair_dirs(t):
    d = walk_dirs(t)
    if d is None or t.get("highway") == "steps" or t.get("wheelchair") == "no":
        return None
    inc = incline_percent(t["incline"]) if "incline" in t else None
    if inc is not None and abs(inc) > 8:
        return None
    return d


def walk_blocks(_t):
    return False


def wheelchair_blocks(t):
    return t.get("kerb") == "raised" or t.get("barrier") in ("stile", "turnstile", "kissing_gate") \
        or t.get("wheelchair") == "no"


PROFILES = {"walk": (walk_dirs, walk_blocks), "wheelchair": (wheelchair_dirs, wheelchair_blocks)}


def load(path):
    nodes, order, ways = {}, {}, []
    for _, el in ET.iterparse(path, events=("end",)):
        if el.tag == "node":
            tags = {t.get("k"): t.get("v") for t in el.findall("tag")}
            nid = int(el.get("id"))
            order.setdefault(nid, len(order))
            nodes[nid] = (float(el.get("lat")), float(el.get("lon")), tags)
            el.clear()
        elif el.tag == "way":
            tags = {t.get("k"): t.get("v") for t in el.findall("tag")}
            refs = [int(nd.get("ref")) for nd in el.findall("nd")]
            if "highway" in tags:
                run = []
                for r in refs + [None]:
                    if r is not None and r in nodes:
                        run.append(r)
                    else:
                        if len(run) >= 2:
                            ways.append((run, tags))
                        run = []
            el.clear()
    return nodes, order, ways


def build(nodes, ways):
    # Routable under any built-in profile = walk-routable (every built-in profile narrows walk).
    included = [(run, t) for run, t in ways if walk_dirs(t) is not None]
    uses = {}
    vertices = set()
    for run, _ in included:
        for n in run:
            uses[n] = uses.get(n, 0) + 1
        vertices.add(run[0])
        vertices.add(run[-1])
    vertices |= {n for n, c in uses.items() if c >= 2}
    graphs, candidates = {}, {}
    for name, (dirs, blocks) in PROFILES.items():
        g = nx.DiGraph()
        cand = set()
        for run, t in included:
            d = dirs(t)
            if d is None:
                continue
            for a, b in zip(run, run[1:]):
                if a == b or blocks(nodes[a][2]) or blocks(nodes[b][2]):
                    continue
                w = haversine(nodes[a][:2], nodes[b][:2])
                for (u, v, ok) in ((a, b, d[0]), (b, a, d[1])):
                    if ok and (not g.has_edge(u, v) or g[u][v]["weight"] > w):
                        g.add_edge(u, v, weight=w)
            # Snapping candidates: ends of vertex-to-vertex pieces with no impassable node.
            start = 0
            for j in range(1, len(run)):
                if run[j] in vertices:
                    piece = run[start:j + 1]
                    if not any(blocks(nodes[n][2]) for n in piece):
                        cand.add(run[start])
                        cand.add(run[j])
                    start = j
        graphs[name] = g
        candidates[name] = cand
    return vertices, graphs, candidates


def snap(p, nodes, order, cand):
    best = None
    for v in cand:
        d = haversine(p, nodes[v][:2])
        if d <= SNAP_METRES and (best is None or (d, order[v]) < best[0]):
            best = ((d, order[v]), v)
    return None if best is None else best[1]


def main():
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    out_dir = os.path.dirname(os.path.abspath(__file__))
    campuses = {"montgomery": "montgomery_college_rockville_campus.osm",
                "quito": "universidad_central_del_ecuador_campus.osm"}
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    for key, fname in campuses.items():
        nodes, order, ways = load(os.path.join(root, "Datasets", "maps", fname))
        vertices, graphs, candidates = build(nodes, ways)
        rng = random.Random(20260 + len(key))
        vlist = sorted(vertices, key=lambda n: order[n])
        lats = [nodes[v][0] for v in vlist]
        lons = [nodes[v][1] for v in vlist]
        pad = 0.003
        biggest = max(nx.weakly_connected_components(graphs["walk"]), key=len)
        main_vertices = [v for v in vlist if v in biggest]

        def point():
            r = rng.random()
            if r < 0.85:
                v = nodes[rng.choice(main_vertices if r < 0.7 else vlist)]
                return (round(v[0] + rng.uniform(-4e-4, 4e-4), 7), round(v[1] + rng.uniform(-4e-4, 4e-4), 7))
            return (round(rng.uniform(min(lats) - pad, max(lats) + pad), 7),
                    round(rng.uniform(min(lons) - pad, max(lons) + pad), 7))

        rows = []
        for i in range(pairs):
            a, b = point(), point()
            for profile in ("walk", "wheelchair"):
                s = snap(a, nodes, order, candidates[profile])
                t = snap(b, nodes, order, candidates[profile])
                if s is None or t is None:
                    rows.append((f"{i}-{profile}", a, b, profile, "no_snap", ""))
                    continue
                if s == t:
                    rows.append((f"{i}-{profile}", a, b, profile, "ok", "0"))
                    continue
                try:
                    length = nx.dijkstra_path_length(graphs[profile], s, t, weight="weight")
                    rows.append((f"{i}-{profile}", a, b, profile, "ok", repr(length)))
                except (nx.NetworkXNoPath, nx.NodeNotFound):
                    rows.append((f"{i}-{profile}", a, b, profile, "no_route", ""))
        with open(os.path.join(out_dir, f"reference_{key}.csv"), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["id", "from_lat", "from_lon", "to_lat", "to_lon", "profile", "status", "length_m"])
            for rid, a, b, profile, status, length in rows:
                w.writerow([rid, repr(a[0]), repr(a[1]), repr(b[0]), repr(b[1]), profile, status, length])
        counts = {s: sum(1 for r in rows if r[4] == s) for s in ("ok", "no_route", "no_snap")}
        print(f"{key}: {len(rows)} queries {counts}", file=sys.stderr)


if __name__ == "__main__":
    main()
