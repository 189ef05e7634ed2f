import ArgumentParser
import FieldtestData
import Foundation
import SkyScoring

/// `fieldtest sun`: sunrise, sunset, noon, twilight and golden hour for a CSV of location-days.
struct SunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sun",
        abstract: "Solar event times (UTC) for each id,latitude,longitude,date,timezone row.",
        discussion: "Sunrise/sunset: Sun's centre at −0.833° (NOAA/SPA convention); events are those of the local date.")

    @Option(help: "Input CSV with columns id,latitude,longitude,date,timezone.")
    var input: String

    @Option(help: "Output CSV (default: standard output).")
    var output: String?

    func run() throws {
        try CommandSupport.guarded {
            let bytes = try readFileBytes(URL(fileURLWithPath: input), displayName: input)
            try CommandSupport.emit(try SunBatch.run(bytes: bytes, file: input), to: output)
        }
    }
}
