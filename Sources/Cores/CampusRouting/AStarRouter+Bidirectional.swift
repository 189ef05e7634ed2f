import FieldtestData

extension AStarRouter {
    /// Bidirectional A* with average potentials (T. Ikeda et al., "A fast algorithm for finding better
    /// routes by AI search techniques", VNIS 1994; A. V. Goldberg & C. Harrelson, "Computing the shortest
    /// path: A* search meets graph theory", SODA 2005, §4). Returns the steps from `s` to `t`, or nil
    /// when unreachable.
    ///
    /// With π_t(v) and π_s(v) the chord heuristics of `search` towards t and towards s, the forward
    /// search uses the potential p(v) = (π_t(v) − π_s(v)) / 2 and the backward search (over the
    /// reverse adjacency, so one-way arcs are followed against their direction) uses −p(v). Both
    /// potentials are consistent (each π is a metric lower bound on every arc's cost), so each search is
    /// Dijkstra's algorithm on the same graph with non-negative reduced costs, and the standard stopping
    /// rule of bidirectional Dijkstra (Pohl 1971) applies to the reduced costs: with μ the cheapest s–t
    /// path seen where the two searches meet, stop once topF + topB ≥ μ, where topF and topB are the
    /// smallest keys d_f + p and d_b − p of the two queues (the potential terms cancel). μ is then optimal,
    /// so the route costs the same as the forward A* route (ties may pick a different path of equal cost).
    ///
    /// Complexity: O((V + E) log V) worst case; each vertex's potential is computed once per query.
    mutating func bidirectionalSearch(_ g: CampusGraph, _ s: Int32, _ t: Int32, _ p: Int, _ slowdown: [Double]?)
        -> [RouteStep]?
    {
        let n = g.vertices.count
        guard Int(s) < n, Int(t) < n, s >= 0, t >= 0, p < g.profiles.count else { return nil }
        if cost.count != n || costB.count != n {
            cost = [Double](repeating: 0, count: n)
            parentArc = [Int32](repeating: -1, count: n)
            stamp = [UInt32](repeating: 0, count: n)
            closed = [UInt32](repeating: 0, count: n)
            generation = 0
        }
        if costB.count != n {
            costB = [Double](repeating: 0, count: n)
            parentArcB = [Int32](repeating: -1, count: n)
            stampB = [UInt32](repeating: 0, count: n)
            closedB = [UInt32](repeating: 0, count: n)
            potential = [Double](repeating: 0, count: n)
            potentialStamp = [UInt32](repeating: 0, count: n)
        }
        generation &+= 1
        if generation == 0 {
            for i in 0..<n {
                stamp[i] = 0
                closed[i] = 0
                stampB[i] = 0
                closedB[i] = 0
                potentialStamp[i] = 0
            }
            generation = 1
        }
        let gen = generation
        let adjacency = g.adjacency(p)
        if let slowdown, slowdown.count < g.edges.count { return nil }
        if adjacency.component[Int(s)] != adjacency.component[Int(t)] {
            settledCount = 0
            return nil
        }
        if s == t {
            settledCount = 1
            return []
        }
        var heapF = QuaternaryHeap()
        var heapR = QuaternaryHeap()
        swap(&heapF, &self.heap)
        swap(&heapR, &self.heapB)
        defer {
            swap(&heapF, &self.heap)
            swap(&heapR, &self.heapB)
        }
        heapF.removeAll()
        heapR.removeAll()
        // Half the chord scale (the potential is half a difference of two chords), shrunk as in `search`.
        let half = Geodesy.earthRadiusMetres * (1 - 1e-9) / 2
        var settled = 0
        var mu = Double.infinity
        var meet = -1
        g.vertexXYZ.withUnsafeBufferPointer { xyz in
            adjacency.offsets.withUnsafeBufferPointer { offsets in
                adjacency.targets.withUnsafeBufferPointer { targets in
                    adjacency.lengths.withUnsafeBufferPointer { lengths in
                        adjacency.arcs.withUnsafeBufferPointer { arcs in
                            adjacency.edges.withUnsafeBufferPointer { arcEdges in
                                adjacency.reverseOffsets.withUnsafeBufferPointer { rOffsets in
                                    adjacency.reverseTargets.withUnsafeBufferPointer { rTargets in
                                        adjacency.reverseLengths.withUnsafeBufferPointer { rLengths in
                                            adjacency.reverseArcs.withUnsafeBufferPointer { rArcs in
                                                adjacency.reverseEdges.withUnsafeBufferPointer { rEdges in
                                                    cost.withUnsafeMutableBufferPointer { costF in
                                                        parentArc.withUnsafeMutableBufferPointer { parentF in
                                                            stamp.withUnsafeMutableBufferPointer { stampF in
                                                                closed.withUnsafeMutableBufferPointer { closedF in
                                                                    costB.withUnsafeMutableBufferPointer { costR in
                                                                        parentArcB.withUnsafeMutableBufferPointer {
                                                                            parentR in
                                                                            stampB.withUnsafeMutableBufferPointer {
                                                                                stampR in
                                                                                closedB.withUnsafeMutableBufferPointer {
                                                                                    closedR in
                                                                                    potential
                                                                                        .withUnsafeMutableBufferPointer
                                                                                    { pot in
                                                                                        potentialStamp
                                                                                            .withUnsafeMutableBufferPointer
                                                                                        { potStamp in
                                                                                            let ti = Int(t) * 3
                                                                                            let si = Int(s) * 3
                                                                                            let tx = xyz[ti]
                                                                                            let ty = xyz[ti + 1]
                                                                                            let tz = xyz[ti + 2]
                                                                                            let sx = xyz[si]
                                                                                            let sy = xyz[si + 1]
                                                                                            let sz = xyz[si + 2]
                                                                                            @inline(__always) func pf(
                                                                                                _ v: Int
                                                                                            ) -> Double {
                                                                                                if potStamp[v] == gen {
                                                                                                    return pot[v]
                                                                                                }
                                                                                                let x = xyz[3 * v]
                                                                                                let y = xyz[3 * v + 1]
                                                                                                let z = xyz[3 * v + 2]
                                                                                                let ax = x - tx
                                                                                                let ay = y - ty
                                                                                                let az = z - tz
                                                                                                let bx = x - sx
                                                                                                let by = y - sy
                                                                                                let bz = z - sz
                                                                                                let value =
                                                                                                    half
                                                                                                    * ((ax * ax + ay
                                                                                                        * ay + az * az)
                                                                                                        .squareRoot()
                                                                                                        - (bx * bx + by
                                                                                                        * by + bz * bz)
                                                                                                        .squareRoot())
                                                                                                pot[v] = value
                                                                                                potStamp[v] = gen
                                                                                                return value
                                                                                            }
                                                                                            let s0 = Int(s)
                                                                                            let t0 = Int(t)
                                                                                            costF[s0] = 0
                                                                                            parentF[s0] = -1
                                                                                            stampF[s0] = gen
                                                                                            costR[t0] = 0
                                                                                            parentR[t0] = -1
                                                                                            stampR[t0] = gen
                                                                                            heapF.push(pf(s0), s)
                                                                                            heapR.push(-pf(t0), t)
                                                                                            while let kf = heapF.minKey,
                                                                                                let kr = heapR.minKey
                                                                                            {
                                                                                                if kf + kr >= mu {
                                                                                                    break
                                                                                                }
                                                                                                if kf <= kr {
                                                                                                    guard
                                                                                                        let (_, v32) =
                                                                                                            heapF.pop()
                                                                                                    else { break }
                                                                                                    let v = Int(v32)
                                                                                                    if closedF[v] == gen
                                                                                                    {
                                                                                                        continue
                                                                                                    }
                                                                                                    closedF[v] = gen
                                                                                                    settled += 1
                                                                                                    let base = costF[v]
                                                                                                    var a = Int(
                                                                                                        offsets[v])
                                                                                                    let hi = Int(
                                                                                                        offsets[v + 1])
                                                                                                    while a < hi {
                                                                                                        let w = Int(
                                                                                                            targets[a])
                                                                                                        if closedF[w]
                                                                                                            != gen
                                                                                                        {
                                                                                                            var c =
                                                                                                                lengths[
                                                                                                                    a]
                                                                                                            if let
                                                                                                                slowdown
                                                                                                            {
                                                                                                                c *=
                                                                                                                    slowdown[
                                                                                                                        Int(
                                                                                                                            arcEdges[
                                                                                                                                a
                                                                                                                            ]
                                                                                                                        )
                                                                                                                    ]
                                                                                                            }
                                                                                                            let nc =
                                                                                                                base + c
                                                                                                            if stampF[w]
                                                                                                                != gen
                                                                                                                || nc
                                                                                                                    < costF[
                                                                                                                        w
                                                                                                                    ]
                                                                                                            {
                                                                                                                stampF[
                                                                                                                    w] =
                                                                                                                    gen
                                                                                                                costF[
                                                                                                                    w] =
                                                                                                                    nc
                                                                                                                parentF[
                                                                                                                    w] =
                                                                                                                    arcs[
                                                                                                                        a
                                                                                                                    ]
                                                                                                                heapF
                                                                                                                    .push(
                                                                                                                        nc
                                                                                                                            + pf(
                                                                                                                                w
                                                                                                                            ),
                                                                                                                        Int32(
                                                                                                                            truncatingIfNeeded:
                                                                                                                                w
                                                                                                                        )
                                                                                                                    )
                                                                                                                if stampR[
                                                                                                                    w]
                                                                                                                    == gen,
                                                                                                                    nc
                                                                                                                        + costR[
                                                                                                                            w
                                                                                                                        ]
                                                                                                                        < mu
                                                                                                                {
                                                                                                                    mu =
                                                                                                                        nc
                                                                                                                        + costR[
                                                                                                                            w
                                                                                                                        ]
                                                                                                                    meet =
                                                                                                                        w
                                                                                                                }
                                                                                                            }
                                                                                                        }
                                                                                                        a += 1
                                                                                                    }
                                                                                                } else {
                                                                                                    guard
                                                                                                        let (_, v32) =
                                                                                                            heapR.pop()
                                                                                                    else { break }
                                                                                                    let v = Int(v32)
                                                                                                    if closedR[v] == gen
                                                                                                    {
                                                                                                        continue
                                                                                                    }
                                                                                                    closedR[v] = gen
                                                                                                    settled += 1
                                                                                                    let base = costR[v]
                                                                                                    var a = Int(
                                                                                                        rOffsets[v])
                                                                                                    let hi = Int(
                                                                                                        rOffsets[v + 1])
                                                                                                    while a < hi {
                                                                                                        let u = Int(
                                                                                                            rTargets[a])
                                                                                                        if closedR[u]
                                                                                                            != gen
                                                                                                        {
                                                                                                            var c =
                                                                                                                rLengths[
                                                                                                                    a]
                                                                                                            if let
                                                                                                                slowdown
                                                                                                            {
                                                                                                                c *=
                                                                                                                    slowdown[
                                                                                                                        Int(
                                                                                                                            rEdges[
                                                                                                                                a
                                                                                                                            ]
                                                                                                                        )
                                                                                                                    ]
                                                                                                            }
                                                                                                            let nc =
                                                                                                                base + c
                                                                                                            if stampR[u]
                                                                                                                != gen
                                                                                                                || nc
                                                                                                                    < costR[
                                                                                                                        u
                                                                                                                    ]
                                                                                                            {
                                                                                                                stampR[
                                                                                                                    u] =
                                                                                                                    gen
                                                                                                                costR[
                                                                                                                    u] =
                                                                                                                    nc
                                                                                                                parentR[
                                                                                                                    u] =
                                                                                                                    rArcs[
                                                                                                                        a
                                                                                                                    ]
                                                                                                                heapR
                                                                                                                    .push(
                                                                                                                        nc
                                                                                                                            - pf(
                                                                                                                                u
                                                                                                                            ),
                                                                                                                        Int32(
                                                                                                                            truncatingIfNeeded:
                                                                                                                                u
                                                                                                                        )
                                                                                                                    )
                                                                                                                if stampF[
                                                                                                                    u]
                                                                                                                    == gen,
                                                                                                                    nc
                                                                                                                        + costF[
                                                                                                                            u
                                                                                                                        ]
                                                                                                                        < mu
                                                                                                                {
                                                                                                                    mu =
                                                                                                                        nc
                                                                                                                        + costF[
                                                                                                                            u
                                                                                                                        ]
                                                                                                                    meet =
                                                                                                                        u
                                                                                                                }
                                                                                                            }
                                                                                                        }
                                                                                                        a += 1
                                                                                                    }
                                                                                                }
                                                                                            }
                                                                                        }
                                                                                    }
                                                                                }
                                                                            }
                                                                        }
                                                                    }
                                                                }
                                                            }
                                                        }
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        settledCount = settled
        guard meet >= 0 else { return nil }
        // Forward half: parents from the meeting vertex back to s, reversed.
        var steps: [RouteStep] = []
        var v = meet
        while v != Int(s) {
            let a = Int(parentArc[v])
            guard a >= 0 else { return nil }
            steps.append(RouteStep(edge: g.arcEdge[a], forward: g.arcForward[a]))
            v = Int(g.arcTail[a])
        }
        steps.reverse()
        // Backward half: each parent arc leads from v towards t.
        v = meet
        while v != Int(t) {
            let a = Int(parentArcB[v])
            guard a >= 0 else { return nil }
            steps.append(RouteStep(edge: g.arcEdge[a], forward: g.arcForward[a]))
            v = Int(g.arcTarget[a])
        }
        return steps
    }
}
