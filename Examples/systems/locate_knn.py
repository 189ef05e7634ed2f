#!/usr/bin/env python3
"""Wi-Fi fingerprint positioning by k-nearest neighbours (PyPI `scikit-learn`), as a Fieldtest
`locate` system.

The training fingerprints arrive in `load` messages (UJIIndoorLoc CSV). RSSI +100 (not detected)
becomes −110 dBm; k = 3 neighbours by Euclidean distance: majority building and floor, mean position.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib.metadata import version  # noqa: E402

import numpy as np  # noqa: E402
from protocol import serve  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor  # noqa: E402

rows, columns, models = [], [], {}


def prepare(values):
    x = np.asarray(values, dtype=float)
    x[x == 100] = -110
    return x


def load(path, fmt):
    if fmt != "ujiindoorloc-csv":
        raise ValueError("locate_knn reads ujiindoorloc-csv training files")
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        waps = [c for c in reader.fieldnames if c.startswith("WAP")]
        columns[:] = waps
        rows.extend(reader)
    x = prepare([[int(r[c]) for c in columns] for r in rows])
    models["place"] = KNeighborsClassifier(3).fit(x, [f"{r['BUILDINGID']}/{r['FLOOR']}" for r in rows])
    models["xy"] = KNeighborsRegressor(3).fit(x, [[float(r["LONGITUDE"]), float(r["LATITUDE"])] for r in rows])


def locate_rows(rows):
    x = prepare([[row[c] for c in columns] for row in rows])
    places, positions = models["place"].predict(x), models["xy"].predict(x)
    return [{"longitude": float(lon), "latitude": float(lat), "floor": int(place.split("/")[1]),
             "building": int(place.split("/")[0])} for place, (lon, lat) in zip(places, positions)]


if __name__ == "__main__":
    serve("locate", "sklearn-knn3", version("scikit-learn"), lambda row: locate_rows([row])[0], load, locate_rows)
