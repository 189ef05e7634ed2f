import ScenarioEngine
import Testing

@testable import Capabilities

/// `fieldtest run`'s `--shard` and `--system` texts read into a `RunRequest` (`RunRequest.parse`).
@Suite("Run request options")
struct RunRequestOptionsTests {
    func request() -> RunRequest { RunRequest(files: ["a.yaml"], toolVersion: "t") }

    @Test func theShardAndTheSystemsAreRead() throws {
        var r = request()
        try r.parse(shard: "1/4", systems: ["sentiment=builtin", "sun=python3 sun.py"])
        #expect(r.shard?.index == 1 && r.shard?.count == 4)
        #expect(r.systems["sentiment"] == .some(nil))
        #expect(r.systems["sun"]??.command == ["python3", "sun.py"])
    }

    @Test func aMalformedShardOrCombinationSaysWhatToFix() {
        var r = request()
        #expect(throws: RunError.usage("--shard must be I/N with 0 ≤ I < N, e.g. 0/4")) {
            try r.parse(shard: "4/4", systems: [])
        }
        r.recordBaseline = "base"
        #expect(throws: RunError.self) { try r.parse(shard: "0/2", systems: []) }
        var s = request()
        #expect(throws: SystemError.self) { try s.parse(shard: nil, systems: ["nosuch=builtin"]) }
    }
}

/// `compare --system NAME=COMMAND` entries (`SystemComparison.Entry(name:capability:command:)`).
@Suite("Comparison entries")
struct ComparisonEntryTests {
    @Test func builtinIsTheCoreAndACommandIsSplitAtSpaces() throws {
        let core = try SystemComparison.Entry(name: "a", capability: "sentiment", command: "builtin")
        #expect(core.setting == nil && core.name == "a" && core.capability == "sentiment")
        let external = try SystemComparison.Entry(name: "b", capability: "sun", command: "python3 'my sun.py'")
        #expect(external.setting?.command == ["python3", "my sun.py"])
        #expect(throws: SystemError.self) { try SystemComparison.Entry(name: "c", capability: "sun", command: " ") }
    }
}
