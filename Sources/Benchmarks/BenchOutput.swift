import ArgumentParser
import FieldtestData
import Foundation
import MetricReports

/// What `--format` writes: lines for a person, or records for a machine.
enum BenchFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// The lines as measured (the default).
    case text
    /// One CSV record per fact, written as it is measured: `benchmark,kind,name,value,unit,goal,met,text`,
    /// beginning with the machine's description (`kind` machine).
    case csv
    /// One JSON document when every benchmark asked for has run: `machine`, `results`, `notes`, `goals_met`.
    case json
}

/// One measured fact of a benchmark.
struct BenchRecord: Sendable, Encodable {
    /// The benchmark (`engine`, `sun`, …).
    var benchmark: String
    /// `rate` (Fieldtest's throughput), `baseline_rate` (a Python peer's), `ratio` (Fieldtest's over the
    /// peer's) or `goal` (a stated goal judged on its own figure).
    var kind: String
    /// What was measured, e.g. `engine` or `sun vs astral 3 sun()`.
    var name: String
    /// The figure, in `unit`.
    var value: Double
    /// The unit, e.g. `events/s`, `×`, `s`.
    var unit: String
    /// The stated goal, e.g. `>= 10`, when there is one.
    var goal: String?
    /// Whether the goal is met (nil without a goal).
    var met: Bool?
}

/// The machine the benchmarks ran on, as `--format csv|json` describe it.
struct BenchMachine: Sendable, Encodable {
    var host: String
    var cpu: String
    var cores: Int
    var memoryBytes: UInt64
    var os: String
    var swift: String
    var build: String
    var date: String

    enum CodingKeys: String, CodingKey {
        case host, cpu, cores, memoryBytes = "memory_bytes", os, swift, build, date
    }

    /// This machine, now.
    static func current() -> BenchMachine {
        let p = ProcessInfo.processInfo
        let id = MachineIdentity.current()
        #if DEBUG
            let build = "debug"
        #else
            let build = "release"
        #endif
        return BenchMachine(
            host: id.host, cpu: id.cpu, cores: id.cores, memoryBytes: p.physicalMemory,
            os: p.operatingSystemVersionString, swift: swiftVersion, build: build,
            date: ISO8601DateFormatter().string(from: Date()))
    }

    /// The Swift compiler that built this executable (known at compile time only by version checks).
    static var swiftVersion: String {
        #if compiler(>=6.4)
            return ">= 6.4"
        #elseif compiler(>=6.3)
            return "6.3"
        #elseif compiler(>=6.2)
            return "6.2"
        #else
            return "< 6.2"
        #endif
    }

    /// The description as `(name, text)` pairs, in CSV order.
    var fields: [(String, String)] {
        [
            ("host", host), ("cpu", cpu), ("cores", String(cores)), ("memory_bytes", String(memoryBytes)),
            ("os", os), ("swift", swift), ("build", build), ("date", date),
        ]
    }
}

/// Where the benchmarks' output goes. Text lines are written and flushed one at a time; in
/// CSV each record is flushed as it is measured; JSON is one document at the end.
enum BenchOutput {
    nonisolated(unsafe) static var format = BenchFormat.text
    /// The benchmark running now (records and notes are attributed to it).
    nonisolated(unsafe) static var benchmark = ""
    nonisolated(unsafe) static var records: [BenchRecord] = []
    nonisolated(unsafe) static var notes: [(benchmark: String, text: String)] = []
    nonisolated(unsafe) static var machine: BenchMachine?

    /// Starts the output in `format`: CSV begins with its header and the machine's description.
    static func start(_ format: BenchFormat) {
        self.format = format
        guard format != .text else { return }
        let m = BenchMachine.current()
        machine = m
        if format == .csv {
            emit("benchmark,kind,name,value,unit,goal,met,text")
            for (name, text) in m.fields {
                emit(["", "machine", name, "", "", "", "", text].map(CSVWriter.escape).joined(separator: ","))
            }
        }
    }

    /// A line for a person: written as it is in text, a `note` record in CSV, kept for JSON.
    static func note(_ text: String) {
        switch format {
        case .text: emit(text)
        case .csv:
            emit([benchmark, "note", "", "", "", "", "", text].map(CSVWriter.escape).joined(separator: ","))
        case .json: notes.append((benchmark, text))
        }
    }

    /// A measured line: `text` for a person, `facts` for a machine (with the current benchmark's name).
    static func measured(_ text: String, _ facts: [BenchRecord]) {
        switch format {
        case .text: emit(text)
        case .csv:
            for r in facts {
                emit(
                    [
                        r.benchmark, r.kind, r.name, CSVWriter.exactNumber(r.value), r.unit, r.goal ?? "",
                        r.met.map { $0 ? "true" : "false" } ?? "", "",
                    ].map(CSVWriter.escape).joined(separator: ","))
            }
        case .json: records += facts
        }
    }

    /// A record of the current benchmark.
    static func fact(
        _ kind: String, _ name: String, _ value: Double, _ unit: String, goal: String? = nil, met: Bool? = nil
    ) -> BenchRecord {
        BenchRecord(benchmark: benchmark, kind: kind, name: name, value: value, unit: unit, goal: goal, met: met)
    }

    /// Ends the output: JSON writes its document (a record whose figure is not finite is left out).
    static func finish() {
        guard format == .json else { return }
        struct Note: Encodable { var benchmark: String, text: String }
        struct Document: Encodable {
            var machine: BenchMachine?
            var results: [BenchRecord]
            var notes: [Note]
            var goalsMet: Bool
            enum CodingKeys: String, CodingKey { case machine, results, notes, goalsMet = "goals_met" }
        }
        let document = Document(
            machine: machine, results: records.filter { $0.value.isFinite },
            notes: notes.map { Note(benchmark: $0.benchmark, text: $0.text) }, goalsMet: Goals.unmet.isEmpty)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if let data = try? encoder.encode(document) { emit(String(decoding: data, as: UTF8.self)) }
    }

    /// Writes one line to standard output at once, even into a pipe (where `Swift.print` would
    /// hold it until the buffer fills or the process ends), so a long run shows its progress.
    static func emit(_ line: String) {
        Swift.print(line)
        fflush(nil)
    }
}
