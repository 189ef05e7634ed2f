#!/usr/bin/env python3
"""Reference sunrise/sunset times (NREL SPA via pvlib) for the places and dates of the bundled
SkyScape scenarios, used by the scenario driver to measure SKY-P2 and SKY-M1.

Method: pvlib.solarposition.sun_rise_set_transit_spa (NREL SPA, Reda & Andreas 2008, appendix A.2)
per UTC date, refined by Newton iteration on the full SPA topocentric elevation to the -0.8333 deg
crossing (see Tests/SkyScoringTests/Fixtures/make_spa_reference.py for why). Coordinates are those of
the most populous GeoNames place with the name in world_cities_geonames_cities15000.csv.

  pip install pvlib && python3 Datasets/reference/make_spa_sun_times.py

Only for checking results; never used to compute Fieldtest's own times.
"""
import csv, datetime as dt, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Tests", "SkyScoringTests", "Fixtures"))
from make_spa_reference import spa_events, refine  # noqa: E402

PERIODS = [  # (place names, first UTC date, last UTC date)
    (["Singapore", "Kuala Lumpur", "Jakarta", "Bangkok"], "2018-06-08", "2018-06-22"),
    (["Lincoln", "Omaha", "Denver"], "2023-01-18", "2023-02-03"),
    (["Anchorage", "Juneau"], "2021-07-01", "2021-07-14"),
    (["Tromsø", "Bodø"], "2021-05-10", "2021-05-26"),
    (["Miami", "Orlando"], "2021-03-08", "2021-03-22"),
]


def places():
    best = {}
    with open(os.path.join(HERE, "..", "places", "world_cities_geonames_cities15000.csv"), newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if r["name"] not in best or int(r["population"]) > int(best[r["name"]]["population"]):
                best[r["name"]] = r
    return best


def main():
    table = places()
    rows = []
    for names, first, last in PERIODS:
        d0, d1 = dt.date.fromisoformat(first), dt.date.fromisoformat(last)
        dates = [d0 + dt.timedelta(days=k) for k in range((d1 - d0).days + 1)]
        for name in names:
            p = table[name]
            lat, lon = float(p["latitude"]), float(p["longitude"])
            for d, (tr, rise, sset) in zip(dates, spa_events(lat, lon, dates)):
                rise, sset = refine([rise, sset], lat, lon)
                fmt = lambda v: "" if v != v else f"{v:.1f}"
                rows.append([name, p["latitude"], p["longitude"], d.isoformat(), fmt(rise), fmt(sset)])
    with open(os.path.join(HERE, "spa_sun_times.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["place", "latitude", "longitude", "utc_date", "spa_sunrise_unix", "spa_sunset_unix"])
        w.writerows(rows)
    print(f"wrote {len(rows)} rows")


if __name__ == "__main__":
    main()
