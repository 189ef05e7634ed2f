import FieldtestData
import Foundation

/// Wi-Fi fingerprinting by a cascade of weighted k-nearest-neighbour steps:
/// building → floor (within that building) → coordinates (within that floor).
///
/// Method: RADAR-style k-NN (Bahl & Padmanabhan, INFOCOM 2000) with the
/// RSSI representations and distances of Torres-Sospedra et al. (ESWA 2015):
/// by default the *powed* representation with the Sørensen (Bray–Curtis)
/// distance, which they found best on UJIIndoorLoc, and the hierarchical building/floor
/// cascade common to the IPIN/EvAAL UJIIndoorLoc entries. Votes and position
/// averages are weighted by 1/distance; neighbours at distance 0 take all the
/// weight (as scikit-learn's `weights="distance"`).
///
/// Before the cascade, each query is shifted by the device offset (dB) that brings it
/// closest to the training fingerprints (`Configuration.deviceOffsetsDB`): the gain of a
/// phone the site was not surveyed with is unknown, and a constant dB error distorts every
/// RSSI distance.
///
/// Distances are exact, computed sparsely through an inverted index over the
/// access points the query detected (non-detected APs have feature 0):
/// Euclidean ‖q − t‖² = ‖q‖² + ‖t‖² − 2 Σ qⱼtⱼ; Sørensen
/// Σ|qⱼ − tⱼ| / Σ(qⱼ + tⱼ) = 1 − 2 Σ min(qⱼ, tⱼ) / (Σqⱼ + Σtⱼ), the sums over
/// APs both detected. Complexity per
/// query: O(Σ posting-list lengths of the query's APs + n·k) for n training
/// fingerprints, instead of O(n·d) for d = 520 APs. Training: O(n·d).
public struct FingerprintLocator: Sendable {
    /// Tuning of the cascade.
    public struct Configuration: Sendable, Equatable {
        /// Feature representation of RSSI values.
        public var representation: RSSIRepresentation
        /// Distance between feature vectors.
        public var distance: FingerprintDistance
        /// Neighbours voting for the building.
        public var buildingNeighbours: Int
        /// Neighbours (of the chosen building) voting for the floor.
        public var floorNeighbours: Int
        /// Neighbours (of the chosen building and floor) averaged for the coordinates.
        public var positionNeighbours: Int
        /// Representation used for the coordinate step only (same distance); nil = `representation`.
        public var positionRepresentation: RSSIRepresentation?
        /// Device offsets tried on each query, in dB, added to every detected RSSI before the
        /// representation; the offset whose `offsetScoreNeighbours` nearest training
        /// fingerprints are closest on average is used for the whole cascade (ties go to the
        /// offset of smaller magnitude). `[0]` disables the search. Why: phones of other makes
        /// read the same signal several dB higher or lower, which moves a fingerprint away
        /// from its neighbours under any RSSI distance.
        public var deviceOffsetsDB: [Double]
        /// Nearest training fingerprints whose mean distance scores a device offset.
        public var offsetScoreNeighbours: Int
        /// Relative width h of the Gaussian kernel that weights the coordinate neighbours:
        /// w = exp(−((d − d₁) / (h·d₁))²) for distance d and nearest distance d₁ (a kernel
        /// regression whose bandwidth follows the query's own match quality). nil = 1/d weights.
        /// Why: with more neighbours, 1/d lets far matches pull the mean; the kernel lets the
        /// position use more fingerprints near the best match while ignoring the poor ones.
        public var positionKernelWidth: Double?
        /// Share (0…1) of the cascade's distance (`representation`) blended into the distance that
        /// ranks and weights the coordinate neighbours, the rest being the `positionRepresentation`
        /// distance: key = (1 − s)·d_position + s·d_cascade. 0 = the position representation alone;
        /// no effect when `positionRepresentation` is nil or equals `representation`.
        /// Why: the two representations weigh strong and weak access points differently and their
        /// errors are partly independent.
        public var positionDistanceBlend: Double

