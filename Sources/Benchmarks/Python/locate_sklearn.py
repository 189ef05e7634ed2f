import sys, time, numpy as np
from sklearn.neighbors import KNeighborsRegressor
# The mirror of `fieldtest-bench locate`'s like-for-like k-NN regression
# (FingerprintLocator.regressCoordinates): the same rows (those detecting no access point are left out,
# as FingerprintSample.fromUJIIndoorLoc does), the same evenly spaced split, features, distance, k and
# 1/d weights. Prints the best predict time, then per query `x,y,x_rows,y_rows`: scikit-learn's
# prediction, and the same prediction with neighbours tied at the k-th distance taken in training-row
# order as Fieldtest does (scikit-learn's choice among them is arbitrary); both pairs are equal when
# there is no such tie. Only predict() is timed.
paths, q, k, repeats, metric = sys.argv[1:-4], int(sys.argv[-4]), int(sys.argv[-3]), int(sys.argv[-2]), sys.argv[-1]
d = np.vstack([np.loadtxt(p, delimiter=',', skiprows=1, ndmin=2) for p in paths])
d = d[(d[:, :520] != 100).any(axis=1)]
n = len(d)
qi = np.array([i * n // q for i in range(q)])
mask = np.zeros(n, bool); mask[qi] = True
W = d[:, :520]
if metric == 'braycurtis':
    F = np.where(W != 100, ((W + 104.0) / 104.0) ** np.e, 0.0)
else:
    F = np.where(W != 100, W + 105.0, 0.0)
Y = d[~mask][:, 520:522]
model = KNeighborsRegressor(n_neighbors=k, weights='distance', metric=metric, algorithm='brute')
model.fit(F[~mask], Y)
best = float('inf')
for _ in range(repeats):
    t0 = time.perf_counter(); pred = model.predict(F[mask]); best = min(best, time.perf_counter() - t0)
rows = pred.copy()
if k < len(Y):
    dist, _ = model.kneighbors(F[mask], n_neighbors=k + 1)
    for a in np.flatnonzero(dist[:, k - 1] == dist[:, k]):
        dd, ii = model.kneighbors(F[mask][a:a + 1], n_neighbors=len(Y))
        order = np.lexsort((ii[0], dd[0]))[:k]
        dk, ik = dd[0][order], ii[0][order]
        w = (dk == 0).astype(float) if (dk == 0).any() else 1.0 / dk
        rows[a] = w @ Y[ik] / w.sum()
print(best)
for (x, y), (xr, yr) in zip(pred, rows): print(f"{float(x)!r},{float(y)!r},{float(xr)!r},{float(yr)!r}")
