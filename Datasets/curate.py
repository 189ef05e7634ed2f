#!/usr/bin/env python3
"""Rebuild Fieldtest's Datasets/ folder from the shared dataset collection.

Usage: python3 Datasets/curate.py [SHARED_DATASETS_DIR]   (default ../shared/datasets)

Copies the files the cores use, byte-identical except for two documented,
seeded trims that keep the checkout small (see ATTRIBUTION.md):
  * UJIIndoorLoc training fingerprints: all 13,000 rows kept, split in two files
    of 6,500 rows (rows 1-6500 and 6501-13000, header repeated) so no file is
    over 20 MB.
  * GeoLife trajectories: 40 of the 175 per-user trajectories, chosen with
    random.Random(20261122).sample(sorted(trajectory_ids), 40), rows kept in
    file order.
It does not write MANIFEST.csv's row counts: `fieldtest datasets verify`
checks them with the typed loaders. It prints each file's sha256.
"""
import hashlib, os, random, shutil, sys

SRC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "datasets")
DST = os.path.dirname(os.path.abspath(__file__))

COPIES = {
    "weather/LCD_08449013025_Rota_2018.csv": "weather-noaa-lcd/LCD_08449013025_Rota_2018.csv",
    "weather/LCD_USW00014939_Lincoln_2023JanFeb.csv": "weather-noaa-lcd/LCD_USW00014939_Lincoln_2023JanFeb.csv",
    "weather/isd-history.csv": "weather-noaa-lcd/isd-history.csv",
    "weather/703165TY.csv": "weather-tmy-pvlib/703165TY.csv",
    "weather/12839.tm2": "weather-tmy-pvlib/12839.tm2",
    "weather/seattle-weather.csv": "weather-seattle-daily/seattle-weather.csv",
    "weather/PRSA_data_2010.1.1-2014.12.31.csv": "airquality-beijing-pm25/PRSA_data_2010.1.1-2014.12.31.csv",
    "maps/montgomery_college_rockville_campus.osm": "campus-osm/montgomery_college_rockville_campus.osm",
    "maps/universidad_central_del_ecuador_campus.osm": "campus-osm/universidad_central_del_ecuador_campus.osm",
    "maps/helsinki_centre.osm": "city-osm/helsinki_centre.osm",
    "positioning/20081023025304.plt": "gps-geolife-sample/20081023025304.plt",
    "tweets/sentiment140_positive.txt": "sentiment140-train-sample/positive.txt",
    "tweets/sentiment140_negative.txt": "sentiment140-train-sample/negative.txt",
    "tweets/airline_Tweets.csv": "sentiment-airline-tweets/Tweets.csv",
    "tweets/tweeteval_val_text.txt": "sentiment-tweeteval/val_text.txt",
    "tweets/tweeteval_val_labels.txt": "sentiment-tweeteval/val_labels.txt",
    "tweets/tweeteval_mapping.txt": "sentiment-tweeteval/mapping.txt",
    "tweets/vader_tweets_GroundTruth.train.txt": "sentiment-vader-tweets/tweets_GroundTruth.train.txt",
    "tweets/vader_tweets_anonDataRatings.train.txt": "sentiment-vader-tweets/tweets_anonDataRatings.train.txt",
    "lexicons/vader_lexicon.txt": "sentiment-lexicons/vader_lexicon.txt",
    "lexicons/emoji_utf8_lexicon.txt": "sentiment-lexicons/emoji_utf8_lexicon.txt",
    "lexicons/AFINN-en-165.txt": "sentiment-lexicons/AFINN-en-165.txt",
    "lexicons/AFINN-111.txt": "sentiment-lexicons/AFINN-111.txt",
    "lexicons/AFINN-emoticon-8.txt": "sentiment-lexicons/AFINN-emoticon-8.txt",
    "places/us_cities_geonames_cities500.csv": "us-cities/us_cities_geonames_cities500.csv",
    "places/us_states.json": "us-cities/us_states.json",
    "places/world_cities_geonames_cities15000.csv": "world-cities/world_cities_geonames_cities15000.csv",
    "places/countries.json": "world-cities/countries.json",
}

def out(rel):
    path = os.path.join(DST, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return path

def main():
    for dst, src in COPIES.items():
        shutil.copyfile(os.path.join(SRC, src), out(dst))
    # UJIIndoorLoc: split in two halves, header repeated.
    with open(os.path.join(SRC, "wifi-ujiindoorloc/trainingData.subsample13000.csv"), "rb") as f:
        lines = f.read().split(b"\n")
    header, rows = lines[0], [l for l in lines[1:] if l]
    half = len(rows) // 2
    for name, part in (("ujiindoorloc_train_a.csv", rows[:half]), ("ujiindoorloc_train_b.csv", rows[half:])):
        with open(out("positioning/" + name), "wb") as f:
            f.write(b"\n".join([header] + part) + b"\n")
    # GeoLife: 40 trajectories, seeded choice.
    with open(os.path.join(SRC, "gps-geolife-sample/geolife_trajectories_one_per_user.csv"), "rb") as f:
        lines = f.read().split(b"\n")
    header, rows = lines[0], [l for l in lines[1:] if l]
    ids = sorted({r.split(b",", 1)[0] for r in rows})
    keep = set(random.Random(20261122).sample(ids, 40))
    with open(out("positioning/geolife_trajectories_40.csv"), "wb") as f:
        f.write(b"\n".join([header] + [r for r in rows if r.split(b",", 1)[0] in keep]) + b"\n")
    for root, _, files in sorted(os.walk(DST)):
        for name in sorted(files):
            p = os.path.join(root, name)
            rel = os.path.relpath(p, DST)
            if rel.endswith((".py", ".md", "MANIFEST.csv")) or "/models/" in "/" + rel:
                continue
            print(hashlib.sha256(open(p, "rb").read()).hexdigest(), rel)

if __name__ == "__main__":
    main()
