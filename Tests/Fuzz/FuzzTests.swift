import CampusRouting
import FieldtestApps
import FieldtestTestSupport
import Foundation
import MetricReports
import ScenarioEngine
import Testing
import TweetSentiment

@testable import Capabilities
@testable import FieldtestData

/// One parser under fuzzing: its seeds' folder in `corpus/`, the file extension its inputs are
/// written with (the loaders tell some formats by name), and the call that parses a file.
struct FuzzTarget: Sendable, CustomStringConvertible {
    var name: String
    var corpus: String
    var fileName: @Sendable (URL) -> String
    var parse: @Sendable (URL) throws -> Void
    /// Seeds made in code rather than read from `corpus/` (the model file is binary).
    var generatedSeeds: @Sendable () throws -> [[UInt8]] = { [] }

    var description: String { name }

    static func loader(_ name: String, _ format: DatasetFormat, corpus: String? = nil) -> FuzzTarget {
        FuzzTarget(
            name: name, corpus: corpus ?? name, fileName: { $0.lastPathComponent },
            parse: { url in _ = try DatasetLoaders.countRecords(format: format, url: url, displayName: url.path) })
    }

    static let all: [FuzzTarget] = [
        FuzzTarget(
            name: "csv", corpus: "csv", fileName: { $0.lastPathComponent },
            parse: { url in _ = try CSVTable(bytes: readFileBytes(url), file: url.path) }),
        .loader("noaa-lcd", .noaaLCD),
        .loader("isd-history", .isdHistory),
        .loader("tmy3", .tmy3),
        .loader("tmy2", .tmy2),
        .loader("osm-xml", .osmXML),
        FuzzTarget(
            name: "osm-xml-parts", corpus: "osm-xml", fileName: { $0.lastPathComponent },
            parse: { url in try OSMInParts.check(readFileBytes(url), file: url.path) }),
        .loader("osm-pbf", .osmPBF),
        FuzzTarget(
            name: "osm-pbf-budget", corpus: "osm-pbf-budget", fileName: { $0.lastPathComponent },
            parse: { url in try PBFBudget.check(url) }),
        .loader("ujiindoorloc", .ujiIndoorLoc),
        FuzzTarget(
            name: "geolife", corpus: "geolife", fileName: { $0.lastPathComponent },
            parse: { url in
                _ = try DatasetLoaders.countRecords(
                    format: url.pathExtension == "plt" ? .geolifePLT : .geolifeCSV, url: url, displayName: url.path)
            }),
        FuzzTarget(
            name: "map-file", corpus: "geojson", fileName: { $0.lastPathComponent },
            parse: { url in _ = try MapFile.load(url: url) }),
        FuzzTarget(
            name: "tweets", corpus: "tweets", fileName: { $0.lastPathComponent },
            parse: { url in _ = try SentimentCorpusFiles.load([url]) }),
        FuzzTarget(
            name: "lexicons", corpus: "lexicons", fileName: { $0.lastPathComponent },
            parse: { url in
                switch url.lastPathComponent {
                case let n where n.hasPrefix("afinn"): _ = try LexiconLoaders.loadAFINN(url: url)
                case let n where n.hasPrefix("emoji"): _ = try LexiconLoaders.loadEmoji(url: url)
                default: _ = try LexiconLoaders.loadVader(url: url)
                }
            }),
        FuzzTarget(
            name: "scenario", corpus: "scenario", fileName: { $0.lastPathComponent },
            parse: { url in
                _ = try ScenarioLoader(datasetNames: nil, registry: AppRegistry.bundled).load(url)
            }),
        FuzzTarget(
            name: "baseline", corpus: "baseline", fileName: { $0.lastPathComponent },
            parse: { url in _ = try MetricsCSV.read(url) }),
        FuzzTarget(
            name: "serve-requests", corpus: "serve", fileName: { $0.lastPathComponent },
            parse: { url in try ServedRequests.check(readFileBytes(url), file: url.path) }),
        FuzzTarget(
            name: "protocol-answers", corpus: "answers", fileName: { $0.lastPathComponent },
            parse: { url in try ProtocolAnswers.check(readFileBytes(url)) }),
        FuzzTarget(
            name: "sentiment-model", corpus: "", fileName: { _ in "model.ftsm" },
            parse: { url in _ = try SentimentModelFile.load(url) },
            generatedSeeds: { [SentimentModelCodec.encode(try FuzzSeeds.smallModel())] }),
    ]
}