        /// Creates a configuration; all neighbour counts must be ≥ 1 and `deviceOffsetsDB` non-empty.
        public init(
            representation: RSSIRepresentation = .powed(), distance: FingerprintDistance = .sorensen,
            buildingNeighbours: Int = 5, floorNeighbours: Int = 5, positionNeighbours: Int = 5,
            positionRepresentation: RSSIRepresentation? = nil,
            deviceOffsetsDB: [Double] = [0], offsetScoreNeighbours: Int = 3,
            positionKernelWidth: Double? = nil, positionDistanceBlend: Double = 0
        ) {
            self.positionKernelWidth = positionKernelWidth
            self.positionDistanceBlend = positionDistanceBlend
            self.positionRepresentation = positionRepresentation
            self.deviceOffsetsDB = deviceOffsetsDB
            self.offsetScoreNeighbours = offsetScoreNeighbours
            self.representation = representation
            self.distance = distance
            self.buildingNeighbours = buildingNeighbours
            self.floorNeighbours = floorNeighbours
            self.positionNeighbours = positionNeighbours
        }

        /// Chosen by leave-one-phone-out validation on the bundled 13,000 training rows
        /// (`fieldtest locate --cross-validate phone`; method and figures in `docs/positioning.md`):
        /// a per-query device-offset search over −9…+9 dB in 3 dB steps scored by the 3 nearest
        /// fingerprints; powed RSSI with the Sørensen distance and k = 5 for building and floor; the
        /// coordinates by Gaussian-kernel regression (relative width 0.15) over the 12 nearest
        /// fingerprints of the voted floor, ranked by 0.8 × the exponential-representation distance
        /// + 0.2 × the powed one. Measured on all 12,948 rows: building 99.96 %, floor 92.57 %, mean 2-D
        /// error 7.13 m (the previous configuration, `previousTuned`: the same votes, 7.32 m); on the seeded 2,000-row subset of the tests,
        /// in Swift, 8.59 m against 9.40 m. The kernel settings were chosen on every 4th held-out row
        /// (NumPy prototype) over k 8/12, width 0.1/0.15/0.2 and blend 0, 0.2, 0.3, 0.4: a flat
        /// optimum, every setting with the blend 0.2–0.3 within 0.07 m. Alternatives measured
        /// under the same protocol and not better: a local ridge correction of the kernel mean,
        /// offset + slope search, z-normalised or mean-aligned fingerprints, per-phone calibration of
        /// the training rows, offsets chosen per training phone, ignoring rarely heard access points,
        /// and (measured before) averaging the fingerprints of a reference point, Manhattan instead
        /// of Sørensen, 1/d² weights, k distinct locations instead of k fingerprints.
        public static let tuned = Configuration(
            positionNeighbours: 12, positionRepresentation: .exponential(),
            deviceOffsetsDB: [-9, -6, -3, 0, 3, 6, 9], offsetScoreNeighbours: 3,
            positionKernelWidth: 0.15, positionDistanceBlend: 0.2)

        /// The previous tuned configuration: the device-offset search and the cascade of `tuned`, but
        /// the coordinates as the 1/d-weighted mean of the 5 nearest fingerprints of the voted floor
        /// by the exponential representation alone. Kept to measure what the kernel regression adds.
        public static let previousTuned = Configuration(
            positionRepresentation: .exponential(),
            deviceOffsetsDB: [-9, -6, -3, 0, 3, 6, 9], offsetScoreNeighbours: 3)

        /// `previousTuned` without the device-offset search (the tuned cascade before the search),
        /// kept to measure what the search adds under the same protocol.
        public static let withoutOffsetSearch = Configuration(positionRepresentation: .exponential())

        /// The published UJIIndoorLoc baseline (Torres-Sospedra et al., IPIN 2014): 1-NN with
        /// the Euclidean distance on positive RSSI (91.6 % floor, 7.9 m mean error on the
        /// official validation split). Kept to calibrate hold-out estimates: the relative
        /// gain of `tuned` over this baseline under the same protocol predicts its figures
        /// on data that is not bundled.
        public static let publishedBaseline = Configuration(
            representation: .positive(), distance: .euclidean,
            buildingNeighbours: 1, floorNeighbours: 1, positionNeighbours: 1)
    }

