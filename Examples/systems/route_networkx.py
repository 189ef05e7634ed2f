#!/usr/bin/env python3
"""Campus routing by networkx (PyPI `networkx`), as a Fieldtest `route` system.

The map arrives in a `load` message (OSM XML). Every way tagged `highway` is walkable; `wheelchair`
also avoids `highway=steps`. Each end goes to the nearest node (no edge snapping, unlike the built-in
router), then Dijkstra on great-circle edge lengths; duration at 1.4 m/s (walk) or 1.0 m/s (wheelchair).
"""
import math
import os
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib.metadata import version  # noqa: E402

import networkx as nx  # noqa: E402
from protocol import serve  # noqa: E402

SPEED = {"walk": 1.4, "wheelchair": 1.0}
graphs = {}
points = {}


def metres(a, b):
    (la1, lo1), (la2, lo2) = a, b
    p = math.radians((la1 + la2) / 2)
    return 6371008.8 * math.hypot(math.radians(la2 - la1), math.radians(lo2 - lo1) * math.cos(p))


def load(path, fmt):
    if fmt != "osm-xml":
        raise ValueError("route_networkx reads osm-xml maps")
    root = ET.parse(path).getroot()
    for n in root.iter("node"):
        points[int(n.get("id"))] = (float(n.get("lat")), float(n.get("lon")))
    for profile in SPEED:
        graphs[profile] = nx.Graph()
    for way in root.iter("way"):
        tags = {t.get("k"): t.get("v") for t in way.iter("tag")}
        if "highway" not in tags:
            continue
        refs = [int(nd.get("ref")) for nd in way.iter("nd") if int(nd.get("ref")) in points]
        for profile, g in graphs.items():
            if profile == "wheelchair" and tags["highway"] == "steps":
                continue
            for a, b in zip(refs, refs[1:]):
                g.add_edge(a, b, length=metres(points[a], points[b]))


def nearest(g, p):
    return min(g.nodes, key=lambda n: metres(points[n], p))


def route(row):
    g = graphs.get(row["profile"])
    if g is None:
        raise ValueError(f"unknown profile {row['profile']}")
    a, b = nearest(g, (row["from_lat"], row["from_lon"])), nearest(g, (row["to_lat"], row["to_lon"]))
    try:
        nodes = nx.shortest_path(g, a, b, weight="length")
    except nx.NetworkXNoPath:
        return {"status": "no_route"}
    length = sum(g[u][v]["length"] for u, v in zip(nodes, nodes[1:]))
    return {"status": "ok", "length_m": length, "duration_s": length / SPEED[row["profile"]],
            "node_ids": nodes, "path": [list(points[n]) for n in nodes]}


if __name__ == "__main__":
    serve("route", "networkx-dijkstra", version("networkx"), route, load)
