import CampusRouting
import FieldtestData
import Foundation
import Positioning
import SkyScoring
import TweetSentiment

/// A core served over the JSON Lines protocol: what `fieldtest serve <capability>` runs, so other
/// languages can use Fieldtest's cores and tests can run the protocol end to end.
public protocol ServedCore {
    /// The capability served.
    var capability: SystemCapability { get }
    /// Takes a setup file (`load`); throws a message when the format is not one it reads.
    mutating func load(path: String, format: String) throws
    /// The answer fields (without `id`) for each request row, or why the row cannot be answered.
    func answer(_ rows: [[String: Any]]) -> [Result<[(String, JSONField)], ServedCoreError>]
}

/// Why a served core cannot answer a request or take a file.
public struct ServedCoreError: Error, Sendable, CustomStringConvertible {
    /// The message sent back as `error`.
    public var description: String
    /// An error with `description`.
    public init(_ description: String) { self.description = description }
}

/// The JSON Lines server loop.
public enum SystemServer {
    /// Reads requests from `input` until end of file and writes one answer line per request to
    /// `output`, flushed after each: `hello` (answered with `name` and `version`), `load`, and
    /// the capability's queries, single or batched (`rows`). A request it cannot answer gets
    /// `{"id":…,"ok":false,"error":…}`.
    public static func serve(
        _ core: inout some ServedCore, name: String, version: String, input: Int32 = STDIN_FILENO,
        output: Int32 = STDOUT_FILENO
    ) {
        guard let input = fdopen(input, "r"), let output = fdopen(output, "w") else { return }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while true {
            let n = getline(&line, &capacity, input)
            if n < 0 { break }
            guard n > 0, let line else { continue }
            let data = Data(bytes: line, count: n)
            var out = answer(data, core: &core, name: name, version: version)
            out.append(10)
            out.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, output) }
            fflush(output)
        }
    }

    /// The answer line (without newline) to one request line.
    static func answer(_ data: Data, core: inout some ServedCore, name: String, version: String) -> [UInt8] {
        guard let request = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            return JSONField.line([("ok", .bool(false)), ("error", .string("not a JSON object"))]).dropLast()
        }
        let id = request["id"] as? String
        func failure(_ message: String) -> [UInt8] {
            Array(
                JSONField.line(
                    (id.map { [("id", JSONField.string($0))] } ?? [])
                        + [("ok", .bool(false)), ("error", .string(message))]
                ).dropLast())
        }
        switch request["op"] as? String {
        case "hello":
            guard (request["protocol"] as? Int) == systemProtocolVersion else {
                return failure("protocol \(systemProtocolVersion) only")
            }
            guard request["capability"] as? String == core.capability.rawValue else {
                return failure("this server answers '\(core.capability)' only")
            }
            return Array(
                JSONField.line([("ok", .bool(true)), ("name", .string(name)), ("version", .string(version))])
                    .dropLast())
        case "load":
            guard let dataset = request["dataset"] as? [String: Any], let path = dataset["path"] as? String,
                let format = dataset["format"] as? String
            else { return failure("load needs dataset.path and dataset.format") }
            do { try core.load(path: path, format: format) } catch { return failure(String(describing: error)) }
            return Array(JSONField.line((id.map { [("id", .string($0))] } ?? []) + [("ok", .bool(true))]).dropLast())
        case core.capability.operation:
            guard let id else { return failure("a request needs a string id") }
            if let rows = request["rows"] as? [[String: Any]] {
                var out: [UInt8] = Array(#"{"id":"#.utf8)
                JSONField.writeString(id, into: &out)
                out.append(contentsOf: #","rows":["#.utf8)
                for (i, (row, result)) in zip(rows, core.answer(rows)).enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    let rowID = JSONField.string(row["id"] as? String ?? "")
                    switch result {
                    case .success(let fields): JSONField.writeObject([("id", rowID)] + fields, into: &out)
                    case .failure(let e):
                        JSONField.writeObject(
                            [("id", rowID), ("ok", .bool(false)), ("error", .string(e.description))], into: &out)
                    }
                }
                out.append(contentsOf: "]}".utf8)
                return out
            }
            switch core.answer([request])[0] {
            case .success(let fields): return Array(JSONField.line([("id", .string(id))] + fields).dropLast())
            case .failure(let e): return failure(e.description)
            }
        default:
            return failure(
                "unknown op '\(request["op"] ?? "")'; use hello, load or \(core.capability.operation)")
        }
    }
}

/// The shipped sentiment model, served.
public struct ServedSentiment: ServedCore {
    public let capability = SystemCapability.sentiment
    /// The model answering.
    public var model: SentimentModel
    /// Serves `model`.
    public init(model: SentimentModel) { self.model = model }

    public mutating func load(path: String, format: String) throws {
        guard format == "ftsm" else { throw ServedCoreError("sentiment loads a model file of format 'ftsm'") }
        model = try SentimentModelFile.load(URL(fileURLWithPath: path), displayName: path)
    }

    public func answer(_ rows: [[String: Any]]) -> [Result<[(String, JSONField)], ServedCoreError>] {
        rows.map { row in
            guard let text = row["text"] as? String else { return .failure(ServedCoreError("'text' must be a string")) }
            let p = model.predict(text)
            return .success([
                ("label", .string(p.label.description)), ("score", .number(p.score)),
                ("probabilities", .array(p.probabilities.map { .number($0) })),
            ])
        }
    }
}

