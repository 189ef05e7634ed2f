import sys, time, numpy as np
from sklearn.neighbors import KNeighborsRegressor
# The peer of `fieldtest locate` end to end: the files are read untimed; timed (best of 3) is the
# compute: the powed-RSSI features, fit and predict of coordinates with the Sorensen (Bray-Curtis)
# distance, brute force, distance weights, the same k.
train_path, query_path, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
train = np.loadtxt(train_path, delimiter=',', skiprows=1)
query = np.loadtxt(query_path, delimiter=',', skiprows=1)
def features(rows):
    w = rows[:, :520]
    return np.where(w != 100, ((w + 104.0) / 104.0) ** np.e, 0.0)
best = best_cpu = float('inf')
for _ in range(3):
    t0, c0 = time.perf_counter(), time.process_time()
    model = KNeighborsRegressor(n_neighbors=k, weights='distance', metric='braycurtis', algorithm='brute')
    model.fit(features(train), train[:, 520:522])
    pred = model.predict(features(query))
    best, best_cpu = min(best, time.perf_counter() - t0), min(best_cpu, time.process_time() - c0)
print(best); print(best_cpu); print(len(pred))
