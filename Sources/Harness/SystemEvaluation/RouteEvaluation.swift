import CampusRouting
import FieldtestData
import Foundation
import SystemsUnderTest

/// `evaluate route`: a router's answers against the exact shortest walks (`ShortestPathOracle`) on
/// the same map (`--graph`, built-in profiles).
///
/// The input is `fieldtest route`'s queries CSV (`id,from_lat,from_lon,to_lat,to_lon,profile`).
/// Figures over all queries: `queries`, `no_answer`, `reference_ok`, `reference_no_route` and
/// `reference_no_snap` (the oracle's statuses of the answered queries), `status_agreement` (rate of answers whose
/// status is the oracle's), `wrong_no_route` (the system says `no_route`/`no_snap` where a route
/// exists), `false_route` (`ok` where none exists), `wrong_snap` (`no_snap` disagreements the other
/// way round). Over the queries both route: `length_error_mean_m`, `length_error_p95_m`,
/// `length_error_max_m` (|system − optimum|), `optimality_mean` and `optimality_max` (system length
/// ÷ optimum; 1 is optimal), `suboptimal` (longer than the optimum by over 0.1 % and 0.5 m),
/// `shorter_than_optimal` (shorter by as much: an impossible answer), and `path_mismatch` (the
/// reported `length_m` differs from the length of the reported `path` by over 1 % and 1 m).
enum RouteEvaluation {
    static func run(_ r: SystemEvaluation.Request, choice: SystemChoice) throws -> (String, [SystemEvaluation.Figure]) {
        guard let mapPath = r.graph else { throw SystemEvaluation.UsageError(message: "--graph is required") }
        let file = r.inputs[0]
        let table = try CSVTable(url: URL(fileURLWithPath: file), displayName: file)
        let parsed = try RouteBatch.parseQueries(table)
        let map = try MapFile.load(url: URL(fileURLWithPath: mapPath), displayName: mapPath)
        let graph = try CampusGraph(source: map.source)
        var profiles: [Int] = []
        for q in parsed {
            guard let p = try? graph.profileIndex(named: q.profile) else {
                throw DataError.invalidField(
                    file: file, line: q.line, field: "profile", value: q.profile,
                    reason: "unknown profile; known: \(graph.profiles.map(\.name).joined(separator: ", "))")
            }
            profiles.append(p)
        }
        let queries = parsed.map { RouteQuery(id: $0.id, from: $0.from, to: $0.to, profile: $0.profile) }
        let name: String
        let answers: [RouteAnswer?]
        switch choice {
        case .builtin:
            (name, answers) = ("builtin", SystemEvaluation.batched(queries, BuiltinRouter(graph: graph).route))
        case .external(let spec):
            let format = map.osm == nil ? "geojson" : "osm-xml"
            let path = URL(fileURLWithPath: mapPath).standardizedFileURL.path
            let system = try SystemEvaluation.start(
                .route, spec: spec, request: r, setup: [SetupDataset(path: path, format: format)])
            defer { system.close() }
            let router = ExternalRoutingSystem(system)
            (name, answers) = (SystemEvaluation.name(system), SystemEvaluation.batched(queries, router.route))
        }
        let oracle = ShortestPathOracle(graph: graph)
        var tally = Tally()
        for (i, q) in parsed.enumerated() {
            guard let answer = answers[i] else {
                tally.noAnswer += 1
                continue
            }
            tally.add(answer, truth: oracle.shortest(from: q.from, to: q.to, profile: profiles[i]))
        }
        return (name, tally.figures(queries: parsed.count))
    }

    /// The counts and errors gathered over the answers.
    struct Tally {
        var noAnswer = 0, agree = 0, referenceOK = 0, referenceNoRoute = 0, referenceNoSnap = 0, wrongNoRoute = 0,
            falseRoute = 0, wrongSnap = 0
        var suboptimal = 0, shorter = 0, pathMismatch = 0
        var errors: [Double] = []
        var ratios: [Double] = []

        mutating func add(_ answer: RouteAnswer, truth: ShortestPathOracle.Answer) {
            switch truth {
            case .shortest: referenceOK += 1
            case .noRoute: referenceNoRoute += 1
            case .noSnap: referenceNoSnap += 1
            }
            if answer.status == truth.status { agree += 1 }
            switch (truth, answer.status) {
            case (.shortest(let optimum), "ok"):
                let length = answer.lengthMetres
                errors.append(length - optimum)
                ratios.append(optimum > 0 ? length / optimum : (length == 0 ? 1 : .infinity))
                let slack = max(0.5, optimum * 0.001)
                if length > optimum + slack { suboptimal += 1 }
                if length < optimum - slack { shorter += 1 }
                let walked = Geodesy.pathLengthMetres(answer.path)
                if answer.path.count >= 2, abs(walked - length) > max(1, length * 0.01) { pathMismatch += 1 }
            case (.shortest, _): wrongNoRoute += 1
            case (_, "ok"): falseRoute += 1
            default: if answer.status != truth.status { wrongSnap += 1 }
            }
        }

        func figures(queries n: Int) -> [SystemEvaluation.Figure] {
            let answered = n - noAnswer
            let e = ErrorSummary(errors)
            let k = errors.count
            return [
                .init("queries", Double(n), unit: "count", rows: n),
                .init("no_answer", Double(noAnswer), unit: "count", rows: n),
                .init("reference_ok", Double(referenceOK), unit: "count", rows: answered),
                .init("reference_no_route", Double(referenceNoRoute), unit: "count", rows: answered),
                .init("reference_no_snap", Double(referenceNoSnap), unit: "count", rows: answered),
                .init(
                    "status_agreement", answered == 0 ? nil : Double(agree) / Double(answered), unit: "rate",
                    rows: answered),
                .init("wrong_no_route", Double(wrongNoRoute), unit: "count", rows: answered),
                .init("false_route", Double(falseRoute), unit: "count", rows: answered),
                .init("wrong_snap", Double(wrongSnap), unit: "count", rows: answered),
                .init("length_error_mean_m", e.mean, unit: "m", rows: k),
                .init("length_error_p95_m", e.percentile(95), unit: "m", rows: k),
                .init("length_error_max_m", e.max, unit: "m", rows: k),
                .init("optimality_mean", k == 0 ? nil : ratios.reduce(0, +) / Double(k), unit: "ratio", rows: k),
                .init("optimality_max", ratios.max(), unit: "ratio", rows: k),
                .init("suboptimal", Double(suboptimal), unit: "count", rows: k),
                .init("shorter_than_optimal", Double(shorter), unit: "count", rows: k),
                .init("path_mismatch", Double(pathMismatch), unit: "count", rows: k),
            ]
        }
    }
}
