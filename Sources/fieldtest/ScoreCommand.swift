import ArgumentParser
import FieldtestApps
import FieldtestData
import Foundation
import ScenarioEngine
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

    @Option(help: "Year a typical-year (TMY) dataset is replayed in, 1900–2100 (checked with every input; other recordings keep their own dates).")
    var year = 2021

    @Option(name: .long, help: "Datasets folder (default: $FIELDTEST_DATASETS, else ./Datasets, else the Datasets folder of the checkout this executable was built in).")
    var datasets: String?

    @Option(help: "Output CSV (default: standard output).")
    var output: String?

    func validate() throws {
        if (weather == nil) == (dataset == nil) { throw ValidationError("give exactly one of --weather FILE.csv or --dataset NAME") }
        let years = TMYWeatherProvider.supportedYears
        if !years.contains(year) {
            throw ValidationError("--year \(year): error: outside the years a typical year can be replayed in; give a year in \(years.lowerBound)…\(years.upperBound)")
        }
    }

    func run() throws {
        let manifest = weather == nil ? try CommandSupport.datasetManifest(datasets) : nil
        try OutputPathCheck.refuseOverwritingInputs(inputFiles(manifest), output: output)
        try CommandSupport.guarded {
            if let weather {
                let bytes = try readFileBytes(URL(fileURLWithPath: weather), displayName: weather)
                try CommandSupport.emit(try ScoreBatch.run(bytes: bytes, file: weather), to: output)
                return
            }
            let name = dataset ?? ""
            guard let manifest else { return }
            let store = DatasetStore(manifest: manifest)
            var provider = try WeatherProviders.load(name, store: store, year: year)
            if provider.station == nil, let lcd = provider as? LCDWeatherProvider {
                provider = lcd.located(in: try Self.stationHistory(manifest))
            }
            guard let station = provider.station else {
                throw WeatherProviders.ProviderError(description: "\(name): error: the recording has no station position, "
                                                     + "and the isd-history station list has none for its station id")
            }
            let location = ScoreBatch.Location(id: name, latitude: station.latitude, longitude: station.longitude,
                                               samples: provider.skySamples)
            try CommandSupport.emit(ScoreBatch.render(ScoreBatch.score([location])), to: output)
        }
    }

    /// The files the command reads: the --weather CSV, or the --dataset's file and the station list
    /// beside it (consulted for an LCD recording without a station position).
    func inputFiles(_ manifest: DatasetManifest?) -> [OutputPathCheck.Input] {
        if let weather { return [.init(option: "--weather", url: URL(fileURLWithPath: weather))] }
        guard let manifest else { return [] }
        var files: [OutputPathCheck.Input] = []
        if let dataset, let entry = manifest.entry(named: dataset) {
            files.append(.init(option: "--dataset", url: manifest.url(of: entry)))
        }
        if let history = manifest.entries.first(where: { $0.format == .isdHistory }) {
            files.append(.init(option: "--dataset (station list)", url: manifest.url(of: history)))
        }
        return files
    }

    /// NOAA's station history from the datasets folder (the manifest's `isd-history` entry);
    /// empty when the folder has none.
    static func stationHistory(_ manifest: DatasetManifest) throws -> [ISDStation] {
        guard let entry = manifest.entries.first(where: { $0.format == .isdHistory }) else { return [] }
        return try ISDHistoryLoader.load(url: manifest.url(of: entry), displayName: DatasetManifest.display(manifest.url(of: entry))).records
    }
}
