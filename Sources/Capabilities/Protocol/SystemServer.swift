import FieldtestData
import Foundation

/// A core served over the JSON Lines protocol: what `fieldtest serve <capability>` runs, so other
/// languages can use Fieldtest's cores and tests can run the protocol end to end.
public protocol ServedCore {
    /// The capability served.
    var capability: SystemCapability { get }
    /// Takes a setup file (`load`); throws a message when the format is not one it reads.
    mutating func load(path: String, format: String) throws
    /// The answer fields (without `id`) for each request row, or why the row cannot be answered.
    func answer(_ rows: [JSONObject]) -> [Result<[(String, JSONField)], ServedCoreError>]
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
    /// How long, in microseconds, the server polls for its next request before it sleeps: a
    /// harness sending request after request finds it awake (see `LineReader`).
    public static let defaultSpinMicroseconds = 50

    /// Reads requests from `input` until end of file and writes one answer line per request to
    /// `output`: `hello` (answered with `name` and `version`), `load`, and the capability's
    /// queries, single or batched (`rows`). A request it cannot answer gets
    /// `{"id":…,"ok":false,"error":…}`. Between requests it polls for `spinMicroseconds` before
    /// it sleeps. A request line longer than `maxLineBytes` is answered with an error and skipped,
    /// never held whole in memory.
    public static func serve(
        _ core: inout some ServedCore, name: String, version: String, input: Int32 = STDIN_FILENO,
        output: Int32 = STDOUT_FILENO, spinMicroseconds: Int = defaultSpinMicroseconds,
        maxLineBytes: Int = ExternalSystemSpec.defaultMaxLineBytes
    ) {
        let reader = LineReader(fd: input, maxLineBytes: maxLineBytes)
        let spin = UInt64(max(0, spinMicroseconds)) * 1_000
        var out: [UInt8] = []
        while true {
            let line: ArraySlice<UInt8>
            do { line = try reader.next(deadline: nil, spinNanoseconds: spin) } catch {
                guard error == .tooLong else { break }
                out.removeAll(keepingCapacity: true)
                let message = "a request line is longer than \(maxLineBytes) bytes; it was skipped"
                JSONField.writeObject([("ok", .bool(false)), ("error", .string(message))], into: &out)
                out.append(10)
                guard LineReader.writeAll(out, to: output) else { break }
                continue
            }
            out.removeAll(keepingCapacity: true)
            answer(line, core: &core, name: name, version: version, into: &out)
            out.append(10)
            guard LineReader.writeAll(out, to: output) else { break }
        }
    }