/// The OSM XML reader in parts against the whole read, as a differential target: on every input, the
/// data read in 2, 3 or 5 parts (when the reader takes that path) must be the whole read's, and an
/// input the whole read refuses must not be read in parts. Throws the whole read's error.
enum OSMInParts {
    static func check(_ bytes: [UInt8], file: String) throws {
        let whole = Result<OSMData, any Error> {
            try bytes.withUnsafeBytes { try OSMXMLLoader.parseWhole(bytes: $0, file: file, policy: .strict) }
        }
        for parts in [2, 3, 5] {
            let read = bytes.withUnsafeBytes {
                OSMXMLLoader.parseInParts(bytes: $0, file: file, policy: .strict, parts: parts, minimumPartBytes: 1)
            }
            guard let read else { continue }
            switch whole {
            case .success(let data):
                if read.nodes != data.nodes || read.ways != data.ways || read.relations != data.relations
                    || read.nodes.map(\.line) != data.nodes.map(\.line) || read.report != data.report
                {
                    Issue.record("\(file): read in \(parts) parts differs from the whole read")
                }
            case .failure(let error):
                Issue.record("\(file): read in \(parts) parts, refused whole: \(error)")
            }
        }
        _ = try whole.get()
    }
}

/// PBF files whose blocks declare bomb-sized contents: the expansion budget's refusal is this target's
/// accepting path (a seed is refused by it); any other error is a rejection, and no input may run past
/// the bounds on its way to either.
enum PBFBudget {
    struct Rejected: Error {}

    static func check(_ url: URL) throws {
        do {
            _ = try DatasetLoaders.countRecords(format: .osmPBF, url: url, displayName: url.path)
        } catch {
            guard String(describing: error).contains("decompression bomb") else { throw Rejected() }
        }
    }
}

/// `serve`'s request handling: each line of the input is a request to each built-in core (sun; route
/// over a loaded campus; locate, trained; sentiment, a small model), and every answer must be one JSON
/// object. The server must answer, not trap, whatever numbers and text a request holds.
enum ServedRequests {
    static let repo = FuzzTests.root.deletingLastPathComponent().deletingLastPathComponent()

    struct Cores: @unchecked Sendable {
        var sun = ServedSun()
        var route: ServedRoute
        var locate = ServedLocate()
        var sentiment: ServedSentiment
    }

    static let cores: Cores? = {
        guard
            let map = try? MapFile.load(
                url: repo.appendingPathComponent("Datasets/maps/universidad_central_del_ecuador_campus.osm")),
            let graph = try? CampusGraph(source: map.source), let model = try? FuzzSeeds.smallModel()
        else { return nil }
        var cores = Cores(
            route: ServedRoute(router: BuiltinRouter(graph: graph)), sentiment: ServedSentiment(model: model))
        try? cores.locate.load(
            path: repo.appendingPathComponent("Tests/FieldtestDataTests/Fixtures/positioning/uji_small.csv").path,
            format: "ujiindoorloc-csv")
        return cores
    }()

    /// An input none of whose requests any core answered.
    struct Refused: Error {}

