import ArgumentParser
import FieldtestData
import Foundation
import SkyScoring

/// `fieldtest score`: golden-hour quality for every sunrise and sunset in a weather CSV.
struct ScoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract: "Golden-hour quality (0–100) per location and sunrise/sunset from hourly weather.",
        discussion: "Input: location_id,latitude,longitude,time (UTC) and any of cloud_low_pct, cloud_mid_pct, cloud_high_pct, cloud_total_pct, humidity_pct, precip_probability_pct, visibility_km, pm25_ugm3.")

    @Option(help: "Hourly weather CSV.")
    var weather: String

    @Option(help: "Output CSV (default: standard output).")
    var output: String?

    func run() throws {
        try CommandSupport.guarded {
            let bytes = try readFileBytes(URL(fileURLWithPath: weather), displayName: weather)
            try CommandSupport.emit(try ScoreBatch.run(bytes: bytes, file: weather), to: output)
        }
    }
}
