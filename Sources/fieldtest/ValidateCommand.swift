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
            "Check scenario files (schema, datasets, requirement IDs) without running them; every file is checked and its problems reported; exit 2 if any file is invalid."
    )

    @Argument(help: "Scenario files.")
    var files: [String]

    @Option(
        name: .long,
        help:
            "Datasets folder (default: $FIELDTEST_DATASETS, else ./Datasets, else the Datasets folder of the checkout this executable was built in)."
    )
    var datasets: String?

    func run() throws {
        let loader = ScenarioLoader(manifest: try DatasetsLocation.manifest(option: datasets), registry: .bundled)
        var bad = 0
        for file in files {
            do {
                let s = try loader.load(URL(fileURLWithPath: file), displayName: file)
                let cases = ScenarioRunner.caseCount(of: s)
                print(
                    "ok    \(file) (\(s.app), \(s.requirements.count) requirements, \(cases) case\(cases == 1 ? "" : "s"))"
                )
            } catch {
                bad += 1
                CommandSupport.printError(error.description)
            }
        }
        if bad > 0 { throw CommandSupport.invalidInput }
    }
}
