import FieldtestData
import Foundation
import ScenarioEngine

/// A data file handed to a system before its queries: `{"op":"load","dataset":{"path":…,"format":…}}`.
public struct SetupDataset: Sendable, Equatable {
    /// Absolute path of the file.
    public var path: String
    /// Its format, e.g. `osm-xml`, `ujiindoorloc-csv`, `ftsm`.
    public var format: String
    /// Extra fields of the `dataset` object (e.g. `role: training`).
    public var extra: [String: String]

    /// A setup dataset.
    public init(path: String, format: String, extra: [String: String] = [:]) {
        self.path = path
        self.format = format
        self.extra = extra
    }
}

/// An external system under test: a process started once per run, spoken to in JSON Lines
/// (`docs/system-protocol.md`): the handshake, setup messages, then one request per line and
/// one answer per line with the same `id`.
///
/// Every fault is counted in `faults` and the call returns nil answers for what was not
/// answered; the caller treats those as wrong. A crash, a timeout or an answer out of order
/// (after which the stream cannot be trusted) kills the process and starts it again, up to
/// `spec.restartLimit` times; after that requests are not sent and count as `unavailable`.
/// Only a failed first start or handshake is an error: the run cannot measure anything.
public final class ExternalSystem: @unchecked Sendable {
    /// The capability it serves.
    public let capability: SystemCapability
    /// How it is started.
    public let spec: ExternalSystemSpec
    /// The file its standard error is kept in (bounded: `StderrLog`).
    public let stderrPath: String
    private let log: StderrLog
    /// What it said it is, and its hash.
    public private(set) var identity: SystemIdentity
    /// Faults so far.
    public private(set) var faults = SystemFaults()
    /// How long, in microseconds, a read polls for an answer before it sleeps (`LineReader`): an
    /// answer that comes within it is taken without waking a halted core, which on a virtual
    /// machine costs more than the round trip to a fast system. At most this much CPU a request.
    public var spinMicroseconds = ExternalSystem.defaultSpinMicroseconds {
        didSet { process?.spinNanoseconds = spinNanoseconds }
    }
    /// `spinMicroseconds` unless set: 50 µs.
    public static let defaultSpinMicroseconds = 50

    private let seed: UInt64
    private let setup: [SetupDataset]
    private var process: SystemProcess?
    private var batchCounter = 0
    /// The request being written, its storage kept from one call to the next.
    private var line: [UInt8] = []

    /// Starts the system, shakes hands and sends the setup messages; throws when it cannot be
    /// started, fails the handshake or refuses a setup message.
    public init(
        capability: SystemCapability, spec: ExternalSystemSpec, seed: UInt64, stderrPath: String,
        setup: [SetupDataset] = []
    ) throws(SystemError) {
        self.capability = capability
        self.spec = spec
        self.seed = seed
        self.stderrPath = stderrPath
        self.setup = setup
        guard let log = StderrLog(path: stderrPath) else {
            throw .launch(command: spec.command, reason: "cannot write its standard error to \(stderrPath)")
        }
        self.log = log
        identity = SystemIdentity(capability: capability.name, command: spec.command, name: "", version: "")
        (identity.sha256, identity.hashedFile) = Self.hash(spec.command, workingDirectory: spec.workingDirectory)
        try launch()
    }

    deinit { close() }

    /// Stops the process (end of input, then SIGTERM and SIGKILL of its group after short graces)
    /// and closes its standard error log.
    public func close() {
        process?.terminate()
        process = nil
        log.close()
    }

    private var spinNanoseconds: UInt64 { UInt64(max(0, spinMicroseconds)) * 1_000 }

    /// The running process's id (nil between a crash and its restart).
    public var processIdentifier: Int32? { process?.pid }

    /// The standard error the system has written so far.
    public var standardError: String { log.text }

    // MARK: Calls