    static func check(_ bytes: [UInt8], file: String) throws {
        guard var cores = cores else {
            Issue.record("the served cores could not be set up")
            return
        }
        var answered = false
        for line in bytes.split(separator: 0x0A) {
            var answers: [[UInt8]] = [[], [], [], []]
            SystemServer.answer(line, core: &cores.sun, name: "f", version: "0", into: &answers[0])
            SystemServer.answer(line, core: &cores.route, name: "f", version: "0", into: &answers[1])
            SystemServer.answer(line, core: &cores.locate, name: "f", version: "0", into: &answers[2])
            SystemServer.answer(line, core: &cores.sentiment, name: "f", version: "0", into: &answers[3])
            for answer in answers {
                guard let fields = (try? JSONReader.parse(answer))?.objectFields else {
                    Issue.record("\(file): the answer \(String(decoding: answer, as: UTF8.self)) is not a JSON object")
                    continue
                }
                if !fields.contains(where: { $0.0 == "ok" && $0.1 == .bool(false) }) { answered = true }
            }
        }
        // The seeds are requests a core answers; a mutation that leaves none is a rejection.
        if !answered { throw Refused() }
    }
}

/// A system's answer lines, read and decoded as each capability's answer: a fault, never a trap.
enum ProtocolAnswers {
    /// An input none of whose lines decodes as any capability's answer.
    struct Undecodable: Error {}

    static func check(_ bytes: [UInt8]) throws {
        var decoded = false
        for line in bytes.split(separator: 0x0A) {
            guard let value = try? JSONReader.parse(line) else { continue }
            let rows: [JSONField] = if case .array(let rows)? = value["rows"] { rows } else { [value] }
            for row in rows {
                // Every field of a sun answer may be null, so it counts only with a time in it.
                let sun = (try? JSONFieldDecoder.decode(SunTimes.self, from: row)).flatMap { $0.sunrise ?? $0.sunset }
                let answers: [Any?] = [
                    sun, try? JSONFieldDecoder.decode(RouteAnswer.self, from: row),
                    try? JSONFieldDecoder.decode(LocateAnswer.self, from: row),
                    try? JSONFieldDecoder.decode(SentimentAnswer.self, from: row),
                ]
                if answers.contains(where: { $0 != nil }) { decoded = true }
            }
        }
        if !decoded { throw Undecodable() }
    }
}

/// Seeds that are built rather than stored.
enum FuzzSeeds {
    /// A three-class model small enough to mutate quickly (2^8 hashed features).
    static func smallModel() throws -> SentimentModel {
        var corpus = TrainingCorpus()
        corpus.add(
            [
                LabelledTweet(text: "what a lovely sunny morning", label: .positive, line: 1),
                LabelledTweet(text: "the bus leaves at eight", label: .neutral, line: 2),
                LabelledTweet(text: "awful delays again, so angry", label: .negative, line: 3),
            ], source: .labelledCSV)
        var c = TrainingConfiguration()
        c.hashBits = 8
        c.charBits = 0
        var rng = SeededGenerator(seed: 1)
        return try SentimentTrainer.checkedTrain(
            corpus: corpus, lexicon: SentimentLexicon(vader: [:], afinn: [:], afinnPhrases: [:]), configuration: c,
            using: &rng)
    }
}

/// Makes inputs from seeds: each is one to four edits of one seed, drawn from `rng`.
struct Mutator {
    var rng: SeededGenerator
    /// The longest run of one byte inserted as a "huge field".
    var hugeField: Int

    static let interesting: [UInt8] = Array("\"',;\t\n\r<>&{}[]:-.0 9e".utf8) + [0, 0x7F, 0x80, 0xC3, 0xED, 0xFF]

    mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &rng) }

    mutating func mutate(_ seed: [UInt8], other: [UInt8]) -> [UInt8] {
        var b = seed
        for _ in 0..<int(1..<5) {
            let at = b.isEmpty ? 0 : int(0..<b.count)
            switch int(0..<9) {
            case 0 where !b.isEmpty: b[at] ^= UInt8(1) << UInt8(int(0..<8))
            case 1 where !b.isEmpty: b[at] = Self.interesting[int(0..<Self.interesting.count)]
            case 2: b.removeSubrange(at...)
            case 3 where !b.isEmpty: b.removeSubrange(at..<min(b.count, at + int(1..<64)))
            case 4: b = duplicatingLine(b, at: at)
            case 5: b = Array(b[..<at]) + other[(other.isEmpty ? 0 : int(0..<other.count))...]
            case 6:
                let byte = Self.interesting[int(0..<Self.interesting.count)]
                b.insert(contentsOf: repeatElement(byte, count: int(1..<hugeField)), at: at)
            case 7: b.insert(contentsOf: (0..<int(1..<16)).map { _ in UInt8(int(0..<256)) }, at: at)
            default: b = swappingLines(b)
            }
        }
        // Duplicated lines of a huge field could make inputs of tens of megabytes: they test the
        // machine's speed, not the parser's bounds.
        return b.count > 4 * hugeField ? Array(b[..<(4 * hugeField)]) : b
    }

    func lines(_ b: [UInt8]) -> [ArraySlice<UInt8>] { b.split(separator: 0x0A, omittingEmptySubsequences: false) }

    mutating func duplicatingLine(_ b: [UInt8], at: Int) -> [UInt8] {
        var ls = lines(b)
        guard !ls.isEmpty else { return b }
        let i = int(0..<ls.count)
        ls.insert(contentsOf: repeatElement(ls[i], count: int(1..<50)), at: i)
        return Array(ls.joined(separator: [0x0A]))
    }

    mutating func swappingLines(_ b: [UInt8]) -> [UInt8] {
        var ls = lines(b)
        guard ls.count > 1 else { return b }
        ls.swapAt(int(0..<ls.count), int(0..<ls.count))
        return Array(ls.joined(separator: [0x0A]))
    }
}

/// Settings of a pass: `FUZZ_SECONDS` (per target; 0 = the short pass of `shortPassInputs`
/// inputs), `FUZZ_SEED`, and the bounds.
struct FuzzSettings {
    var seconds: Double
    var seed: UInt64
    var shortPassInputs = 60
    /// The longest one input may take, seconds (a debug build on a loaded 2-core machine).
    var timeBound: Double = 30
    /// The most resident memory the test process may reach, bytes.
    var memoryBound = 3 << 30
    var hugeField: Int

    static func fromEnvironment() -> FuzzSettings {
        let env = ProcessInfo.processInfo.environment
        let seconds = env["FUZZ_SECONDS"].flatMap(Double.init) ?? 0
        let seed = env["FUZZ_SEED"].flatMap(UInt64.init) ?? (seconds > 0 ? UInt64(Date().timeIntervalSince1970) : 1)
        return FuzzSettings(seconds: seconds, seed: seed, hugeField: seconds > 0 ? 1 << 20 : 1 << 16)
    }
}

/// Stops the process, naming the input, when one input runs past the time bound: a hang cannot be
/// interrupted from inside the parser, and a test that never ends tells nobody which input hung.
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var started: Date?
    private var label = ""
    private var input: [UInt8] = []
    private let timer: DispatchSourceTimer

    /// `keep` saves the input that ran too long and returns where.
    init(bound: Double, keep: @escaping @Sendable ([UInt8]) -> String) {
        timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [unowned self] in
            self.lock.lock()
            defer { self.lock.unlock() }
            if let started = self.started, Date().timeIntervalSince(started) > bound {
                let kept = keep(self.input)
                FileHandle.standardError.write(
                    Data("fuzz: \(self.label) ran past \(bound) s; input kept at \(kept); stopping\n".utf8))
                exit(3)
            }
        }
        timer.resume()
    }

    func begin(_ label: String, input: [UInt8]) {
        lock.lock()
        started = Date()
        self.label = label
        self.input = input
        lock.unlock()
    }

    func end() {
        lock.lock()
        started = nil
        lock.unlock()
    }

    deinit { timer.cancel() }
}