    /// The configuration in use.
    public let configuration: Configuration
    /// Number of access points (RSSI values per fingerprint).
    public let accessPointCount: Int
    /// Number of training fingerprints.
    public var trainingCount: Int { buildings.count }

    let xs: [Double], ys: [Double], floors: [Int], buildings: [Int]
    /// The coordinate-step model when `positionRepresentation` differs (0 or 1 element).
    let positionStage: [FingerprintLocator]
    /// Per training row: ‖t‖² (Euclidean) or Σtⱼ (Sørensen).
    let norms: [Double]
    /// CSR inverted index: for AP j, rows `postingRows[postingStart[j]..<postingStart[j+1]]` with features `postingValues`.
    let postingStart: [Int]
    let postingRows: [Int32]
    let postingValues: [Double]

    /// Builds the model from labelled samples. Throws for an empty set, a
    /// fingerprint of the wrong length or a neighbour count below 1. O(n·d).
    public init(training: [FingerprintSample], configuration: Configuration = .tuned) throws(PositioningError) {
        guard let first = training.first else { throw .emptyTrainingSet }
        for (name, k) in [
            ("buildingNeighbours", configuration.buildingNeighbours),
            ("floorNeighbours", configuration.floorNeighbours),
            ("positionNeighbours", configuration.positionNeighbours),
        ] where k < 1 {
            throw .invalidParameter(name: name, reason: "must be at least 1 (got \(k))")
        }
        if configuration.offsetScoreNeighbours < 1 {
            throw .invalidParameter(
                name: "offsetScoreNeighbours",
                reason: "must be at least 1 (got \(configuration.offsetScoreNeighbours))")
        }
        if configuration.deviceOffsetsDB.isEmpty || configuration.deviceOffsetsDB.contains(where: { !$0.isFinite }) {
            throw .invalidParameter(
                name: "deviceOffsetsDB",
                reason: "must list at least one finite offset in dB (use [0] for no search)")
        }
        if let h = configuration.positionKernelWidth, !(h > 0 && h.isFinite) {
            throw .invalidParameter(
                name: "positionKernelWidth", reason: "must be a finite width above 0 (got \(h)); nil for 1/d weights")
        }
        if !(0...1).contains(configuration.positionDistanceBlend) {
            throw .invalidParameter(
                name: "positionDistanceBlend",
                reason: "must lie in 0…1 (got \(configuration.positionDistanceBlend))")
        }
        let d = first.rssi.count
        self.configuration = configuration
        self.accessPointCount = d
        var counts = [Int](repeating: 0, count: d + 1)
        for (i, s) in training.enumerated() {
            guard s.rssi.count == d else { throw .wrongFingerprintLength(index: i, expected: d, found: s.rssi.count) }
            for (j, v) in s.rssi.enumerated() where v != FingerprintSample.notDetected { counts[j + 1] += 1 }
        }
        for j in 0..<d { counts[j + 1] += counts[j] }
        var fill = counts
        var rows = [Int32](repeating: 0, count: counts[d])
        var values = [Double](repeating: 0, count: counts[d])
        var norms = [Double](repeating: 0, count: training.count)
        let rep = configuration.representation
        for (i, s) in training.enumerated() {
            var norm = 0.0
            for (j, v) in s.rssi.enumerated() where v != FingerprintSample.notDetected {
                let f = rep.value(ujiRSSI: v)
                rows[fill[j]] = Int32(i)
                values[fill[j]] = f
                fill[j] += 1
                norm += configuration.distance == .euclidean ? f * f : f
            }
            norms[i] = norm
        }
        postingStart = counts
        postingRows = rows
        postingValues = values
        self.norms = norms
        if let other = configuration.positionRepresentation, other != configuration.representation {
            var inner = configuration
            inner.representation = other
            inner.positionRepresentation = nil
            positionStage = [try FingerprintLocator(training: training, configuration: inner)]
        } else {
            positionStage = []
        }
        xs = training.map(\.xMetres)
        ys = training.map(\.yMetres)
        floors = training.map(\.floor)
        buildings = training.map(\.building)
    }

