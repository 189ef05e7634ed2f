import FieldtestTestSupport
import Foundation
import ScenarioEngine
import Testing

@testable import Capabilities

/// Systems under test that misbehave on purpose (tiny Python scripts written by each test): the
/// harness stays bounded in memory and time, counts each misbehaviour as a fault and never hangs.
@Suite("Hostile systems under test")
struct HostileSystemTests {
    /// The handshake answer, then `body` for every later request line (`request` is the parsed JSON).
    static func script(_ body: String, hello: String = #"{"ok": True, "name": "hostile", "version": "1"}"#) throws
        -> String
    {
        let folder = TemporaryFiles.url("hostile")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("system.py")
        let text = """
            import json, sys, time
            sys.stdin.readline()
            sys.stdout.write(json.dumps(\(hello)) + "\\n"); sys.stdout.flush()
            for line in sys.stdin:
                request = json.loads(line)
            \(body.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
                sys.stdout.flush()
            """
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    static func start(_ script: String, timeout: Double = 5, restarts: Int = 1, maxLineBytes: Int? = nil) throws
        -> ExternalSystem
    {
        var spec = ExternalSystemSpec(command: ["python3", script], timeoutSeconds: timeout, restartLimit: restarts)
        spec.setupSeconds = 10
        if let maxLineBytes { spec.maxLineBytes = maxLineBytes }
        return try ExternalSystem(
            capability: .sentiment, spec: spec, seed: 1, stderrPath: ExternalSystemTests.stderrPath())
    }

    static let good = #"sys.stdout.write(json.dumps({"id": request["id"], "label": "positive", "score": 0.5}) + "\n")"#

    @Test func n1AnswerThatNeverEndsItsLineIsMalformedNotUnboundedMemory() throws {
        let path = try Self.script("while True: sys.stdout.write('x' * 1048576)")
        let system = try Self.start(path, maxLineBytes: 1 << 20)
        defer { system.close() }
        let answers = ExternalSentimentSystem(system).classify(["good day"])
        #expect(answers == [nil])
        #expect(system.faults[.malformed] == 1)
        #expect(system.faults[.timeout] == 0, "the limit, not the deadline, ended the read")
    }

    @Test func n1AnAnswerLineOverTheLimitIsMalformedAndTheSystemIsRestarted() throws {
        let path = try Self.script(
            """
            if request["text"] == "long": sys.stdout.write("x" * 300000 + "\\n")
            else: \(Self.good)
            """)
        let system = try Self.start(path, maxLineBytes: 100_000)
        defer { system.close() }
        let sentiment = ExternalSentimentSystem(system)
        #expect(sentiment.classify(["long"]) == [nil])
        #expect(system.faults[.malformed] == 1)
        #expect(sentiment.classify(["fine"]).first??.label == .positive)
        #expect(system.faults.restarts == 1)
    }

    @Test func n2ASystemThatStopsReadingTimesOutInsteadOfBlockingTheWrite() throws {
        // It shakes hands, then never reads again; 600 texts of 3 KB make a request (1.8 MB)
        // larger than a pipe holds.
        let hello = #"{"ok":true,"name":"deaf","version":"1"}"#
        let deaf = try ExternalSystem(
            capability: .sentiment,
            spec: ExternalSystemSpec(
                command: [
                    "python3", "-c",
                    "import sys, time; sys.stdin.readline(); print('\(hello)', flush=True); time.sleep(3600)",
                ],
                timeoutSeconds: 1, restartLimit: 0),
            seed: 1, stderrPath: ExternalSystemTests.stderrPath())
        defer { deaf.close() }
        let texts = (0..<600).map { String(repeating: "good ", count: 600) + String($0) }
        let started = Date()
        let answers = ExternalSentimentSystem(deaf).classify(texts)
        #expect(answers.allSatisfy { $0 == nil })
        #expect(deaf.faults[.timeout] == 600)
        // A bounded wait to detect a hang, far above the 1 s deadline.
        #expect(Date().timeIntervalSince(started) < 20)
    }

    @Test func n3AHugeTimeoutDoesNotTrap() throws {
        let path = try Self.script(Self.good)
        let system = try Self.start(path, timeout: 1e300)
        defer { system.close() }
        #expect(ExternalSentimentSystem(system).classify(["good"]).first??.label == .positive)
    }

    @Test(arguments: [0.0, -1, 86_401, 1e12, .infinity, .nan])
    func n3TimeoutsOutOfRangeAreRefusedAtParsing(seconds: Double) {
        #expect(throws: SystemError.self) { try SystemChoice.parse(command: "python3 x.py", timeoutSeconds: seconds) }
    }

    @Test func n18StandardErrorIsCappedToItsFirstAndLastMebibyte() throws {
        let path = try Self.script(
            """
            sys.stderr.write("START" + "a" * (3 << 20) + "b" * (3 << 20) + "END"); sys.stderr.flush()
            \(Self.good)
            """)
        let system = try Self.start(path)
        #expect(ExternalSentimentSystem(system).classify(["good"]).first??.label == .positive)
        system.close()
        let size = try #require(
            try FileManager.default.attributesOfItem(atPath: system.stderrPath)[.size] as? Int)
        #expect(size <= (2 << 20) + 200)
        let text = try String(contentsOfFile: system.stderrPath, encoding: .utf8)
        #expect(text.hasPrefix("START"))
        #expect(text.hasSuffix("END"))
        #expect(text.contains("bytes of standard error dropped here"))
    }

    @Test func n19TheSystemIsInItsOwnProcessGroupAndKilledWithIt() throws {
        let path = try Self.script(
            """
            import signal, os
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            sys.stderr.write("pgid %d pid %d\\n" % (os.getpgid(0), os.getpid())); sys.stderr.flush()
            \(Self.good)
            """)
        let system = try Self.start(path)
        #expect(ExternalSentimentSystem(system).classify(["good"]).first??.label == .positive)
        let pid = try #require(system.processIdentifier)
        #expect(getpgid(pid) == pid)
        system.close()
        #expect(ExternalSystemTests.gone(pid), "a system that ignores SIGTERM is killed")
    }

    @Test func n30AHandshakeNameWithControlCharactersIsAHandshakeFault() throws {
        for name in [#""evil\u001b[31m""#, #""x\u202ey""#, #""nul\u0000""#] {
            let path = try Self.script(Self.good, hello: #"{"ok": True, "name": \#(name), "version": "1"}"#)
            #expect {
                try Self.start(path)
            } throws: { error in
                guard case .handshake(_, let reason, _) = error as? SystemError else { return false }
                return reason.contains("control character")
            }
        }
    }

    @Test func n30CompareNamesMustBePrintableUniqueAndPresent() throws {
        func refused(_ options: [String], _ fragment: String) {
            #expect {
                try SystemComparison.Entry.parse(options: options, capability: "sentiment")
            } throws: { error in
                guard case .usage(let message) = error as? SystemError else { return false }
                return message.contains(fragment)
            }
        }
        refused(["\u{1b}[31mred=builtin"], "control character U+001B")
        refused(["a\u{202e}b=builtin"], "U+202E")
        refused(["a=builtin", "a=python3 x.py"], "given twice")
        refused(["=builtin"], "NAME is empty")
        refused([], "--candidate NAME=COMMAND")
        #expect(try SystemComparison.Entry.parse(options: ["a=builtin", "b=builtin"], capability: "sun").count == 2)
    }

    @Test func n33AnAnswerWithARepeatedKeyIsMalformed() throws {
        let path = try Self.script(
            #"sys.stdout.write('{"id": "%s", "label": "positive", "score": 0.5, "label": 7}\n' % request["id"])"#)
        let system = try Self.start(path)
        defer { system.close() }
        #expect(ExternalSentimentSystem(system).classify(["good"]) == [nil])
        #expect(system.faults[.malformed] == 1)
    }

    @Test func n33TheReaderRefusesRepeatedKeysInSmallAndLargeObjects() throws {
        #expect(throws: JSONReadError.self) { try JSONReader.parse(Array(#"{"a":1,"a":2}"#.utf8)) }
        let many = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(throws: JSONReadError.self) { try JSONReader.parse(Array("{\(many),\"k3\":0}".utf8)) }
        #expect(try JSONReader.parse(Array("{\(many)}".utf8)).objectFields?.count == 40)
        #expect(try JSONReader.parse(Array(#"{"a":{"a":1},"b":[{"a":1},{"a":2}]}"#.utf8)).objectFields?.count == 2)
    }
}
