import sys, time, numpy as np
from sklearn.neighbors import KNeighborsRegressor
paths, q, k, repeats, metric = sys.argv[1:3], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
d = np.vstack([np.loadtxt(p, delimiter=',', skiprows=1) for p in paths])
n = len(d)
qi = np.array([i * n // q for i in range(q)])
mask = np.zeros(n, bool); mask[qi] = True
W = d[:, :520]
if metric == 'braycurtis':
    F = np.where(W != 100, ((W + 104.0) / 104.0) ** np.e, 0.0)
else:
    F = np.where(W != 100, W + 105.0, 0.0)
model = KNeighborsRegressor(n_neighbors=k, weights='distance', metric=metric, algorithm='brute')
model.fit(F[~mask], d[~mask][:, 520:522])
best = float('inf')
for _ in range(repeats):
    t0 = time.perf_counter(); pred = model.predict(F[mask]); best = min(best, time.perf_counter() - t0)
print(best)
for x, y in pred: print(f"{float(x)!r},{float(y)!r}")