    /// Reusable per-query buffers so a batch allocates once.
    public struct Workspace: Sendable {
        var dot: [Double]
        var touched: [Int32]
        var squared: [Double]
        var inner: [Workspace]
        /// Blended coordinate keys (`Configuration.positionDistanceBlend`), filled for the voted floor only.
        var blended: [Double]

        /// Creates buffers for `locator`.
        public init(for locator: FingerprintLocator) {
            dot = [Double](repeating: 0, count: locator.trainingCount)
            touched = []
            squared = [Double](repeating: 0, count: locator.trainingCount)
            inner = locator.positionStage.map { Workspace(for: $0) }
            blended = [Double](
                repeating: 0, count: locator.configuration.positionDistanceBlend > 0 ? locator.trainingCount : 0)
        }
    }

    /// Ranking keys from `rssi`, every detected value raised by `offsetDB`, to every training
    /// fingerprint into `workspace.squared`: squared Euclidean distance, or the Sørensen distance.
    /// Throws when `rssi` has the wrong length.
    func squaredDistances(_ rssi: [Int8], offsetDB: Double = 0, workspace: inout Workspace) throws(PositioningError) {
        guard rssi.count == accessPointCount else {
            throw .wrongFingerprintLength(index: 0, expected: accessPointCount, found: rssi.count)
        }
        let rep = configuration.representation
        var qNorm = 0.0
        let euclidean = configuration.distance == .euclidean
        workspace.touched.removeAll(keepingCapacity: true)
        postingRows.withUnsafeBufferPointer { rows in
            postingValues.withUnsafeBufferPointer { values in
                workspace.dot.withUnsafeMutableBufferPointer { dot in
                    for (j, v) in rssi.enumerated() where v != FingerprintSample.notDetected {
                        let q = rep.value(rssiDBm: Double(v) + offsetDB, detected: true)
                        if euclidean {
                            qNorm += q * q
                            for p in postingStart[j]..<postingStart[j + 1] {
                                let r = Int(rows[p])
                                if dot[r] == 0 { workspace.touched.append(rows[p]) }
                                dot[r] += q * values[p]
                            }
                        } else {
                            qNorm += q
                            for p in postingStart[j]..<postingStart[j + 1] {
                                let r = Int(rows[p])
                                if dot[r] == 0 { workspace.touched.append(rows[p]) }
                                dot[r] += min(q, values[p])
                            }
                        }
                    }
                }
            }
        }
        norms.withUnsafeBufferPointer { norms in
            workspace.squared.withUnsafeMutableBufferPointer { sq in
                if euclidean {
                    for i in 0..<sq.count { sq[i] = qNorm + norms[i] }
                } else {
                    // Sørensen with no common AP: Σ|q − t| / Σ(q + t) = 1 (0 when both are empty).
                    for i in 0..<sq.count { sq[i] = qNorm + norms[i] > 0 ? 1 : 0 }
                }
                workspace.dot.withUnsafeMutableBufferPointer { dot in
                    for r in workspace.touched {
                        let i = Int(r)
                        // A row can be listed twice when its first contributions were 0; rows whose
                        // products sum to 0 already hold the right value from the loop above.
                        guard dot[i] != 0 else { continue }
                        if euclidean {
                            sq[i] = max(0, qNorm + norms[i] - 2 * dot[i])
                        } else {
                            let total = qNorm + norms[i]
                            sq[i] = total > 0 ? max(0, 1 - 2 * dot[i] / total) : 0
                        }
                        dot[i] = 0
                    }
                }
            }
        }
    }

    /// Estimates building, floor and coordinates of one fingerprint (RSSI in dBm, +100 = not detected).
    public func locate(_ rssi: [Int8]) throws(PositioningError) -> FingerprintEstimate {
        var workspace = Workspace(for: self)
        return try locate(rssi, workspace: &workspace)
    }

