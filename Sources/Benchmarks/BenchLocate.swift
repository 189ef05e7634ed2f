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
/// only the queries (best of `repeats`); the outputs of the like-for-like
/// regression are compared to show the distance measure is the same.
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
        let baseline = PythonBaseline.run(
            "locate_sklearn",
            arguments: paths + [
                String(rssi.count), String(k), String(max(1, repeats)),
                distance == .sorensen ? "braycurtis" : "euclidean",
            ],
            needs: ["numpy", "sklearn"])
        let baselineRate = baselineRate(baseline, queries: rssi.count, regression: regression)
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

    /// scikit-learn's rate (queries per second) from the baseline script's output (its time, then one
    /// prediction per line), after printing how many of its predictions equal `regression`'s.
    func baselineRate(_ baseline: String?, queries: Int, regression: [(xMetres: Double, yMetres: Double)]) -> Double? {
        var baselineRate: Double? = nil
        if let out = baseline?.split(separator: "\n"), let first = out.first, let t = Double(first), t > 0 {
            baselineRate = Double(queries) / t
            let predictions = out.dropFirst().compactMap { line -> (Double, Double)? in
                let parts = line.split(separator: ",")
                guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]) else { return nil }
                return (x, y)
            }
            if predictions.count == regression.count {
                let same = zip(predictions, regression).filter {
                    abs($0.0 - $1.xMetres) < 1e-6 && abs($0.1 - $1.yMetres) < 1e-6
                }.count
                print(
                    "same-distance check: \(same) of \(regression.count) k-NN regression outputs equal scikit-learn's within 1e-6 m"
                )
            }
        }
        return baselineRate
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}

extension FingerprintDistance: ExpressibleByArgument {}
