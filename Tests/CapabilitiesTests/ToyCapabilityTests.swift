import FieldtestTestSupport
import Foundation
import ScenarioEngine
import Testing

@testable import Capabilities

/// Adding a capability is one folder and one registry line: a toy capability (`echo`, scored by
/// counting its input's lines), registered only here, is found, chosen, evaluated and offered to
/// scenarios as the bundled ones are, while the bundled registry does not know it.
@Suite("Toy capability: one definition, one registry line")
struct ToyCapabilityTests {
    static let echo = SystemCapability(name: "echo", operation: "echo")
    static let definition = CapabilityDefinition(
        capability: echo,
        evaluation: .init(
            abstract: "Score an echo system.", inputs: "--input: lines of text.",
            run: { r, _ in
                let lines = try String(contentsOfFile: r.inputs[0], encoding: .utf8).split(separator: "\n")
                return (
                    "builtin", [SystemEvaluation.Figure("lines", Double(lines.count), unit: "count", rows: lines.count)]
                )
            }),
        serveBuiltin: { _, _, _, _ in })
    static let registry = CapabilityRegistry(CapabilityRegistry.bundled.capabilities + [definition])

    @Test("the registry finds it, and --system options may name it")
    func registered() throws {
        #expect(Self.registry.names == ["sun", "route", "locate", "sentiment", "echo"])
        #expect(try Self.registry.named("echo").operation == "echo")
        #expect(throws: SystemError.self) { try CapabilityRegistry.bundled.named("echo") }
        let (capability, choice) = try SystemChoice.parseOption("echo=builtin", registry: Self.registry)
        #expect(capability == Self.echo && choice == .builtin)
        let settings = try SystemSettings.parse(["echo=python3 echo.py"], registry: Self.registry)
        guard case .some(.some(let setting)) = settings["echo"] else {
            Issue.record("echo=python3 echo.py gave no setting")
            return
        }
        #expect(setting.command == ["python3", "echo.py"])
        #expect(throws: SystemError.self) { try SystemChoice.parseOption("echo=builtin") }
    }

    @Test("evaluate runs its evaluator and reports under its name")
    func evaluated() throws {
        let input = TemporaryFiles.url("echo.txt")
        try "a\nb\nc\n".write(to: input, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: input) }
        let request = SystemEvaluation.Request(
            capability: Self.definition, inputs: [input.path], datasets: input.deletingLastPathComponent(),
            output: nil)
        let report = try SystemEvaluation.evaluate(request)
        #expect(report.capability == Self.echo)
        #expect(report.csv.contains("echo,builtin,lines,all,3,count,3"))
        var two = request
        two.inputs.append(input.path)
        #expect(throws: SystemEvaluation.UsageError.self) { try SystemEvaluation.evaluate(two) }
    }

    @Test("scenarios of an app registry built with it may hand it to a system")
    func offeredToScenarios() {
        #expect(AppRegistry([], capabilities: Self.registry.names).capabilities.contains("echo"))
        #expect(!AppRegistry([]).capabilities.contains("echo"))
    }
}