    /// The device offset (dB, one of `deviceOffsetsDB`) that brings `rssi` closest to the
    /// training fingerprints: the smallest mean distance to its `offsetScoreNeighbours` nearest
    /// ones, ties to the smaller magnitude. Leaves that offset's keys in `workspace.squared`.
    /// O(|offsets| · (postings + n·k)).
    func chooseDeviceOffset(_ rssi: [Int8], workspace: inout Workspace) throws(PositioningError) -> Double {
        let offsets = configuration.deviceOffsetsDB
        guard offsets.count > 1 else {
            try squaredDistances(rssi, offsetDB: offsets[0], workspace: &workspace)
            return offsets[0]
        }
        var best = offsets[0]
        var bestScore = Double.infinity
        for offset in offsets {
            let score = try offsetScore(rssi, offsetDB: offset, workspace: &workspace)
            if score < bestScore || (score == bestScore && abs(offset) < abs(best)) {
                best = offset
                bestScore = score
            }
        }
        try squaredDistances(rssi, offsetDB: best, workspace: &workspace)
        return best
    }

    /// Mean distance from `rssi` (raised by `offsetDB`) to its `offsetScoreNeighbours` nearest
    /// training fingerprints. Sørensen visits only the rows sharing an access point with the query
    /// (every other row is at distance 1): O(postings · k) instead of the O(n) full pass.
    func offsetScore(_ rssi: [Int8], offsetDB: Double, workspace: inout Workspace) throws(PositioningError) -> Double {
        let k = configuration.offsetScoreNeighbours
        guard configuration.distance == .sorensen else {
            try squaredDistances(rssi, offsetDB: offsetDB, workspace: &workspace)
            return workspace.squared.withUnsafeBufferPointer { sq in
                let idx = Self.nearest(k, sq) { _ in true }
                return idx.reduce(0.0) { $0 + sq[$1].squareRoot() } / Double(max(1, idx.count))
            }
        }
        guard rssi.count == accessPointCount else {
            throw .wrongFingerprintLength(index: 0, expected: accessPointCount, found: rssi.count)
        }
        let rep = configuration.representation
        var qNorm = 0.0
        workspace.touched.removeAll(keepingCapacity: true)
        // The k smallest distances seen, ascending; rows never touched are at distance 1.
        var smallest = [Double](repeating: 1, count: k)
        postingRows.withUnsafeBufferPointer { rows in
            postingValues.withUnsafeBufferPointer { values in
                workspace.dot.withUnsafeMutableBufferPointer { dot in
                    for (j, v) in rssi.enumerated() where v != FingerprintSample.notDetected {
                        let q = rep.value(rssiDBm: Double(v) + offsetDB, detected: true)
                        qNorm += q
                        for p in postingStart[j]..<postingStart[j + 1] {
                            let r = Int(rows[p])
                            if dot[r] == 0 { workspace.touched.append(rows[p]) }
                            dot[r] += min(q, values[p])
                        }
                    }
                    norms.withUnsafeBufferPointer { norms in
                        for r in workspace.touched {
                            let i = Int(r)
                            guard dot[i] != 0 else { continue }
                            let total = qNorm + norms[i]
                            let d = total > 0 ? max(0, 1 - 2 * dot[i] / total) : 0
                            dot[i] = 0
                            guard d < smallest[k - 1] else { continue }
                            var pos = k - 1
                            while pos > 0 && smallest[pos - 1] > d {
                                smallest[pos] = smallest[pos - 1]
                                pos -= 1
                            }
                            smallest[pos] = d
                        }
                    }
                }
            }
        }
        // Fewer training rows than k: average over the rows there are.
        let m = min(k, trainingCount)
        return smallest.prefix(m).reduce(0, +) / Double(max(1, m))
    }

    /// The device offset in dB `locate` applies to `rssi` (see `Configuration.deviceOffsetsDB`).
    public func estimatedDeviceOffset(_ rssi: [Int8]) throws(PositioningError) -> Double {
        var workspace = Workspace(for: self)
        return try chooseDeviceOffset(rssi, workspace: &workspace)
    }

