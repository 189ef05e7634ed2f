import ArgumentParser
import FieldtestData
import Foundation
import ScenarioEngine

/// `fieldtest datasets`: what is bundled, and whether it is intact.
struct DatasetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "datasets",
        abstract: "List the bundled datasets or verify their hashes and row counts.",
        subcommands: [List.self, Verify.self]
    )

    struct Options: ParsableArguments {
        @Option(
            name: .long,
            help:
                "Datasets folder (default: $FIELDTEST_DATASETS, else ./Datasets, else the Datasets folder of the checkout this executable was built in)."
        )
        var datasets: String?
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show each bundled file: name, format, core, rows, licence.")
        @OptionGroup var options: Options

        func run() throws {
            let manifest = try DatasetsLocation.manifest(option: options.datasets)
            let rows = manifest.entries.map { [$0.name, $0.format.rawValue, $0.core, String($0.rows), $0.license] }
            print(
                TextTableRenderer.render(header: ["name", "format", "core", "rows", "license"], rows: rows),
                terminator: "")
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check every file's sha256 and, with its typed loader, its row count; exit 1 on a mismatch.")
        @OptionGroup var options: Options
        @Argument(help: "Only these dataset names (default: all).")
        var names: [String] = []

        func run() throws {
            let manifest = try DatasetsLocation.manifest(option: options.datasets)
            for name in names where manifest.entry(named: name) == nil {
                CommandSupport.printError(
                    "error: unknown dataset '\(name)'; run 'fieldtest datasets list' to see the names")
                throw CommandSupport.invalidInput
            }
            let checks = manifest.verify(names.isEmpty ? nil : Set(names))
            var failures = 0
            for check in checks {
                if check.passed {
                    print("ok    \(check.entry.name) (\(check.entry.rows) rows)")
                } else {
                    failures += 1
                    print("FAIL  \(check.entry.name): \(check.problem)")
                }
            }
            print("\(checks.count - failures) of \(checks.count) datasets verified")
            if failures > 0 { throw CommandSupport.failed }
        }
    }
}
