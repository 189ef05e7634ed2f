import sys, time, csv, datetime as dt, numpy as np
import pvlib.spa as spa, astral, astral.sun
path = sys.argv[1]
lat, lon, days = [], [], []
for r in csv.DictReader(open(path)):
    lat.append(float(r['latitude'])); lon.append(float(r['longitude']))
    days.append(dt.date.fromisoformat(r['date']))
lat, lon = np.array(lat), np.array(lon)
ut = np.array([(d - dt.date(1970, 1, 1)).days * 86400.0 for d in days])
# Best of 5, like the Fieldtest side: pvlib over all rows each time; astral (slow) over five
# fifths of the rows, the best fifth scaled to all rows.
t_spa = c_spa = float('inf')
for _ in range(5):
    t0, c0 = time.perf_counter(), time.process_time()
    spa.transit_sunrise_sunset(ut, lat, lon, 67.0, 1)
    t_spa, c_spa = min(t_spa, time.perf_counter() - t0), min(c_spa, time.process_time() - c0)
n = len(days); t_astral = c_astral = float('inf')
for k in range(5):
    lo, hi = k * n // 5, (k + 1) * n // 5
    t0, c0 = time.perf_counter(), time.process_time()
    for a, b, d in zip(lat[lo:hi], lon[lo:hi], days[lo:hi]):
        try: astral.sun.sun(astral.Observer(a, b), d)
        except ValueError: pass
    t, c = time.perf_counter() - t0, time.process_time() - c0
    t_astral, c_astral = min(t_astral, t * n / (hi - lo)), min(c_astral, c * n / (hi - lo))
print(t_spa); print(t_astral); print(c_spa); print(c_astral)