/// The solar calculator, served.
public struct ServedSun: ServedCore {
    public let capability = SystemCapability.sun
    /// The calculator answering.
    public var calculator = SolarCalculator()
    /// Serves the built-in calculator.
    public init() {}

    public mutating func load(path: String, format: String) throws {
        throw ServedCoreError("sun needs no setup")
    }

    public func answer(_ rows: [[String: Any]]) -> [Result<[(String, JSONField)], ServedCoreError>] {
        rows.map { row in
            guard let lat = row["latitude"] as? Double, let lon = row["longitude"] as? Double,
                let date = row["date"] as? String, let zone = row["timezone"] as? String
            else { return .failure(ServedCoreError("needs latitude, longitude (numbers), date and timezone")) }
            let q = SunQuery(id: "", latitude: lat, longitude: lon, date: date, timezone: zone)
            guard let t = calculator.sunTimes([q])[0] else {
                return .failure(ServedCoreError("date must be an existing YYYY-MM-DD and timezone an IANA name"))
            }
            return .success(t.fields)
        }
    }
}

/// The campus router, served; the map arrives in a `load` message (`osm-xml`, `osm-pbf` or `geojson`).
public struct ServedRoute: ServedCore {
    public let capability = SystemCapability.route
    /// The router, once a map is loaded.
    public var router: BuiltinRouter?
    /// Serves the router over the maps it is sent.
    public init(router: BuiltinRouter? = nil) { self.router = router }

    public mutating func load(path: String, format: String) throws {
        guard ["osm-xml", "osm-pbf", "geojson"].contains(format) else {
            throw ServedCoreError("route loads a map of format 'osm-xml', 'osm-pbf' or 'geojson'")
        }
        let map = try MapFile.load(url: URL(fileURLWithPath: path), displayName: path)
        router = BuiltinRouter(graph: try CampusGraph(source: map.source))
    }

    public func answer(_ rows: [[String: Any]]) -> [Result<[(String, JSONField)], ServedCoreError>] {
        rows.map { row in
            guard let router else { return .failure(ServedCoreError("no map loaded; send a 'load' message first")) }
            guard let a = row["from_lat"] as? Double, let b = row["from_lon"] as? Double,
                let c = row["to_lat"] as? Double, let d = row["to_lon"] as? Double,
                let profile = row["profile"] as? String
            else { return .failure(ServedCoreError("needs from_lat, from_lon, to_lat, to_lon and profile")) }
            let q = RouteQuery(
                id: "", from: GeoPoint(latitude: a, longitude: b), to: GeoPoint(latitude: c, longitude: d),
                profile: profile)
            guard let r = router.route([q])[0] else {
                return .failure(
                    ServedCoreError(
                        "unknown profile '\(profile)'; known: \(router.graph.profiles.map(\.name).joined(separator: ", "))"
                    ))
            }
            return .success(r.fields)
        }
    }
}

/// The fingerprint locator, served; trained on the UJIIndoorLoc files it is sent (`ujiindoorloc-csv`).
public struct ServedLocate: ServedCore {
    public let capability = SystemCapability.locate
    /// The locator, once trained.
    public var locator: FingerprintLocator?
    private var training: [UJIIndoorLocRecord] = []
    /// Serves a locator trained on the files it is sent.
    public init() {}

    public mutating func load(path: String, format: String) throws {
        guard format == "ujiindoorloc-csv" else {
            throw ServedCoreError("locate loads 'ujiindoorloc-csv' training files")
        }
        training += try UJIIndoorLoc.load(url: URL(fileURLWithPath: path), displayName: path).records
        locator = try FingerprintLocator(training: try FingerprintSample.fromUJIIndoorLoc(training))
    }

    public func answer(_ rows: [[String: Any]]) -> [Result<[(String, JSONField)], ServedCoreError>] {
        guard let locator else { return rows.map { _ in .failure(ServedCoreError("no training file loaded")) } }
        return rows.map { row in
            let width = Self.width(row)
            var rssi: [Int8] = []
            for i in 0..<width {
                guard let v = row[LocateQuery.column(i)] as? Int, let b = Int8(exactly: v) else {
                    return .failure(ServedCoreError("\(LocateQuery.column(i)) must be an integer dBm or 100"))
                }
                rssi.append(b)
            }
            guard let a = locator.locate([LocateQuery(id: "", rssi: rssi)])[0] else {
                return .failure(ServedCoreError("no access point detected, or the wrong number of WAP fields"))
            }
            return .success(a.fields)
        }
    }

    /// The number of `WAPnnn` fields of a row.
    static func width(_ row: [String: Any]?) -> Int {
        var n = 0
        while row?[LocateQuery.column(n)] != nil { n += 1 }
        return n
    }
}

extension SystemServer {
    /// `fieldtest serve <capability>`: serves the built-in core of `capability` on standard input
    /// and output until end of input. Sentiment starts with the shipped default model under
    /// `datasets`; route and locate wait for their map or training file in a `load` message.
    public static func serveBuiltin(_ capability: String, datasets: URL, version: String) throws {
        let name = "fieldtest-builtin-\(capability)"
        switch try SystemCapability.named(capability) {
        case .sentiment:
            var core = ServedSentiment(model: try SentimentModelFile.load(nil, datasets: datasets))
            serve(&core, name: name, version: version)
        case .sun:
            var core = ServedSun()
            serve(&core, name: name, version: version)
        case .route:
            var core = ServedRoute()
            serve(&core, name: name, version: version)
        case .locate:
            var core = ServedLocate()
            serve(&core, name: name, version: version)
        }
    }
}
