import ArgumentParser

/// The `fieldtest` command: a thin shell over the library modules.
@main
struct Fieldtest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fieldtest",
        abstract: "Replay recorded weather, location and tweet data through sky, routing and social algorithms, and report accuracy and latency against their requirements.",
        discussion: """
        Exit codes: 0 success (all requirements pass), 1 a requirement failed or a \
        regression was found, 2 invalid input or usage.
        """,
        version: FieldtestVersion.current,
        subcommands: [
            RunCommand.self,
            ValidateCommand.self,
            CheckCommand.self,
            MergeCommand.self,
            SchemaCommand.self,
            DatasetsCommand.self,
            BenchCommand.self,
            SunCommand.self,
            ScoreCommand.self,
            LocateCommand.self,
            TrainCommand.self,
            ClassifyCommand.self,
            EvaluateCommand.self,
            RouteCommand.self,
        ]
    )
}

/// The tool's version, written into every run's `run.json`.
enum FieldtestVersion {
    static let current = "0.1.0"
}
