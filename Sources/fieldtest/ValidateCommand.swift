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
    @OptionGroup var folders: DatasetFolders

    func run() throws {
        let validation = ScenarioValidation(
            manifest: try DatasetsLocation.manifest(options: folders.datasets), registry: .bundled)
        var invalid = 0
        for file in files {
            let verdict = validation.verdict(file: file)
            if let problems = verdict.problems { CommandSupport.printError(problems) }
            if let ok = verdict.ok { print(ok) } else { invalid += 1 }
        }
        if invalid > 0 { throw CommandSupport.invalidInput }
    }
}
