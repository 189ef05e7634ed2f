import CampusRouting
import FieldtestData
import Foundation

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
///
/// On an OSM map an `ok` answer with `node_ids` is judged on its own path (`PathAudit`, the contract
/// of docs/system-protocol.md): one using a pair of nodes no way joins counts in `nonexistent_edges`,
/// one the profile may not walk in `forbidden_edges`, and neither enters the length figures. A valid
/// path's recomputed length is compared with the shortest walk between its own first and last nodes
/// (a system may snap the query points its own way), and the distances from the query points to
/// those nodes give `end_offset_mean_m` and `end_offset_max_m`. Answers without `node_ids` (and every
/// answer on a GeoJSON map) are compared by `length_m` with the shortest walk between the query points.
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
        // Only an OSM map has node ids to judge a path by; a GeoJSON map's answers keep the length check.
        var audits: [Int: PathAudit] = [:]
        if map.osm != nil {
            for p in Set(profiles) { audits[p] = PathAudit(graph: graph, profile: p) }
        }
        var tally = Tally()
        for (i, q) in parsed.enumerated() {
            guard let answer = answers[i] else {
                tally.noAnswer += 1
                try r.itemLog?.add(id: q.id, expected: "", answer: nil)
                continue
            }
            let truth = oracle.shortest(from: q.from, to: q.to, profile: profiles[i])
            var own: OwnPath?
            if answer.status == RouteStatus.ok.rawValue, !answer.nodeIDs.isEmpty, let audit = audits[profiles[i]] {
                own = ownPath(answer, query: (q.from, q.to), profile: profiles[i], audit: audit, oracle: oracle)
                tally.add(answer, truth: truth, ownPath: own!)
            } else {
                tally.add(answer, truth: truth)
            }
            try r.itemLog?.add(
                id: q.id, expected: describe(truth), answer: describe(answer), correct: answer.status == truth.status,
                error: Self.lengthError(answer, truth: truth, own: own), note: own.flatMap(Self.offenceNote) ?? "")
        }
        return (name, tally.figures(queries: parsed.count))
    }

    /// The judgement of an `ok` answer on its own nodes (`PathAudit`): the first pair the profile does
    /// not allow, or the path's recomputed length, the oracle's shortest walk between the path's own
    /// first and last nodes, and the distances (metres) from the query's ends to those nodes.
    static func ownPath(
        _ answer: RouteAnswer, query: (from: GeoPoint, to: GeoPoint), profile p: Int, audit: PathAudit,
        oracle: ShortestPathOracle
    ) -> OwnPath {
        switch audit.audit(answer.nodeIDs) {
        case .offence(let o):
            return .offence(o)
        case .valid(let length):
            // A valid path's nodes are all on the map (`audit` checks each one).
            let first = answer.nodeIDs.first.flatMap(audit.position(of:)) ?? query.from
            let last = answer.nodeIDs.last.flatMap(audit.position(of:)) ?? query.to
            let offsets = [Geodesy.haversineMetres(query.from, first), Geodesy.haversineMetres(query.to, last)]
            return .valid(length: length, truth: oracle.shortest(from: first, to: last, profile: p), offsets: offsets)
        }
    }

    /// The oracle's answer as `items` shows it.
    static func describe(_ truth: ShortestPathOracle.Answer) -> String {
        switch truth {
        case .shortest(let metres): "ok \(CSVWriter.number(metres)) m"
        case .noRoute: "no_route"
        case .noSnap: "no_snap"
        }
    }

    /// An answer as `items` shows it.
    static func describe(_ answer: RouteAnswer) -> String {
        answer.status == "ok" ? "ok \(CSVWriter.number(answer.lengthMetres)) m" : answer.status
    }

    /// Metres between the answer's length and the optimum it is judged against (its own ends' when
    /// its path is judged on its nodes); nil when either side has no route or the path is not allowed.
    static func lengthError(_ answer: RouteAnswer, truth: ShortestPathOracle.Answer, own: OwnPath?) -> Double? {
        switch own {
        case .offence: return nil
        case .valid(let length, let ownTruth, _):
            if case .shortest(let optimum) = ownTruth { return abs(length - optimum) }
            return nil
        case nil:
            guard answer.status == "ok", case .shortest(let optimum) = truth else { return nil }
            return abs(answer.lengthMetres - optimum)
        }
    }

    /// The first offending pair of a path, for `items`'s note.
    static func offenceNote(_ own: OwnPath) -> String? {
        if case .offence(let o) = own { return "\(o)" }
        return nil
    }

    /// An `ok` answer judged on its own nodes.
    enum OwnPath {
        /// A pair of its nodes that is no edge, or one the profile may not walk.
        case offence(PathAudit.Offence)
        /// A walk the profile allows: its length (metres, recomputed), the shortest walk between its
        /// first and last nodes, and its ends' distances (metres) from the query points.
        case valid(length: Double, truth: ShortestPathOracle.Answer, offsets: [Double])
    }

    /// The counts and errors gathered over the answers.
    struct Tally {
        var noAnswer = 0, agree = 0, referenceOK = 0, referenceNoRoute = 0, referenceNoSnap = 0, wrongNoRoute = 0,
            falseRoute = 0, wrongSnap = 0
        var suboptimal = 0, shorter = 0, pathMismatch = 0, forbiddenEdges = 0, nonexistentEdges = 0
        /// Distances (metres) from the query points to the ends of the paths judged on their own nodes.
        var endOffsets: [Double] = []
        var errors: [Double] = []
        var ratios: [Double] = []

        /// Counts `answer` against the oracle's `truth` between the query points; an `ok` answer judged
        /// on its own nodes (`ownPath`) is measured against the shortest walk between its own ends, and
        /// one that uses a forbidden or non-existent edge is counted as such, never in the lengths.
        mutating func add(_ answer: RouteAnswer, truth: ShortestPathOracle.Answer, ownPath: OwnPath? = nil) {
            switch truth {
            case .shortest: referenceOK += 1
            case .noRoute: referenceNoRoute += 1
            case .noSnap: referenceNoSnap += 1
            }
            if answer.status == truth.status { agree += 1 }
            // A path judged on its own nodes counts its offence or its ends whatever the reference says.
            switch ownPath {
            case .offence(let o): if o.kind == .forbiddenEdge { forbiddenEdges += 1 } else { nonexistentEdges += 1 }
            case .valid(_, _, let offsets): endOffsets += offsets
            case .none: break
            }
            switch (truth, answer.status) {
            case (.shortest(let optimum), "ok"):
                switch ownPath {
                case .none: compare(answer.lengthMetres, optimum: optimum)
                case .offence: break
                case .valid(let length, let ownTruth, _):
                    if case .shortest(let own) = ownTruth { compare(length, optimum: own) }
                }
                let walked = Geodesy.pathLengthMetres(answer.path)
                let length = answer.lengthMetres
                if answer.path.count >= 2, abs(walked - length) > max(1, length * 0.01) { pathMismatch += 1 }
            case (.shortest, _): wrongNoRoute += 1
            case (_, "ok"): falseRoute += 1
            default: if answer.status != truth.status { wrongSnap += 1 }
            }
        }

        /// One routed length against the optimum, metres.
        mutating func compare(_ length: Double, optimum: Double) {
            errors.append(length - optimum)
            ratios.append(optimum > 0 ? length / optimum : (length == 0 ? 1 : .infinity))
            let slack = max(0.5, optimum * 0.001)
            if length > optimum + slack { suboptimal += 1 }
            if length < optimum - slack { shorter += 1 }
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
                .init("forbidden_edges", Double(forbiddenEdges), unit: "count", rows: answered),
                .init("nonexistent_edges", Double(nonexistentEdges), unit: "count", rows: answered),
                .init(
                    "end_offset_mean_m", endOffsets.isEmpty ? nil : endOffsets.reduce(0, +) / Double(endOffsets.count),
                    unit: "m", rows: endOffsets.count),
                .init("end_offset_max_m", endOffsets.max(), unit: "m", rows: endOffsets.count),
            ]
        }
    }
}
