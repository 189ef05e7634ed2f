import sys, time, networkx as nx
edges, pairs, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3])
g = nx.DiGraph()
with open(edges) as f:
    for line in f:
        u, v, w = line.split()
        u, v, w = int(u), int(v), float(w)
        if not g.has_edge(u, v) or g[u][v]['weight'] > w:
            g.add_edge(u, v, weight=w)
qs = [tuple(map(int, l.split())) for l in open(pairs)]
best, best_cpu, total = float('inf'), float('inf'), 0.0
for _ in range(repeats):
    t0, c0 = time.perf_counter(), time.process_time(); total = 0.0
    for s, t in qs:
        try:
            p = nx.dijkstra_path(g, s, t, weight='weight')
            total += sum(g[a][b]['weight'] for a, b in zip(p, p[1:]))
        except nx.NetworkXNoPath:
            pass
    best = min(best, time.perf_counter() - t0); best_cpu = min(best_cpu, time.process_time() - c0)
print(best); print(repr(total)); print(best_cpu)
