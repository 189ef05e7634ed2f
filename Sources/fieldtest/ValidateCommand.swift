import ArgumentParser
import FieldtestApps
import FieldtestData
import Foundation
import ScenarioEngine

/// `fieldtest validate`: check scenario files without running them.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract:
            "Check scenario files (schema, datasets, requirement IDs) without running them; every file is checked and its problems reported; exit 2 if any file is invalid. Each is checked against its data too: files named by path load, venues and places exist, the time window is recorded."
    )

    @Argument(help: "Scenario files.")
    var files: [String]

    @Option(
        name: .long,
        help: "A datasets folder of your own, on top of the bundled one (repeatable; also $FIELDTEST_DATASETS=A:B)."
    )
    var datasets: [String] = []

    func run() throws {
        let validation = ScenarioValidation(
            manifest: try DatasetsLocation.manifest(options: datasets), registry: .bundled)
        var bad = 0
        for file in files {
            let (scenario, diagnostics) = validation.validate(file: file)
            if !diagnostics.isEmpty {
                CommandSupport.printError(diagnostics.map(\.description).joined(separator: "\n"))
            }
            guard let s = scenario else {
                bad += 1
                continue
            }
            let cases = ScenarioRunner.caseCount(of: s)
            print(
                "ok    \(file) (\(s.app), \(s.requirements.count) requirements, \(cases) case\(cases == 1 ? "" : "s"))")
        }
        if bad > 0 { throw CommandSupport.invalidInput }
    }
}