    /// Sends `rows` (each an object with a unique string `id` first) as one request, or one
    /// batch request (`"rows":[…]`) when there are several, and returns one decoded answer per
    /// row in order, nil where the system did not answer it correctly.
    ///
    /// The answer line is parsed once (`JSONReader`) and each row decoded from the parsed
    /// value, so a batch of 1,000 rows costs well under a millisecond on the harness's side.
    public func call<Answer: Decodable>(_ rows: [[(String, JSONField)]], as: Answer.Type) -> [Answer?] {
        guard !rows.isEmpty else { return [] }
        let none = [Answer?](repeating: nil, count: rows.count)
        guard process != nil || restart() else {
            faults.add(.unavailable, rows.count)
            return none
        }
        faults.requests += 1
        let requestID: String
        line.removeAll(keepingCapacity: true)
        if rows.count == 1 {
            requestID = Self.id(of: rows[0])
            line.append(contentsOf: #"{"op":"#.utf8)
            JSONField.writeString(capability.operation, into: &line)
            for (key, value) in rows[0] {
                line.append(UInt8(ascii: ","))
                JSONField.writeString(key, into: &line)
                line.append(UInt8(ascii: ":"))
                value.write(into: &line)
            }
            line.append(contentsOf: "}\n".utf8)
        } else {
            batchCounter += 1
            requestID = "batch-\(batchCounter)"
            line.reserveCapacity(rows.count * 96)
            line.append(contentsOf: #"{"op":"#.utf8)
            JSONField.writeString(capability.operation, into: &line)
            line.append(contentsOf: #","id":"#.utf8)
            JSONField.writeString(requestID, into: &line)
            line.append(contentsOf: #","rows":["#.utf8)
            for (i, row) in rows.enumerated() {
                if i > 0 { line.append(UInt8(ascii: ",")) }
                JSONField.writeObject(row, into: &line)
            }
            line.append(contentsOf: "]}\n".utf8)
        }
        guard let text = exchange(line, count: rows.count) else { return none }
        let answer: [(String, JSONField)]
        do {
            // A line that is not a JSON object is malformed, whatever JSON it may be.
            guard let fields = try JSONReader.parse(text).objectFields else {
                throw JSONReadError(offset: 0, expected: "{")
            }
            answer = fields
        } catch {
            faults.add(.malformed, rows.count)
            return none
        }
        let envelope: Envelope
        do { envelope = try Envelope(answer) } catch {
            faults.add(.wrongType, rows.count)
            return none
        }
        if envelope.ok == false {
            faults.add(.refused, rows.count)
            return none
        }
        guard envelope.id == requestID else {
            faults.add(envelope.id == nil ? .wrongType : .outOfOrder, rows.count)
            if envelope.id != nil { desynchronised() }
            return none
        }
        if rows.count == 1 {
            do { return [try JSONFieldDecoder.decode(Answer.self, from: .object(answer))] } catch {
                faults.add(.wrongType)
                return [nil]
            }
        }
        guard case .array(let answered)? = JSONField.object(answer)["rows"] else {
            faults.add(.wrongType, rows.count)
            return none
        }
        guard answered.count == rows.count,
            zip(answered, rows).allSatisfy({ $0["id"]?.stringValue == Self.id(of: $1) })
        else {
            faults.add(.outOfOrder, rows.count)
            return none
        }
        var wrong = 0
        let answers = answered.map { row -> Answer? in
            do { return try JSONFieldDecoder.decode(Answer.self, from: row) } catch {
                wrong += 1
                return nil
            }
        }
        if wrong > 0 { faults.add(.wrongType, wrong) }
        return answers
    }

    /// The string `id` of a request row ("" without one).
    private static func id(of row: [(String, JSONField)]) -> String {
        for (key, value) in row where key == "id" { return value.stringValue ?? "" }
        return ""
    }

    /// Writes a request and reads its answer line, both within one deadline; nil (fault counted,
    /// process restarted on the next call) when the process crashed, did not read the request or
    /// answer in time, or wrote a line longer than `spec.maxLineBytes`.
    private func exchange(_ line: [UInt8], count: Int) -> ArraySlice<UInt8>? {
        guard let process else { return nil }
        let due = deadline()
        switch process.write(line, deadline: due) {
        case .written: break
        case .closed:
            faults.add(.crash, count)
            lost()
            return nil
        case .timedOut:
            faults.add(.timeout, count)
            lost()
            return nil
        }
        do { return try process.readLine(deadline: due) } catch {
            switch error {
            case .timedOut: faults.add(.timeout, count)
            case .closed: faults.add(.crash, count)
            case .tooLong: faults.add(.malformed, count)
            }
            lost()
            return nil
        }
    }

    /// The deadline of an answer; the handshake and setup wait at least `setupSeconds`, as an
    /// interpreter starting or a model loading can take seconds. Seconds are clamped to
    /// 1 ms…`ExternalSystemSpec.maximumTimeoutSeconds`, so no timeout can overflow.
    private func deadline(atLeast floor: Double = 0) -> UInt64 {
        let seconds = min(ExternalSystemSpec.maximumTimeoutSeconds, max(0.001, spec.timeoutSeconds, floor))
        let (sum, overflow) = DispatchTime.now().uptimeNanoseconds.addingReportingOverflow(UInt64(seconds * 1e9))
        return overflow ? UInt64.max : sum
    }

    /// The process is gone or hung: kill it; the next call starts it again.
    private func lost() {
        process?.terminate(graceSeconds: 0)
        process = nil
    }

    /// An answer to another request: the stream cannot be trusted, so start afresh.
    private func desynchronised() { lost() }

    /// Starts the process again if the restart limit allows; false when it does not or the new
    /// process fails its handshake.
    private func restart() -> Bool {
        guard faults.restarts < spec.restartLimit else { return false }
        faults.restarts += 1
        do {
            try launch()
            return true
        } catch {
            faults.add(.crash)
            return false
        }
    }

    // MARK: Start

    private func launch() throws(SystemError) {
        let p = try SystemProcess(
            command: spec.command, environment: ["FIELDTEST_SEED": String(seed)],
            workingDirectory: spec.workingDirectory, log: log, maxLineBytes: spec.maxLineBytes)
        p.spinNanoseconds = spinNanoseconds
        let hello = JSONField.line([
            ("op", .string("hello")), ("protocol", .int(systemProtocolVersion)),
            ("capability", .string(capability.name)), ("seed", .int(Int(clamping: seed))),
        ])
        let answer = try expectOK(hello, from: p, stage: "hello") { reason, stderr in
            .handshake(command: spec.command, reason: reason, stderr: stderr)
        }
        guard let name = answer.name, !name.isEmpty, let version = answer.version else {
            p.terminate(graceSeconds: 0)
            throw .handshake(
                command: spec.command, reason: "its answer has no string 'name' and 'version'", stderr: standardError)
        }
        if let bad = TerminalSafety.unsafeScalar(in: name + version) {
            p.terminate(graceSeconds: 0)
            throw .handshake(
                command: spec.command,
                reason: "its 'name' or 'version' holds the control character \(TerminalSafety.describe(bad)); "
                    + "use printable text", stderr: standardError)
        }
        identity.name = name
        identity.version = version
        for (i, dataset) in setup.enumerated() {
            var fields: [(String, JSONField)] = [("path", .string(dataset.path)), ("format", .string(dataset.format))]
            fields += dataset.extra.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }
            let load = JSONField.line([
                ("op", .string("load")), ("id", .string("load-\(i + 1)")), ("dataset", .object(fields)),
            ])
            _ = try expectOK(load, from: p, stage: "load \(dataset.path)") { reason, stderr in
                .setup(command: spec.command, reason: reason, stderr: stderr)
            }
        }
        process = p
    }

    /// Sends `line` and reads an answer that must be `{"ok":true,…}`.
    private func expectOK(
        _ line: [UInt8], from p: SystemProcess, stage: String,
        error: (String, String) -> SystemError
    ) throws(SystemError) -> Envelope {
        let reason: String
        let due = deadline(atLeast: spec.setupSeconds)
        let wait = min(ExternalSystemSpec.maximumTimeoutSeconds, max(spec.timeoutSeconds, spec.setupSeconds))
        switch p.write(line, deadline: due) {
        case .closed: reason = "it exited before reading '\(stage)'"
        case .timedOut: reason = "it did not read '\(stage)' within \(wait) s"
        case .written:
            do {
                let text = try p.readLine(deadline: due)
                if let fields = try? JSONReader.parse(text).objectFields {
                    if let answer = try? Envelope(fields), answer.ok == true { return answer }
                    reason =
                        "it answered '\(stage)' with \(TerminalSafety.escaped(String(decoding: text, as: UTF8.self).prefix(200)))"
                } else {
                    reason =
                        "its answer to '\(stage)' is not a JSON object: \(TerminalSafety.escaped(String(decoding: text, as: UTF8.self).prefix(200)))"
                }
            } catch {
                switch error {
                case .timedOut: reason = "no answer to '\(stage)' within \(wait) s"
                case .closed: reason = "it exited without answering '\(stage)'"
                case .tooLong: reason = "its answer to '\(stage)' is longer than \(spec.maxLineBytes) bytes"
                }
            }
        }
        p.terminate(graceSeconds: 0)
        throw error(reason, standardError)
    }

    /// The script (first argument naming a file) or the executable, and its SHA-256.
    static func hash(_ command: [String], workingDirectory: String?) -> (String?, String?) {
        let base = URL(fileURLWithPath: workingDirectory ?? FileManager.default.currentDirectoryPath)
        var isDirectory: ObjCBool = false
        for argument in command.dropFirst() where !argument.hasPrefix("-") {
            let url = URL(fileURLWithPath: argument, relativeTo: base)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return ((try? DatasetManifest.sha256(of: url)), url.standardizedFileURL.path)
            }
        }
        let program = command.first ?? ""
        let candidates =
            program.contains("/")
            ? [URL(fileURLWithPath: program, relativeTo: base)]
            : (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map {
                URL(fileURLWithPath: String($0)).appendingPathComponent(program)
            }
        for url in candidates where FileManager.default.isExecutableFile(atPath: url.path) {
            let resolved = url.resolvingSymlinksInPath()
            return ((try? DatasetManifest.sha256(of: resolved)), resolved.path)
        }
        return (nil, nil)
    }
}
