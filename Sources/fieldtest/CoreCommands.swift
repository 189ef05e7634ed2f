import ArgumentParser
import Capabilities
import FieldtestApps
import FieldtestData
import Foundation
import MetricReports
import Positioning
import SkyScoring
import TweetSentiment

struct SunCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "sun",
        abstract: "Solar event times (UTC) for each id,latitude,longitude,date,timezone row.",
        discussion: SunBatch.discussion)

    @Option(help: "Input CSV with columns id,latitude,longitude,date,timezone.", completion: .file()) var input: String
    @OptionGroup var out: OutputCSV

    func job() throws -> any CommandJob { SunBatch.Job(input: input, output: out.output) }
}

struct ScoreCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract: "Golden-hour quality (0–100) per location and sunrise/sunset from hourly weather.",
        discussion: WeatherProviders.ScoreJob.discussion)

    @Option(help: "Hourly weather CSV.", completion: .file()) var weather: String?
    @Option(help: "A weather dataset (its manifest name; fieldtest datasets list) to score instead.") var dataset:
        String?
    @Option(help: "Year a typical-year (TMY) dataset is replayed in, 1900–2100 (others keep their dates).") var year =
        2021
    @OptionGroup var folder: DatasetFolders
    @OptionGroup var out: OutputCSV

    var scoreJob: WeatherProviders.ScoreJob {
        .init(weather: weather, dataset: dataset, year: year, datasetFolders: folder.datasets, output: out.output)
    }

    func validate() throws { try CommandSupport.refuse(scoreJob.usageProblem) }

    func job() throws -> any CommandJob { scoreJob }
}

struct RouteCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "route",
        abstract: "Route a batch of queries (id,from_lat,from_lon,to_lat,to_lon,profile) over a campus map.",
        discussion: RouteBatch.discussion)

    @Option(help: "Map: OSM XML (.osm), OSM PBF (.osm.pbf) or GeoJSON (.geojson).", completion: .file()) var graph:
        String?
    @Option(help: "Queries CSV: id,from_lat,from_lon,to_lat,to_lon,profile.", completion: .file()) var queries: String?
    @Option(help: "Congestion CSV: latitude,longitude,density_per_m2 (persons/m²).", completion: .file())
    var congestion: String?
    @OptionGroup var out: OutputCSV
    @Option(help: "Profiles YAML replacing the built-in ones.", completion: .file()) var profiles: String?
    @Flag(help: "Print the built-in profiles YAML (the documented schema) and exit.") var printProfiles = false

    func job() throws -> any CommandJob {
        RouteBatch.Job(
            graph: graph, queries: queries, congestion: congestion, profiles: profiles, printProfiles: printProfiles,
            output: out.output)
    }
}

struct LocateCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "locate",
        abstract: "Estimate building, floor and coordinates of Wi-Fi fingerprints (UJIIndoorLoc) by weighted k-NN.",
        discussion: FingerprintLocateJob.discussion)

    @Option(help: "Labelled training file (UJIIndoorLoc layout); repeatable.", completion: .file()) var train:
        [String] = []
    @Option(help: "Fingerprints to locate (ground-truth columns optional).", completion: .file()) var input: String?
    @OptionGroup var out: OutputCSV
    @Option(help: "Evaluate the training data holding out each 'phone' or 'user' in turn.")
    var crossValidate: FingerprintCrossValidation.Grouping?
    @Option(help: "tuned, no-offset-search (tuned, no device-offset search) or baseline (published 1-NN).")
    var method: FingerprintLocateJob.Method = .tuned

    func job() throws -> any CommandJob {
        FingerprintLocateJob.Request(
            training: train, input: input, crossValidate: crossValidate, method: method, output: out.output)
    }
}

extension FingerprintCrossValidation.Grouping: ExpressibleByArgument {}
extension FingerprintLocateJob.Method: ExpressibleByArgument {}

struct ServeCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a built-in core (sun, route, locate or sentiment) over JSON Lines on stdin/stdout.")

    @Argument(help: "sun, route, locate or sentiment.") var capability: String
    @OptionGroup var folder: DatasetFolders
    @Option(help: "Longest request line, 1024…1073741824 bytes; a longer one gets an error answer.")
    var maxLineBytes = ExternalSystemSpec.defaultMaxLineBytes

    func validate() throws {
        if !ExternalSystemSpec.maxLineBytesRange.contains(maxLineBytes) {
            throw ValidationError("--max-line-bytes must be from 1024 to 1073741824")
        }
    }

    func job() throws -> any CommandJob {
        SystemServer.Job(
            capability: capability,
            datasets: DatasetsLocation.currentFolder(
                holding: "models/" + SentimentModelFile.defaultFileName, options: folder.datasets),
            version: FieldtestVersion.current, maxLineBytes: maxLineBytes)
    }
}
