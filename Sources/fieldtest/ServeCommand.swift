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
    @OptionGroup var folder: DatasetsFolder

    func run() throws {
        try SystemServer.serveBuiltin(
            capability, datasets: DatasetsLocation.current(option: folder.datasets), version: FieldtestVersion.current)
    }
}
