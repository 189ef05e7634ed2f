import ArgumentParser
import FieldtestData
import SystemsUnderTest

/// `fieldtest serve`: a built-in core as an external system (docs/system-protocol.md).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a built-in core (sun, route, locate or sentiment) over JSON Lines on stdin/stdout.")

    @Argument(help: "sun, route, locate or sentiment.")
    var capability: String
    @Option(name: .long, help: "Datasets folder (for the default sentiment model).")
    var datasets: String?

    func run() throws {
        try SystemServer.serveBuiltin(
            capability, datasets: DatasetsLocation.current(option: datasets), version: FieldtestVersion.current)
    }
}
