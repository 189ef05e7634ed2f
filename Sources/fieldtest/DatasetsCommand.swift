import ArgumentParser
import FieldtestData
import Foundation
import ScenarioEngine

/// `fieldtest datasets`: what is available by name, whether it is intact, and adding a file.
struct DatasetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "datasets",
        abstract: "List the datasets, verify their hashes and row counts, or add a file of your own.",
        subcommands: [List.self, Verify.self, Add.self]
    )

    struct Options: ParsableArguments {
        @Option(
            name: .long,
            help:
                "A datasets folder of your own, on top of the bundled one (repeatable; also $FIELDTEST_DATASETS=A:B)."
        )
        var datasets: [String] = []
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show each dataset of every folder: name, format, core, rows, licence, file.")
        @OptionGroup var options: Options

        func run() throws {
            let manifest = try DatasetsLocation.manifest(options: options.datasets)
            let rows = manifest.entries.map {
                [
                    $0.name, $0.format.rawValue, $0.core, String($0.rows), $0.license,
                    DatasetManifest.display(manifest.url(of: $0)),
                ]
            }
            var text = TextTableRenderer.render(
                header: ["name", "format", "core", "rows", "license", "file"], rows: rows)
            for entry in manifest.shadowed {
                text +=
                    "(\(entry.name) in \(DatasetManifest.display(manifest.url(of: entry))) is replaced by a folder above it)\n"
            }
            // One write, so that a standard output that cannot take it all is an error.
            try OutputText.write(text, to: nil)
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Check every file's sha256 and, with its typed loader, its row count, in every folder; exit 1 on a mismatch."
        )
        @OptionGroup var options: Options
        @Argument(help: "Only these dataset names (default: all).")
        var names: [String] = []

        func run() throws {
            let manifest = try DatasetsLocation.manifest(options: options.datasets)
            for name in names where manifest.entry(named: name) == nil {
                CommandSupport.printError(
                    "error: unknown dataset '\(name)'; run 'fieldtest datasets list' to see the names")
                throw CommandSupport.invalidInput
            }
            let checks = manifest.verify(names.isEmpty ? nil : Set(names))
            var failures = 0
            for check in checks {
                let file = DatasetManifest.display(manifest.url(of: check.entry))
                if check.passed {
                    print("ok    \(check.entry.name) (\(check.entry.rows) rows, \(file))")
                } else {
                    failures += 1
                    print("FAIL  \(check.entry.name): \(check.problem)")
                }
            }
            guard !checks.isEmpty else {
                CommandSupport.printError("error: the manifests list no datasets: nothing was verified")
                throw CommandSupport.failed
            }
            print("\(checks.count - failures) of \(checks.count) datasets verified")
            if failures > 0 { throw CommandSupport.failed }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a file as a named dataset: a MANIFEST.csv row with its rows and sha256 measured.",
            discussion: """
                The row goes into DIR/MANIFEST.csv (created if needed); a file outside DIR is copied into it.
                Without --into, DIR is the last --datasets folder, else the file's own folder.
                Then pass --datasets DIR (or set FIELDTEST_DATASETS) and name the dataset in scenarios.
                """)
        @OptionGroup var options: Options
        @Argument(help: "The file to add (it is only read).")
        var file: String
        @Option(name: .long, help: "The dataset name scenarios use (letters, digits, '.', '_', '-').")
        var name: String
        @Option(name: .long, help: "The file's format (default: shown by its extension or header).")
        var format: DatasetFormat?
        @Option(name: .long, help: "The datasets folder whose manifest gets the row.")
        var into: String?
        @Option(name: .long, help: "The licence of the data (default: unknown).")
        var license: String?

        func run() throws {
            let input = URL(fileURLWithPath: file)
            let folder = URL(fileURLWithPath: into ?? options.datasets.last ?? input.deletingLastPathComponent().path)
            let added = try DatasetRegistration.add(
                file: input, name: name, format: format, into: folder,
                existing: try DatasetsLocation.manifest(options: options.datasets, existingOnly: true), license: license
            )
            print(added.summary, terminator: "")
        }
    }
}

extension DatasetFormat: ExpressibleByArgument {}