    /// As `locate(_:)`, reusing `workspace` between queries.
    public func locate(_ rssi: [Int8], workspace: inout Workspace) throws(PositioningError) -> FingerprintEstimate {
        let offset = try chooseDeviceOffset(rssi, workspace: &workspace)
        let c = configuration
        let squared = c.distance == .euclidean
        let (building, floor) = workspace.squared.withUnsafeBufferPointer { sq in
            let nb = Self.nearest(c.buildingNeighbours, sq) { _ in true }
            let building = Self.vote(nb, sq, squared: squared) { buildings[$0] }
            let nf = Self.nearest(c.floorNeighbours, sq) { buildings[$0] == building }
            return (building, Self.vote(nf, sq, squared: squared) { floors[$0] })
        }
        if let stage = positionStage.first, !workspace.inner.isEmpty {
            try stage.squaredDistances(rssi, offsetDB: offset, workspace: &workspace.inner[0])
        }
        let onFloor: (Int) -> Bool = { buildings[$0] == building && floors[$0] == floor }
        var keysAreSquared = squared
        if c.positionDistanceBlend > 0, !positionStage.isEmpty, !workspace.inner.isEmpty {
            Self.blend(
                workspace.inner[0].squared, workspace.squared, share: c.positionDistanceBlend, squared: squared,
                into: &workspace.blended, where: onFloor)
            keysAreSquared = false
        }
        let positionKeys =
            positionStage.isEmpty
            ? workspace.squared : c.positionDistanceBlend > 0 ? workspace.blended : workspace.inner[0].squared
        return positionKeys.withUnsafeBufferPointer { sq in
            let np = Self.nearest(c.positionNeighbours, sq, onFloor)
            let w =
                c.positionKernelWidth.map { Self.kernelWeights(np, sq, squared: keysAreSquared, width: $0) }
                ?? Self.weights(np, sq, squared: keysAreSquared)
            let (x, y) = Self.average(np, w, xs, ys)
            return FingerprintEstimate(xMetres: x, yMetres: y, floor: floor, building: building)
        }
    }

    /// Fills `out[i] = (1 − share)·position[i] + share·cascade[i]` (distances, square roots taken
    /// when `squared`) for the rows passing `keep`; other rows get +∞. O(n).
    static func blend(
        _ position: [Double], _ cascade: [Double], share: Double, squared: Bool, into out: inout [Double],
        where keep: (Int) -> Bool
    ) {
        for i in out.indices {
            guard keep(i) else {
                out[i] = .infinity
                continue
            }
            let (p, q) = squared ? (position[i].squareRoot(), cascade[i].squareRoot()) : (position[i], cascade[i])
            out[i] = (1 - share) * p + share * q
        }
    }

    /// Plain weighted k-NN regression of the coordinates over all training
    /// fingerprints (no building/floor cascade), with `positionNeighbours`
    /// neighbours: the estimator of scikit-learn's
    /// `KNeighborsRegressor(weights="distance")` on the same features, used as a
    /// like-for-like baseline. Returns (x, y) in metres.
    public func regressCoordinates(_ rssi: [Int8], workspace: inout Workspace) throws(PositioningError) -> (
        xMetres: Double, yMetres: Double
    ) {
        try squaredDistances(rssi, workspace: &workspace)
        let k = configuration.positionNeighbours
        let squared = configuration.distance == .euclidean
        return workspace.squared.withUnsafeBufferPointer { sq in
            let idx = Self.nearest(k, sq) { _ in true }
            let (x, y) = Self.average(idx, Self.weights(idx, sq, squared: squared), xs, ys)
            return (x, y)
        }
    }