@Suite("Fuzzing the parsers (seeded mutations of Tests/Fuzz/corpus)", .serialized)
struct FuzzTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// Resident memory of this process, bytes (Linux `/proc/self/statm`; 0 elsewhere).
    static func residentBytes() -> Int {
        // Hand freed memory back first (glibc's malloc_trim, looked up as the module does not
        // export it), so what is measured is what is still held.
        if let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") {
            _ = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)(0)
        }
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    static func seeds(_ target: FuzzTarget) throws -> [(name: String, bytes: [UInt8])] {
        var out: [(String, [UInt8])] = try target.generatedSeeds().enumerated().map { ("generated-\($0)", $1) }
        guard !target.corpus.isEmpty else { return out }
        let folder = root.appendingPathComponent("corpus").appendingPathComponent(target.corpus)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            out.append((name, try readFileBytes(folder.appendingPathComponent(name))))
        }
        return out
    }

    @Test("every seed parses as it is: the corpus exercises the parsers' accepting paths", arguments: FuzzTarget.all)
    func seedsParse(_ target: FuzzTarget) throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        for seed in try Self.seeds(target) {
            let url = dir.appendingPathComponent(seed.name)
            let file = dir.appendingPathComponent(target.fileName(url))
            try Data(seed.bytes).write(to: file)
            try target.parse(file)
        }
    }

    @Test(
        "mutated inputs end in a result or a thrown error, within the time and memory bounds",
        arguments: FuzzTarget.all)
    func mutations(_ target: FuzzTarget) throws {
        let settings = FuzzSettings.fromEnvironment()
        let seeds = try Self.seeds(target)
        try #require(!seeds.isEmpty, "no seeds for \(target.name)")
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let watchdog = Watchdog(bound: settings.timeBound) { input in
            (try? Self.keep(input, target: target, n: -1).path) ?? "(could not be written)"
        }
        var mutator = Mutator(
            rng: SeededGenerator(seed: settings.seed &+ target.name.utf8.reduce(UInt64(0)) { $0 &* 31 &+ UInt64($1) }),
            hugeField: settings.hugeField)
        let deadline = Date().addingTimeInterval(settings.seconds)
        var n = 0
        var rejected = 0
        while settings.seconds > 0 ? Date() < deadline : n < settings.shortPassInputs {
            let seed = seeds[mutator.int(0..<seeds.count)]
            let input = mutator.mutate(seed.bytes, other: seeds[mutator.int(0..<seeds.count)].bytes)
            let file = dir.appendingPathComponent(target.fileName(dir.appendingPathComponent(seed.name)))
            try Data(input).write(to: file)
            watchdog.begin("\(target.name) input \(n) (seed \(settings.seed), from \(seed.name))", input: input)
            do { try target.parse(file) } catch { rejected += 1 }
            watchdog.end()
            let resident = Self.residentBytes()
            if resident > settings.memoryBound {
                let kept = try Self.keep(input, target: target, n: n)
                Issue.record(
                    "\(target.name) input \(n) left \(resident >> 20) MiB resident; input kept at \(kept.path)")
                return
            }
            n += 1
        }
        // Mutations that all fail (or all pass) would mean the mutator or the seeds are broken.
        #expect(n > 0 && rejected > 0, "\(target.name): \(rejected) of \(n) inputs rejected")
    }

    static func scratch() throws -> URL {
        let dir = TemporaryFiles.url("fuzz")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func keep(_ input: [UInt8], target: FuzzTarget, n: Int) throws -> URL {
        let findings = root.appendingPathComponent("findings")
        try FileManager.default.createDirectory(at: findings, withIntermediateDirectories: true)
        let url = findings.appendingPathComponent(n < 0 ? "\(target.name)-slow" : "\(target.name)-\(n)")
        try Data(input).write(to: url)
        return url
    }
}
