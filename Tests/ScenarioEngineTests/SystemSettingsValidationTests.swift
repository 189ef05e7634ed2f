import FieldtestData
import Foundation
import Testing

@testable import ScenarioEngine

/// `systems:` settings and `sweep` values of `systems.<capability>` that could never work are
/// refused when the scenario is loaded, at their line and column.
@Suite("System settings validation")
struct SystemSettingsValidationTests {
    let loader: ScenarioLoader = {
        let manifest = try? DatasetManifest(root: ScenarioValidationTests.repo.appendingPathComponent("Datasets"))
        return ScenarioLoader(manifest: manifest!)
    }()

    /// The NavUP scenario with `systems:` text before its requirements.
    func scenario(_ systems: String) -> String {
        navUPScenario.replacingOccurrences(of: "requirements:\n", with: systems + "requirements:\n")
    }

    @Test(arguments: ["0s", "0", "-5", "1e12", "1e300", "10000000d", "2d"])
    func n3TimeoutsOutOfRangeAreRefusedWhereTheyAre(timeout: String) {
        let errors = loader.messages(scenario("systems:\n  route: {command: [python3, r.py], timeout: \(timeout)}\n"))
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("x.yaml:20:") == true, "\(errors)")
        #expect(errors.first?.contains("systems.route.timeout") == true, "\(errors)")
    }

    @Test func n3TimeoutsInRangeAreAccepted() throws {
        for timeout in ["1ms", "10s", "1d", "0.5"] {
            let s = try loader.parse(
                scenario("systems:\n  route: {command: [python3, r.py], timeout: \(timeout)}\n"), file: "x.yaml")
            #expect((s.systems["route"]?.timeoutSeconds ?? 0) > 0)
        }
    }

    @Test func n27AnEmptyProgramIsRefused() {
        let errors = loader.messages(scenario("systems:\n  route: {command: [\"\"]}\n"))
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("x.yaml:20:") == true, "\(errors)")
        #expect(errors.first?.contains("command[0]' is empty") == true, "\(errors)")
    }

    @Test(arguments: [("\"\"", "the command is empty"), ("\"python3 'r.py\"", "is not closed")])
    func n27SweepCommandsThatCannotStartAreRefusedAtTheirLine(value: String, fragment: String) {
        let errors = loader.messages(
            scenario("sweep:\n  parameters:\n    systems.route: [builtin, \(value)]\n"))
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("x.yaml:21:") == true, "\(errors)")
        #expect(errors.first?.contains(fragment) == true, "\(errors)")
    }

    @Test func n27CommandLinesSplitWithQuotes() throws {
        #expect(try SystemSetting.words(of: "python3 'my system.py' -v") == ["python3", "my system.py", "-v"])
        #expect(throws: CommandLineError.self) { try SystemSetting.words(of: "python3 \"x") }
        #expect(throws: CommandLineError.self) { try SystemSetting.words(of: "  ") }
        #expect(throws: CommandLineError.self) { try SystemSetting.words(of: "'' x") }
    }
}