    /// Locates every fingerprint of `queries`, in order, on up to `jobs` threads (contiguous slices,
    /// a workspace each: the same estimates for any `jobs`). A bad fingerprint fails the whole call
    /// with its index (the first one in order).
    public func locateAll(_ queries: [[Int8]], jobs: Int = 1) throws(PositioningError) -> [FingerprintEstimate] {
        // A slice costs a thread and a workspace: worth it from a few dozen queries.
        let slices = ParallelSlices.map(count: queries.count, jobs: jobs, minimumPerSlice: 64) {
            range -> Result<[FingerprintEstimate], PositioningError> in
            var workspace = Workspace(for: self)
            var out: [FingerprintEstimate] = []
            out.reserveCapacity(range.count)
            for i in range {
                do throws(PositioningError) {
                    out.append(try locate(queries[i], workspace: &workspace))
                } catch {
                    if case .wrongFingerprintLength(_, let e, let f) = error {
                        return .failure(.wrongFingerprintLength(index: i, expected: e, found: f))
                    }
                    return .failure(error)
                }
            }
            return .success(out)
        }
        var out: [FingerprintEstimate] = []
        out.reserveCapacity(queries.count)
        for slice in slices { out += try slice.get() }
        return out
    }

    /// Indices of the `k` smallest `sq` among rows passing `keep`, nearest first;
    /// ties broken by row index. O(n·k).
    static func nearest(_ k: Int, _ sq: UnsafeBufferPointer<Double>, _ keep: (Int) -> Bool) -> [Int] {
        var best: [Int] = []
        best.reserveCapacity(k + 1)
        for i in 0..<sq.count where keep(i) {
            let d = sq[i]
            if best.count == k, let last = best.last, sq[last] <= d { continue }
            var pos = best.count
            while pos > 0 && sq[best[pos - 1]] > d { pos -= 1 }
            best.insert(i, at: pos)
            if best.count > k { best.removeLast() }
        }
        return best
    }

    /// Weights 1/distance, or equal weights on the neighbours at distance 0 when there are any.
    /// `squared` tells whether the keys are squared distances.
    static func weights(_ idx: [Int], _ key: UnsafeBufferPointer<Double>, squared: Bool) -> [Double] {
        let exact = idx.contains { key[$0] == 0 }
        return idx.map { exact ? (key[$0] == 0 ? 1 : 0) : 1 / (squared ? key[$0].squareRoot() : key[$0]) }
    }

    /// The label with the largest summed weight; ties go to the label of the nearer neighbour.
    static func vote(_ idx: [Int], _ sq: UnsafeBufferPointer<Double>, squared: Bool, _ label: (Int) -> Int) -> Int {
        let w = weights(idx, sq, squared: squared)
        var totals: [(label: Int, weight: Double)] = []
        for (n, i) in idx.enumerated() {
            let l = label(i)
            if let t = totals.firstIndex(where: { $0.label == l }) {
                totals[t].weight += w[n]
            } else {
                totals.append((l, w[n]))
            }
        }
        var best = totals.first
        for t in totals.dropFirst() where t.weight > (best?.weight ?? -1) { best = t }
        return best?.label ?? 0
    }

    /// Gaussian weights exp(−((d − d₁) / (width·d₁))²) relative to the nearest distance d₁ (`idx`
    /// is nearest first), or equal weights on the neighbours at distance 0 when there are any.
    static func kernelWeights(_ idx: [Int], _ key: UnsafeBufferPointer<Double>, squared: Bool, width: Double)
        -> [Double]
    {
        guard let first = idx.first else { return [] }
        let nearest = squared ? key[first].squareRoot() : key[first]
        guard nearest > 0 else { return weights(idx, key, squared: squared) }
        return idx.map { i in
            let z = ((squared ? key[i].squareRoot() : key[i]) - nearest) / (width * nearest)
            return exp(-z * z)
        }
    }

    /// The `w`-weighted mean of the positions of rows `idx`; (0, 0) when the weights sum to 0.
    static func average(_ idx: [Int], _ w: [Double], _ xs: [Double], _ ys: [Double]) -> (Double, Double) {
        var sw = 0.0
        var sx = 0.0
        var sy = 0.0
        for (n, i) in idx.enumerated() {
            sw += w[n]
            sx += w[n] * xs[i]
            sy += w[n] * ys[i]
        }
        return sw > 0 ? (sx / sw, sy / sw) : (0, 0)
    }
}
