import Capabilities
import FieldtestData
import Foundation
import ScenarioEngine
import SkyScoring

extension WeatherProviders {
    /// Golden-hour quality (`ScoreBatch` CSV) of every sunrise and sunset of the bundled weather
    /// recording `dataset`, scored at its station. An LCD recording without a station position is
    /// placed by its station id in the manifest's `isd-history` station list; `year` is the year a
    /// typical-year recording is replayed in. An `output` that names a file it reads
    /// (`scoringInputs`) is refused before anything is read.
    public static func scoreCSV(dataset: String, manifest: DatasetManifest, year: Int, output: String? = nil) throws
        -> String
    {
        try OutputPathCheck.refuseOverwritingInputs(scoringInputs(dataset: dataset, manifest: manifest), output: output)
        let store = DatasetStore(manifest: manifest)
        var provider = try load(dataset, store: store, year: year)
        if provider.station == nil, let lcd = provider as? LCDWeatherProvider {
            provider = lcd.located(in: try stationHistory(manifest))
        }
        guard let station = provider.station else {
            throw ProviderError(
                description: "\(dataset): error: the recording has no station position, "
                    + "and the isd-history station list has none for its station id")
        }
        let location = ScoreBatch.Location(
            id: dataset, latitude: station.latitude, longitude: station.longitude,
            samples: provider.skySamples)
        return ScoreBatch.render(ScoreBatch.score([location]))
    }

    /// The files `scoreCSV` reads for `dataset`: its file, and the station list beside it.
    public static func scoringInputs(dataset: String, manifest: DatasetManifest) -> [OutputPathCheck.Input] {
        var files: [OutputPathCheck.Input] = []
        if let entry = manifest.entry(named: dataset) {
            files.append(.init(option: "--dataset", url: manifest.url(of: entry)))
        }
        if let history = manifest.entries.first(where: { $0.format == .isdHistory }) {
            files.append(.init(option: "--dataset (station list)", url: manifest.url(of: history)))
        }
        return files
    }

    /// NOAA's station history from the datasets folder (the manifest's `isd-history` entry);
    /// empty when the folder has none.
    public static func stationHistory(_ manifest: DatasetManifest) throws -> [ISDStation] {
        guard let entry = manifest.entries.first(where: { $0.format == .isdHistory }) else { return [] }
        return try ISDHistoryLoader.load(
            url: manifest.url(of: entry), displayName: DatasetManifest.display(manifest.url(of: entry))
        ).records
    }
}

extension WeatherProviders {
    /// `fieldtest score`: golden-hour quality of an hourly weather CSV (`ScoreBatch`), or of a weather
    /// dataset replayed at its station (`scoreCSV(dataset:manifest:year:output:)`).
    public struct ScoreJob: CommandJob {
        /// The `--help` description of the command.
        public static let discussion = """
            Input (--weather): location_id,latitude,longitude,time (UTC) and any of cloud_low_pct, cloud_mid_pct, \
            cloud_high_pct, cloud_total_pct, humidity_pct, precip_probability_pct, visibility_km, pm25_ugm3.
            Or --dataset NAME: a bundled weather recording (NOAA LCD, TMY3, TMY2, Beijing PM2.5; see \
            `fieldtest datasets list`) scored at its station (an LCD file without LATITUDE/LONGITUDE columns is \
            placed by its station id in the bundled isd-history station list).
            All rows of one location_id must give the same latitude and longitude.
            """

        /// The hourly weather CSV (`-`: standard input).
        public var weather: String?
        /// The weather dataset's name, instead of a CSV.
        public var dataset: String?
        /// The year a typical-year dataset is replayed in.
        public var year: Int
        /// The `--datasets` folders.
        public var datasetFolders: [String]
        /// The output CSV, nil or `-` for standard output.
        public var output: String?

        /// A job (one of `weather` and `dataset`).
        public init(weather: String?, dataset: String?, year: Int, datasetFolders: [String], output: String?) {
            (self.weather, self.dataset, self.year) = (weather, dataset, year)
            (self.datasetFolders, self.output) = (datasetFolders, output)
        }

        /// Options that do not go together, or out of range: nil, or what to do (a usage error).
        public var usageProblem: String? {
            if (weather == nil) == (dataset == nil) {
                return "give exactly one of --weather FILE.csv or --dataset NAME"
            }
            let years = TMYWeatherProvider.supportedYears
            guard years.contains(year) else {
                return
                    "--year \(year): error: outside the years a typical year can be replayed in; give a year in \(years.lowerBound)…\(years.upperBound)"
            }
            return nil
        }

        /// The weather CSV, or the dataset's files (named first) and the datasets folders; the output.
        public var files: CommandFiles {
            get throws {
                var f = CommandFiles()
                f.input(weather, option: "--weather")
                if let dataset {
                    let manifest = try DatasetsLocation.manifest(options: datasetFolders)
                    f.inputs += WeatherProviders.scoringInputs(dataset: dataset, manifest: manifest)
                    f.datasets(manifest)
                }
                f.output(output, option: "--output")
                return f
            }
        }

        public func run() throws -> CommandJobOutcome {
            if let weather {
                try ScoreBatch.run(file: weather, output: output)
            } else if let dataset {
                let manifest = try DatasetsLocation.manifest(options: datasetFolders)
                let csv = try WeatherProviders.scoreCSV(
                    dataset: dataset, manifest: manifest, year: year, output: output)
                try OutputText.write(csv, to: output)
            }
            return .success
        }
    }
}
