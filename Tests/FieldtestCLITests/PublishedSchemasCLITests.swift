import FieldtestTestSupport
import Foundation
import Testing

/// The published contracts in `docs/schemas/` hold for what the tool writes: every `run.json` of a
/// bundled-scenario run, and the built-in `sun` core's answers served over the protocol.
@Suite("Published schemas")
struct PublishedSchemasCLITests {
    let cli = FieldtestCLITests()
    static let schemas = FieldtestCLITests.repo.appendingPathComponent("docs/schemas")

    func schema(_ name: String) throws -> JSONSchemaSubset {
        try JSONSchemaSubset(file: Self.schemas.appendingPathComponent(name))
    }

    func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    /// Runs the tool with the file `input` as its standard input.
    func serve(_ arguments: [String], input: URL) throws -> FieldtestCLITests.Result {
        try cli.run(arguments, input: try String(contentsOf: input, encoding: .utf8))
    }

    @Test func theValidatorTellsTypesAndCountsOneOfMatches() throws {
        let v = JSONSchemaSubset([
            "type": "object", "required": ["n"], "additionalProperties": false,
            "properties": ["n": ["type": "integer", "minimum": 1], "b": ["type": "boolean"]],
        ])
        #expect(try v.errors(json(#"{"n": 2, "b": true}"#)).isEmpty)
        #expect(try v.errors(json(#"{"n": "2"}"#)) == ["$.n: '2' is not of type integer"])
        #expect(try v.errors(json(#"{"n": true}"#)).count == 1)
        #expect(try v.errors(json(#"{"n": 1, "b": 1}"#)) == ["$.b: 1 is not of type boolean"])
        #expect(try v.errors(json(#"{"n": 0, "x": 1}"#)).count == 2)
        let ambiguous = JSONSchemaSubset(["oneOf": [["required": ["id"]], ["required": ["id", "rows"]]]])
        #expect(try ambiguous.errors(json(#"{"id": "a", "rows": []}"#)).count == 1)
        #expect(throws: JSONSchemaSubset.SchemaProblem.self) {
            try JSONSchemaSubset(["uniqueItems": true]).errors(json("[]"))
        }
    }

    /// The answers of `fieldtest serve sun` to a single request and to a batch, line by line.
    @Test func theBuiltInSunCoreAnswersValidateSingleAndBatch() throws {
        let requests = [
            #"{"op":"hello","protocol":1,"capability":"sun","seed":1}"#,
            #"{"op":"sun","id":"1","latitude":40.81,"longitude":-96.7,"date":"2023-01-24","timezone":"America/Chicago"}"#,
            #"{"op":"sun","id":"b","rows":[{"id":"2","latitude":40.81,"longitude":-96.7,"date":"2023-06-21","timezone":"America/Chicago"},"#
                + #"{"id":"3","latitude":78.2,"longitude":15.6,"date":"2023-06-21","timezone":"Arctic/Longyearbyen"}]}"#,
        ]
        let input = try cli.temporaryFolder().appendingPathComponent("requests.jsonl")
        try (requests.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let r = try serve(["serve", "sun"], input: input)
        #expect(r.status == 0, "\(r.stderr)")
        let answers = r.stdout.split(separator: "\n").map(String.init)
        try #require(answers.count == 3, "\(r.stdout)")
        let hello = try schema("hello-answer.json")
        #expect(try hello.errors(json(answers[0])) == [])
        let sun = try schema("sun-answer.json")
        for answer in answers.dropFirst() {
            #expect(try sun.errors(json(answer)) == [], "\(answer)")
        }
        #expect(answers[2].contains(#""rows""#))
    }

    /// A short bundled scenario, run by the tool, writes a `run.json` that the published schema accepts.
    @Test func aBundledRunJSONValidates() throws {
        try expectRunJSONValidates(["Scenarios/skyscape-miami.yaml"])
    }

    /// Every bundled scenario, run by the tool, writes a `run.json` that the published schema accepts
    /// (minutes in a debug build: heavy tier).
    @Test(.heavy) func everyBundledRunJSONValidates() throws {
        let folder = FieldtestCLITests.repo.appendingPathComponent("Scenarios")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }
            .sorted().map { "Scenarios/" + $0 }
        try expectRunJSONValidates(files)
    }

    func expectRunJSONValidates(_ files: [String]) throws {
        let out = try cli.temporaryFolder()
        try #require(!files.isEmpty)
        let r = try cli.run(["run"] + files + ["--out", out.path, "--jobs", "2", "--quiet"])
        // A debug build may miss a latency threshold (exit 1); anything else is a failure here.
        #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
        let v = try schema("run.json")
        var seen = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: out.path) where !name.hasPrefix(".") {
            let file = out.appendingPathComponent(name).appendingPathComponent("run.json")
            let record = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
            #expect(try v.errors(record) == [], "\(name)/run.json")
            let object = try #require(record as? [String: Any])
            #expect(object["format_version"] as? Int == 2)
            seen += 1
        }
        #expect(seen == files.count)
    }
}
