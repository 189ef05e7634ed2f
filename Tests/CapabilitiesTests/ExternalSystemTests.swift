import FieldtestTestSupport
import Foundation
import Testing

@testable import Capabilities

/// The harness's side of the protocol against small Python systems written for the tests
/// (`Fixtures/toy_sentiment.py`), well-behaved and misbehaving.
@Suite("External systems")
struct ExternalSystemTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/toy_sentiment.py").path

    static func start(_ mode: [String] = [], timeout: Double = 2, restarts: Int = 3, setup: Double = 30) throws
        -> ExternalSystem
    {
        var spec = ExternalSystemSpec(
            command: ["python3", fixture] + mode, timeoutSeconds: timeout, restartLimit: restarts)
        spec.setupSeconds = setup
        return try ExternalSystem(capability: .sentiment, spec: spec, seed: 7, stderrPath: stderrPath())
    }

    static func stderrPath() -> String {
        TemporaryFiles.url("sut.stderr").path
    }

    /// Whether a process with `pid` still exists (a zombie counts as gone: it holds nothing).
    static func alive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return !stat.contains(") Z ")
    }

    /// Whether `pid` is gone within a second: a signal is delivered asynchronously.
    static func gone(_ pid: Int32) -> Bool {
        for _ in 0..<50 where alive(pid) { usleep(20_000) }
        return !alive(pid)
    }

    let texts = ["great flight thanks", "delayed again, worst airline", "on the plane"]

    @Test func wellBehavedSystemAnswersSinglesAndBatches() throws {
        let system = try Self.start()
        defer { system.close() }
        #expect(system.identity.name == "toy-sentiment")
        #expect(system.identity.version == "1.0")
        #expect(system.identity.hashedFile == URL(fileURLWithPath: Self.fixture).standardizedFileURL.path)
        #expect(system.identity.sha256?.count == 64)
        let sentiment = ExternalSentimentSystem(system)
        let batch = sentiment.classify(texts)
        #expect(batch.map { $0?.label } == [.positive, .negative, .neutral])
        let single = sentiment.classify([texts[1]])
        #expect(single.first??.label == .negative)
        #expect(system.faults.total == 0)
        #expect(system.faults.requests == 2)
    }

    @Test(
        "Each misbehaviour is counted as its fault kind, and the call returns",
        arguments: [
            (["out-of-order"], SystemFaultKind.outOfOrder),
            (["malformed"], .malformed),
            (["wrong-type"], .wrongType),
            (["refuse"], .refused),
            (["hang-after", "0"], .timeout),
            (["crash-after", "0"], .crash),
        ])
    func faultsAreCounted(mode: [String], kind: SystemFaultKind) throws {
        let system = try Self.start(mode, timeout: 0.5, restarts: 1)
        defer { system.close() }
        let sentiment = ExternalSentimentSystem(system)
        let started = Date()
        let batch = sentiment.classify(texts)
        let single = sentiment.classify([texts[0]])
        #expect(batch.allSatisfy { $0 == nil })
        #expect(single == [nil])
        #expect(system.faults[kind] == 4, "the batch's three queries and the single one")
        // Two answers waited for at most 0.5 s each, plus a restart (a Python start-up): never forever.
        #expect(Date().timeIntervalSince(started) < 8)
    }

    @Test func aSpinLongerThanTheTimeoutStillEndsAtTheDeadline() throws {
        let system = try Self.start(["hang-after", "1"], timeout: 0.3, restarts: 0)
        defer { system.close() }
        system.spinMicroseconds = 5_000_000
        let sentiment = ExternalSentimentSystem(system)
        #expect(sentiment.classify([texts[0]]).first??.label == .positive)
        let started = Date()
        #expect(sentiment.classify([texts[0]]) == [nil])
        #expect(system.faults[.timeout] == 1)
        #expect(Date().timeIntervalSince(started) < 2, "the deadline, not the 5 s spin, ends the wait")
    }

    @Test func aCrashedSystemIsRestartedUpToItsLimit() throws {
        // Answers one query per process, then crashes.
        let system = try Self.start(["crash-after", "1"], restarts: 2)
        defer { system.close() }
        let sentiment = ExternalSentimentSystem(system)
        var answered = 0
        for text in texts + texts {
            if sentiment.classify([text])[0] != nil { answered += 1 }
        }
        // Process 1 answers, crashes; restart 1 answers, crashes; restart 2 answers, crashes; then unavailable.
        #expect(answered == 3)
        #expect(system.faults.restarts == 2)
        #expect(system.faults[.crash] == 3)
        #expect(system.faults[.unavailable] == 0)
    }

    @Test func aFailedHandshakeIsAnErrorThatSaysWhy() throws {
        #expect {
            try Self.start(["bad-hello"])
        } throws: { error in
            guard case .handshake(_, let reason, _) = error as? SystemError else { return false }
            return reason.contains("'name'")
        }
        let started = Date()
        #expect {
            try Self.start(["silent-hello"], timeout: 0.3, setup: 0.3)
        } throws: { error in
            guard case .handshake(_, let reason, _) = error as? SystemError else { return false }
            return reason.contains("no answer to 'hello' within 0.3 s")
        }
        #expect(Date().timeIntervalSince(started) < 3)
    }

    @Test func aCommandThatCannotStartIsAnError() throws {
        #expect {
            _ = try ExternalSystem(
                capability: .sentiment, spec: ExternalSystemSpec(command: ["/nonexistent/system"]), seed: 1,
                stderrPath: Self.stderrPath())
        } throws: { error in
            if case .launch = error as? SystemError { return true }
            return false
        }
    }

    @Test func aStalledSystemAndItsChildrenAreKilled() throws {
        let system = try Self.start(["grandchild"], timeout: 0.5, restarts: 0)
        let sentiment = ExternalSentimentSystem(system)
        #expect(sentiment.classify([texts[0]]) == [nil])
        #expect(system.faults[.timeout] == 1)
        system.close()
        let line = system.standardError.split(separator: "\n").first { $0.hasPrefix("grandchild ") }
        let pid = try #require(line.flatMap { Int32($0.dropFirst("grandchild ".count)) })
        #expect(Self.gone(pid), "the system's child \(pid) outlived the run")
    }

    @Test func closingEndsTheProcess() throws {
        let system = try Self.start()
        let sentiment = ExternalSentimentSystem(system)
        _ = sentiment.classify([texts[0]])
        let pid = try #require(system.processIdentifier)
        #expect(Self.alive(pid))
        system.close()
        #expect(Self.gone(pid))
    }

    @Test(arguments: [
        ("sentiment=python3 my.py", "sentiment", ["python3", "my.py"]),
        ("route='/opt/my router' --fast", "route", ["/opt/my router", "--fast"]),
        ("sun=builtin", "sun", [String]()),
    ])
    func systemOptionsParse(text: String, capability: String, command: [String]) throws {
        let settings = try SystemSettings.parse([text])
        #expect(settings.keys.first == capability)
        #expect((settings[capability] ?? nil)?.command ?? [] == command)
    }

    @Test func anUnknownCapabilityIsRejectedWithTheNames() {
        #expect(throws: SystemError.usage("unknown capability 'mood'; use one of sun, route, locate, sentiment")) {
            try SystemSettings.parse(["mood=python3 x.py"])
        }
    }
}
