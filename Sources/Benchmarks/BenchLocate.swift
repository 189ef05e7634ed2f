import ArgumentParser
import FieldtestData
import Foundation
import Positioning

/// `fieldtest-bench locate`: Wi-Fi fingerprint queries per second beside
/// scikit-learn's `KNeighborsRegressor` (brute force, `weights="distance"`, same
/// k, same features and distance) in the same run. `--distance sorensen` (the
/// tuned model): powed RSSI ((RSSI + 104)/104)^e with Sørensen = Bray–Curtis;
/// `--distance euclidean`: positive RSSI (RSSI + 105) with Euclidean distance,
/// where scikit-learn uses BLAS matrix products.
///
/// Queries: a validation-sized set (1,111 rows, the size of the official
/// UJIIndoorLoc validation split) taken at evenly spaced rows of the bundled
/// training data; the model is trained on the remaining rows. Both sides time
/// only the queries (best of `repeats`). The like-for-like regression
/// (`regressCoordinates`: the same rows, split, features, distance, k and 1/d weights as the script)
/// is checked to compute what scikit-learn computes: `LocateAgreement` counts the outputs equal to
/// scikit-learn's, and fewer than its bound fail the benchmark under `--check`.
struct BenchLocate: ParsableCommand, ChecksGoals {
    static let configuration = CommandConfiguration(
        commandName: "locate", abstract: "Fingerprint queries per second beside scikit-learn KNeighborsRegressor.")

    @OptionGroup var goals: GoalOptions

    @Option(
        help:
            "Datasets folder (default: $FIELDTEST_DATASETS, else ./Datasets, else the Datasets folder of the checkout this executable was built in)."
    ) var datasets: String?
    @Option(
        help:
            "Number of query fingerprints, at least 1 and at most half the bundled training rows (the model trains on the rest)."
    )
    var queries = 1111
    @Option(help: "Timed repetitions (best is reported), 1…100.") var repeats = 3
    @Option(help: "Distance: sorensen (tuned model, powed RSSI) or euclidean (positive RSSI).")
    var distance: FingerprintDistance = .sorensen

    func validate() throws {
        if queries < 1 { throw ValidationError("--queries must be at least 1 (got \(queries))") }
        if !(1...100).contains(repeats) { throw ValidationError("--repeats must be in 1…100 (got \(repeats))") }
    }

    func run() throws {
        let paths = try BenchSupport.files(.ujiIndoorLoc, in: datasets).map(\.url.path)
        let clock = ContinuousClock()
        let loadStart = clock.now
        let samples = try BenchSupport.guarded {
            try FingerprintSample.fromUJIIndoorLoc(
                try paths.flatMap { p in
                    try UJIIndoorLoc.load(url: URL(fileURLWithPath: p), displayName: p).records
                })
        }
        let loadSeconds = Self.seconds(clock.now - loadStart)
        guard queries <= samples.count / 2 else {
            BenchSupport.printError(
                "error: --queries \(queries): the bundled training data has \(samples.count) fingerprints; "
                    + "give at most \(samples.count / 2) queries (half of them) so the model trains on the rest")
            throw BenchSupport.invalidInput
        }
        let split = FingerprintBenchmarkSplit(samples, queryCount: queries)
        let trainStart = clock.now
        let configuration = try configuration()
        let model = try BenchSupport.guarded {
            try FingerprintLocator(training: split.training, configuration: configuration)
        }
        let trainSeconds = Self.seconds(clock.now - trainStart)
        let rssi = split.queries.map(\.rssi)

        var bestCascade = Double.infinity
        var bestRegression = Double.infinity
        var estimates: [FingerprintEstimate] = []
        var regression: [(xMetres: Double, yMetres: Double)] = []
        for _ in 0..<max(1, repeats) {
            let t0 = clock.now
            estimates = try BenchSupport.guarded { try model.locateAll(rssi) }
            bestCascade = min(bestCascade, Self.seconds(clock.now - t0))
            var ws = FingerprintLocator.Workspace(for: model)
            let t1 = clock.now
            regression = try BenchSupport.guarded {
                try rssi.map { q in try model.regressCoordinates(q, workspace: &ws) }
            }
            bestRegression = min(bestRegression, Self.seconds(clock.now - t1))
        }
        print("distance: \(distance.rawValue)")
        print(
            String(
                format: "load %d fingerprints: %.3f s; train on %d: %.3f s; %d queries",
                samples.count, loadSeconds, split.training.count, trainSeconds, rssi.count))
        if let e = FingerprintEvaluation(estimates: estimates, truth: split.queries) {
            print("cascade accuracy (evenly spaced hold-out, same phones): " + e.summary)
        }
        let k = model.configuration.positionNeighbours
        let parsed = Self.baseline(
            files: paths, queries: rssi.count, k: k, repeats: max(1, repeats), distance: distance)
        let baselineRate = parsed.map { Double(rssi.count) / $0.seconds }
        if let parsed { Self.reportAgreement(parsed, regression: regression, k: k) }
        PythonBaseline.report(
            name: "locate k-NN regression (like for like)", unit: "queries",
            fieldtest: Double(rssi.count) / bestRegression,
            baseline: baselineRate, baselineName: "scikit-learn KNeighborsRegressor", goal: 5)
        PythonBaseline.report(
            name: "locate cascade (building→floor→coordinates)", unit: "queries",
            fieldtest: Double(rssi.count) / bestCascade,
            baseline: baselineRate, baselineName: "scikit-learn KNeighborsRegressor", goal: 5)
    }

