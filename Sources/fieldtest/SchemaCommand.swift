import ArgumentParser
import FieldtestApps
import FieldtestData
import ScenarioEngine

/// `fieldtest schema`: print the scenario JSON Schema.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of scenario files (the source of Scenarios/scenario.schema.json).")

    @Option(help: "Write to this file instead of standard output.")
    var output: String?

    func run() throws {
        try OutputText.write(JSONSchemaWriter.render(.bundled), to: output)
    }
}
