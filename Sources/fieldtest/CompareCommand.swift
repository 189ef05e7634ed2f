import ArgumentParser
import FieldtestApps
import FieldtestData
import Foundation
import ScenarioEngine
import SystemsUnderTest

/// `fieldtest compare`: the same scenario and seeds once per system, one table.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Run a scenario once per system; one table of every metric, one column per system (CSV).",
        discussion: "Example: fieldtest compare Scenarios/micity-city-day.yaml --capability sentiment "
            + "--system builtin=builtin --system vader='python3 Examples/systems/vader_sentiment.py'")

    @Argument(help: "Scenario file.") var file: String
    @Option(help: "sun, route, locate or sentiment.") var capability: String
    @Option(help: "NAME=COMMAND (or NAME=builtin); repeat.")
    var system: [String] = []
    @Option(help: "Output CSV (default: standard output; a table on a terminal).") var output: String?
    @OptionGroup var folder: DatasetsFolder

    func run() throws {
        let capability = try SystemCapability.named(capability).rawValue
        let entries = try system.map { text throws -> SystemComparison.Entry in
            guard let eq = text.firstIndex(of: "=") else { throw ValidationError("--system takes NAME=COMMAND") }
            let choice = try SystemChoice.parse(command: String(text[text.index(after: eq)...]))
            let setting: SystemSetting? =
                if case .external(let s) = choice { SystemSetting(command: s.command) } else { nil }
            return .init(name: String(text[..<eq]), capability: capability, setting: setting)
        }
        let result = try SystemComparison.run(
            file: file, entries: entries, manifest: try DatasetsLocation.manifest(option: folder.datasets),
            apps: .bundled)
        let table = output == nil && isatty(STDOUT_FILENO) == 1 ? result.terminalTable : result.csv
        try OutputText.write(table, to: output)
        if result.anyFailed { throw CommandSupport.failed }
    }
}
