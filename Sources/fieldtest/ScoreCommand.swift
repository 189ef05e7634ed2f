import ArgumentParser
import FieldtestApps
import FieldtestData
import Foundation
import SkyScoring

/// `fieldtest score`: golden-hour quality for every sunrise and sunset in a weather CSV, or in a
/// bundled weather recording replayed at its station.
struct ScoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract: "Golden-hour quality (0–100) per location and sunrise/sunset from hourly weather.",
        discussion: """
            Input (--weather): location_id,latitude,longitude,time (UTC) and any of cloud_low_pct, cloud_mid_pct, \
            cloud_high_pct, cloud_total_pct, humidity_pct, precip_probability_pct, visibility_km, pm25_ugm3.
            Or --dataset NAME: a bundled weather recording (NOAA LCD, TMY3, TMY2, Beijing PM2.5; see \
            `fieldtest datasets list`) scored at its station (an LCD file without LATITUDE/LONGITUDE columns is \
            placed by its station id in the bundled isd-history station list).
            All rows of one location_id must give the same latitude and longitude.
            """)

    @Option(help: "Hourly weather CSV.")
    var weather: String?
    @Option(help: "A bundled weather dataset to score instead of a CSV (e.g. noaa-lcd-lincoln-2023, beijing-pm25).")
    var dataset: String?
    @Option(
        help:
            "Year a typical-year (TMY) dataset is replayed in, 1900–2100 (checked with every input; other recordings keep their own dates)."
    )
    var year = 2021
    @OptionGroup var folder: DatasetsFolder
    @OptionGroup var out: OutputCSV

    func validate() throws {
        if (weather == nil) == (dataset == nil) {
            throw ValidationError("give exactly one of --weather FILE.csv or --dataset NAME")
        }
        let years = TMYWeatherProvider.supportedYears
        if !years.contains(year) {
            throw ValidationError(
                "--year \(year): error: outside the years a typical year can be replayed in; give a year in \(years.lowerBound)…\(years.upperBound)"
            )
        }
    }

    func run() throws {
        if let weather {
            return try OutputText.write(try ScoreBatch.run(file: weather, output: out.output), to: out.output)
        }
        guard let dataset else { return }  // validate() asks for one of --weather and --dataset
        let manifest = try DatasetsLocation.manifest(option: folder.datasets)
        let csv = try WeatherProviders.scoreCSV(dataset: dataset, manifest: manifest, year: year, output: out.output)
        try OutputText.write(csv, to: out.output)
    }
}