    /// The tuned configuration with `--distance`, checked to be what the baseline script mirrors.
    func configuration() throws -> FingerprintLocator.Configuration {
        var configuration = FingerprintLocator.Configuration.tuned
        if distance == .euclidean {
            configuration.representation = .positive()
            configuration.distance = .euclidean
            configuration.positionRepresentation = nil
        }
        guard configuration.distance == distance,
            configuration.representation == (distance == .sorensen ? .powed() : .positive())
        else {
            BenchSupport.printError(
                "error: the baseline script mirrors powed RSSI + Sørensen or positive RSSI + Euclidean; update it with the tuned configuration"
            )
            throw BenchSupport.failed
        }
        return configuration
    }

    /// Runs `locate_sklearn.py` on `files` with the bench's split (`queries` evenly spaced rows), `k`
    /// neighbours and `distance`; nil when Python, its modules or a readable time are missing.
    static func baseline(
        files: [String], queries: Int, k: Int, repeats: Int, distance: FingerprintDistance
    ) -> LocateBaselineOutput? {
        let metric = distance == .sorensen ? "braycurtis" : "euclidean"
        return PythonBaseline.run(
            "locate_sklearn", arguments: files + [String(queries), String(k), String(repeats), metric],
            needs: ["numpy", "sklearn"]
        ).flatMap(LocateBaselineOutput.init(parsing:))
    }