    /// Appends the answer (without newline) to one request line to `out`.
    static func answer(
        _ line: some Collection<UInt8>, core: inout some ServedCore, name: String, version: String,
        into out: inout [UInt8]
    ) {
        let parsed: JSONField
        do { parsed = try JSONReader.parse(line) } catch {
            let message =
                error.repeatedKey.map { "the key '\($0.prefix(64))' repeats; give each key once" }
                ?? error.description
            JSONField.writeObject([("ok", .bool(false)), ("error", .string(message))], into: &out)
            return
        }
        guard let fields = parsed.objectFields else {
            JSONField.writeObject([("ok", .bool(false)), ("error", .string("not a JSON object"))], into: &out)
            return
        }
        let request = JSONObject(fields)
        let id = request["id"]?.stringValue
        func failure(_ message: String) {
            JSONField.writeObject(
                (id.map { [("id", JSONField.string($0))] } ?? []) + [
                    ("ok", .bool(false)), ("error", .string(message)),
                ],
                into: &out)
        }
        switch request["op"]?.stringValue {
        case "hello":
            guard request["protocol"]?.intValue == systemProtocolVersion else {
                return failure("protocol \(systemProtocolVersion) only")
            }
            guard request["capability"]?.stringValue == core.capability.name else {
                return failure("this server answers '\(core.capability)' only")
            }
            JSONField.writeObject(
                [("ok", .bool(true)), ("name", .string(name)), ("version", .string(version))], into: &out)
        case "load":
            guard let dataset = request["dataset"], let path = dataset["path"]?.stringValue,
                let format = dataset["format"]?.stringValue
            else { return failure("load needs dataset.path and dataset.format") }
            do { try core.load(path: path, format: format) } catch { return failure(String(describing: error)) }
            JSONField.writeObject((id.map { [("id", .string($0))] } ?? []) + [("ok", .bool(true))], into: &out)
        case core.capability.operation:
            guard let id else { return failure("a request needs a string id") }
            if case .array(let items)? = request["rows"] {
                guard let rows = Self.objects(items) else { return failure("each of 'rows' must be an object") }
                out.append(contentsOf: #"{"id":"#.utf8)
                JSONField.writeString(id, into: &out)
                out.append(contentsOf: #","rows":["#.utf8)
                for (i, (row, result)) in zip(rows, core.answer(rows)).enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    writeRow(id: row["id"]?.stringValue ?? "", result, into: &out)
                }
                out.append(contentsOf: "]}".utf8)
                return
            }
            switch core.answer([request])[0] {
            case .success(let fields): writeRow(id: id, .success(fields), into: &out)
            case .failure(let e): failure(e.description)
            }
        default:
            let op = request["op"].map { $0.stringValue ?? "\($0)" } ?? ""
            failure("unknown op '\(op)'; use hello, load or \(core.capability.operation)")
        }
    }

    /// `{"id":…, fields…}`, or `{"id":…,"ok":false,"error":…}` for a row that cannot be answered.
    private static func writeRow(
        id: String, _ result: Result<[(String, JSONField)], ServedCoreError>, into out: inout [UInt8]
    ) {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONField.writeString(id, into: &out)
        let fields: [(String, JSONField)]
        switch result {
        case .success(let answer): fields = answer
        case .failure(let e): fields = [("ok", .bool(false)), ("error", .string(e.description))]
        }
        for (key, value) in fields {
            out.append(UInt8(ascii: ","))
            JSONField.writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
            value.write(into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// The rows as objects, or nil when one is not an object.
    private static func objects(_ items: [JSONField]) -> [JSONObject]? {
        var rows: [JSONObject] = []
        rows.reserveCapacity(items.count)
        for item in items {
            guard let fields = item.objectFields else { return nil }
            rows.append(JSONObject(fields))
        }
        return rows
    }
}

/// The numbers of a request, checked where they arrive: a served core never sees a number it was
/// not built for (an infinite or 1e308 coordinate once trapped `serve`, and 1000° got invented times).
enum ServedField {
    /// Latitudes, degrees.
    static let latitudes: ClosedRange<Double> = -90...90
    /// Longitudes, degrees.
    static let longitudes: ClosedRange<Double> = -180...180

    /// The number at `key`, finite and within `range`, or a refusal naming the field.
    static func number(_ row: JSONObject, _ key: String, in range: ClosedRange<Double>) throws(ServedCoreError)
        -> Double
    {
        guard let field = row[key] else { throw ServedCoreError("'\(key)' is missing; it must be a number") }
        guard let v = field.doubleValue else { throw ServedCoreError("'\(key)' must be a number") }
        guard v.isFinite, range.contains(v) else {
            throw ServedCoreError(
                "'\(key)' is \(v); it must be a finite number in \(range.lowerBound)…\(range.upperBound)")
        }
        return v
    }
}

extension SystemServer {
    /// `fieldtest serve <capability>`: serves the built-in core of `capability` (its definition's
    /// `serveBuiltin`, looked up in `registry`) on standard input and output until end of input. Sentiment starts with the shipped default model under
    /// `datasets`; route and locate wait for their map or training file in a `load` message.
    public static func serveBuiltin(
        _ capability: String, datasets: URL, version: String,
        maxLineBytes: Int = ExternalSystemSpec.defaultMaxLineBytes,
        registry: CapabilityRegistry = .bundled
    ) throws {
        let name = "fieldtest-builtin-\(capability)"
        try registry.named(capability).serveBuiltin(datasets, name, version, maxLineBytes)
    }
}

extension SystemServer {
    /// `fieldtest serve`: `serveBuiltin` as a command; it answers on standard output only.
    public struct Job: CommandJob {
        /// The capability served.
        public var capability: String
        /// The datasets folder (the sentiment model's).
        public var datasets: URL
        /// The version announced.
        public var version: String
        /// The longest request line, in bytes.
        public var maxLineBytes: Int

        /// A job.
        public init(capability: String, datasets: URL, version: String, maxLineBytes: Int) {
            (self.capability, self.datasets, self.version, self.maxLineBytes) = (
                capability, datasets, version, maxLineBytes
            )
        }

        public var files: CommandFiles { CommandFiles() }

        /// Serves until standard input ends.
        public func run() throws -> CommandJobOutcome {
            try SystemServer.serveBuiltin(capability, datasets: datasets, version: version, maxLineBytes: maxLineBytes)
            return .success
        }
    }
}
