import ArgumentParser
import FieldtestData
import Foundation
import ScenarioEngine

struct DatasetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "datasets",
        abstract: "List the datasets, verify their hashes and row counts, or add a file of your own.",
        subcommands: [List.self, Verify.self, Add.self, Where.self]
    )

    struct List: JobCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Show each dataset of every folder: name, format, core, rows, licence, file.")
        @OptionGroup var options: DatasetFolders

        func job() throws -> any CommandJob { DatasetsLocation.ListJob(folders: options.datasets) }
    }

    struct Where: JobCommand {
        static let configuration = CommandConfiguration(
            commandName: "where",
            abstract: "Show which folder holds the bundled datasets, and every place looked at in order.",
            discussion: DatasetsLocation.WhereJob.discussion)

        func job() throws -> any CommandJob { DatasetsLocation.WhereJob() }
    }

    struct Verify: JobCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract:
                "Check every file's sha256 and, with its typed loader, its row count, in every folder; exit 1 on a mismatch."
        )
        @OptionGroup var options: DatasetFolders
        @Argument(help: "Only these dataset names (default: all).") var names: [String] = []

        func job() throws -> any CommandJob { DatasetsLocation.VerifyJob(folders: options.datasets, names: names) }
    }

    struct Add: JobCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a file as a named dataset: a MANIFEST.csv row with its rows and sha256 measured.",
            discussion: DatasetRegistration.Job.discussion)
        @OptionGroup var options: DatasetFolders
        @Argument(help: "The file to add (it is only read).", completion: .file()) var file: String
        @Option(help: "The dataset name scenarios use (letters, digits, '.', '_', '-').") var name: String
        @Option(help: "The file's format (default: shown by its extension or header).") var format: DatasetFormat?
        @Option(help: "The datasets folder whose manifest gets the row.", completion: .directory) var into: String?
        @Option(help: "The licence of the data (default: unknown).") var license: String?

        func job() throws -> any CommandJob {
            DatasetRegistration.Job(
                file: file, name: name, format: format, into: into, folders: options.datasets, license: license)
        }
    }
}

extension DatasetFormat: ExpressibleByArgument {}