    /// Prints and records how many of the like-for-like outputs equal scikit-learn's (see
    /// `LocateAgreement`), judged against the bound: with `--check`, fewer fail the benchmark.
    static func reportAgreement(
        _ baseline: LocateBaselineOutput, regression: [(xMetres: Double, yMetres: Double)], k: Int
    ) {
        let n = regression.count
        guard let agreement = LocateAgreement(fieldtest: regression, baseline: baseline.predictions) else {
            print(
                "like-for-like check: NOT met: scikit-learn printed \(baseline.predictions?.count ?? 0) readable "
                    + "predictions for \(n) queries; the outputs cannot be compared")
            _ = Goals.verdict(false, "locate like-for-like check: scikit-learn's predictions readable")
            return
        }
        let a = agreement
        let verdict = Goals.verdict(
            a.met, "locate like-for-like check: ≥ \(a.bound) of \(n) outputs equal scikit-learn's")
        BenchOutput.measured(
            "like-for-like check: \(a.agreeing) of \(n) k-NN regression outputs equal scikit-learn's within 1e-6 m "
                + "(\(a.equal) directly, \(a.equalUpToTies) once neighbours tied at the k-th distance (k = \(k)) are "
                + "taken in training-row order, as Fieldtest does); bound ≥ \(a.bound): \(verdict)",
            [
                BenchOutput.fact(
                    "check", "locate k-NN regression outputs equal to scikit-learn's", Double(a.agreeing),
                    "outputs of \(n)", goal: ">= \(a.bound)", met: a.met),
                BenchOutput.fact(
                    "check", "locate k-NN regression outputs equal to scikit-learn's, ties as scikit-learn breaks them",
                    Double(a.equal), "outputs of \(n)"),
            ])
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}

extension FingerprintDistance: ExpressibleByArgument {}

/// What `locate_sklearn.py` prints: its best predict time, then per query two predictions.
struct LocateBaselineOutput: Equatable {
    /// One query's predictions, projected metres.
    struct Prediction: Equatable {
        /// scikit-learn's prediction.
        var x: Double, y: Double
        /// The same with neighbours tied at the k-th distance taken in training-row order (scikit-learn's
        /// choice among them is arbitrary); equal to `x`, `y` when there is no such tie.
        var xRowOrder: Double, yRowOrder: Double
    }

    /// Best time of scikit-learn's `predict` over all queries, seconds (> 0).
    var seconds: Double
    /// Per query, in query order; nil when a line is not four numbers.
    var predictions: [Prediction]?

    /// Parses the script's output; nil without a positive time on the first line.
    init?(parsing output: String) {
        let lines = output.split(separator: "\n")
        guard let first = lines.first, let t = Double(first), t > 0, t.isFinite else { return nil }
        seconds = t
        var out: [Prediction] = []
        for line in lines.dropFirst() {
            let parts = line.split(separator: ",", omittingEmptySubsequences: false)
            let v = parts.compactMap { Double($0) }
            guard parts.count == 4, v.count == 4 else {
                predictions = nil
                return
            }
            out.append(Prediction(x: v[0], y: v[1], xRowOrder: v[2], yRowOrder: v[3]))
        }
        predictions = out
    }
}

/// How many of Fieldtest's like-for-like k-NN regression outputs equal scikit-learn's within
/// `toleranceMetres`: directly, or once neighbours tied at the k-th distance are taken in training-row
/// order, as `FingerprintLocator` does (identical fingerprints recorded at different points tie
/// exactly; scikit-learn picks among them arbitrarily).
struct LocateAgreement: Equatable {
    /// Largest coordinate difference, metres, for two outputs to count as equal.
    static let toleranceMetres = 1e-6
    /// Queries compared.
    var queries: Int
    /// Outputs equal to scikit-learn's prediction.
    var equal: Int
    /// Outputs equal only to the prediction with tied neighbours in training-row order.
    var equalUpToTies: Int

    /// Outputs equal either way.
    var agreeing: Int { equal + equalUpToTies }
    /// The documented bound: all but one output in 200 (rounding may order two different
    /// fingerprints at mathematically equal distances differently in the two implementations).
    var bound: Int { queries - queries / 200 }
    /// Whether at least `bound` outputs agree.
    var met: Bool { agreeing >= bound }

    /// Compares `fieldtest` with `baseline`, query by query; nil when the counts differ or `baseline` is nil.
    init?(fieldtest: [(xMetres: Double, yMetres: Double)], baseline: [LocateBaselineOutput.Prediction]?) {
        guard let baseline, baseline.count == fieldtest.count else { return nil }
        let tolerance = Self.toleranceMetres
        queries = fieldtest.count
        equal = 0
        equalUpToTies = 0
        for (f, b) in zip(fieldtest, baseline) {
            if abs(f.xMetres - b.x) < tolerance && abs(f.yMetres - b.y) < tolerance {
                equal += 1
            } else if abs(f.xMetres - b.xRowOrder) < tolerance && abs(f.yMetres - b.yRowOrder) < tolerance {
                equalUpToTies += 1
            }
        }
    }
}
