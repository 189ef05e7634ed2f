import FieldtestData
import Foundation
import Testing

@testable import Capabilities

/// `evaluate --system` accounts a misbehaving system's faults as `run` does: `system_errors` rows
/// by kind, the faulted rows unanswered, its standard error kept beside the output.
@Suite("System evaluation with a faulty system")
struct SystemEvaluationFaultTests {
    static let toy = SystemEvaluationTests.repo.appendingPathComponent(
        "Tests/CapabilitiesTests/Fixtures/toy_sentiment.py"
    ).path

    static func tweets() throws -> URL {
        let input = try SystemEvaluationTests.folder().appendingPathComponent("tweets.csv")
        try "text,label\nI love this great day,positive\nworst delayed flight,negative\nat noon,neutral\n"
            .write(to: input, atomically: true, encoding: .utf8)
        return input
    }

    @Test(
        "Item 2: each fault kind is a system_errors_<kind> row",
        arguments: [(["crash-after", "0"], "crash"), (["wrong-type"], "wrong_type"), (["malformed"], "malformed")])
    func evaluateCountsSystemFaultsAsRunDoes(mode: [String], kind: String) throws {
        let input = try Self.tweets()
        let output = input.deletingLastPathComponent().appendingPathComponent("fig.csv").path
        var r = SystemEvaluation.Request(
            capability: .sentiment, inputs: [input.path], datasets: SystemEvaluationTests.datasets, output: output)
        r.system = "python3 '\(Self.toy)' " + mode.joined(separator: " ")
        r.timeoutSeconds = 2
        let report = try SystemEvaluation.run(r)
        #expect(report.systemFaulted)
        #expect(report.value("system_errors") == 3)
        #expect(report.value("system_errors_" + kind) == 3)
        #expect(report.value("no_answer") == 3)
        let csv = try String(contentsOfFile: output, encoding: .utf8)
        #expect(csv.contains(",system_errors_\(kind),all,3,count,3\n"))
        // The log is kept beside the output, not left in the temporary folder.
        #expect(report.stderr == output + ".stderr")
        #expect(FileManager.default.fileExists(atPath: output + ".stderr"))
        let temporary = try #require(r.session.stderrPath)
        #expect(!FileManager.default.fileExists(atPath: temporary))
        #expect(report.faultMessage?.contains("kept in \(output).stderr") == true)
    }

    @Test func n18ACleanRunLeavesNoStandardErrorFileBehind() throws {
        let input = try Self.tweets()
        var r = SystemEvaluation.Request(
            capability: .sentiment, inputs: [input.path], datasets: SystemEvaluationTests.datasets, output: nil)
        r.system = "python3 '\(Self.toy)'"
        let report = try SystemEvaluation.evaluate(r)
        #expect(!report.systemFaulted)
        #expect(report.value("system_errors") == 0)
        #expect(report.stderr == nil)
        let temporary = try #require(r.session.stderrPath)
        #expect(!FileManager.default.fileExists(atPath: temporary))
    }

    @Test func n18StderrOptionKeepsTheLogThere() throws {
        let input = try Self.tweets()
        let log = input.deletingLastPathComponent().appendingPathComponent("system.log").path
        var r = SystemEvaluation.Request(
            capability: .sentiment, inputs: [input.path], datasets: SystemEvaluationTests.datasets, output: nil)
        r.system = "python3 '\(Self.toy)' grandchild"
        r.timeoutSeconds = 1
        r.stderr = log
        let report = try SystemEvaluation.evaluate(r)
        #expect(report.value("system_errors_timeout") == 3)
        #expect(report.stderr == log)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("grandchild "))
    }

    @Test(arguments: [0.0, -1, 86_401, 1e300])
    func n3EvaluateTimeoutsOutOfRangeAreUsageErrors(seconds: Double) throws {
        var r = SystemEvaluation.Request(
            capability: .sentiment, inputs: ["x.csv"], datasets: SystemEvaluationTests.datasets, output: nil)
        r.system = "python3 x.py"
        r.timeoutSeconds = seconds
        #expect(throws: SystemEvaluation.UsageError.self) { try SystemEvaluation.validate(r) }
    }
}
