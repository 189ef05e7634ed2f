import FieldtestData
import Foundation
import ScenarioEngine
import SkyScoring

extension WeatherProviders {
    /// The recording the scenario's first weather-refresh feed replays, loaded as the SkyScape and
    /// weather-cities drivers load it (typical years are replayed in the year of the start).
    static func replayed(by scenario: Scenario, _ store: DatasetStore) throws -> (any WeatherProvider)? {
        guard let feed = scenario.feeds.first(where: { $0.kind == "weather-refresh" }),
            let name = feed.parameters["dataset"]?.string
        else { return nil }
        let year = Calendar(identifier: .gregorian).component(.year, from: Date(timeIntervalSince1970: scenario.start))
        return try load(name, store: store, year: year, options: WeatherLoadOptions(dataset: name, of: scenario))
    }

    /// The weather recording of `run.scenario` loads, and covers the scenario's time window (an
    /// error when it covers none of it, a warning when only part).
    @Sendable static func inputProblems(_ run: RunContext) throws -> [ScenarioProblem] {
        let s = run.scenario
        let weather: (any WeatherProvider)?
        do {
            weather = try replayed(by: s, run.datasets)
        } catch {
            // Located at the feed that replays the recording (e.g. a typical year replayed in year 1).
            let at = s.feeds.first { $0.kind == "weather-refresh" }?.parameters["dataset"]
            var message = "\(error)"
            if message.hasPrefix("\(s.file): error: ") { message.removeFirst("\(s.file): error: ".count) }
            if message.hasPrefix("error: ") { message.removeFirst("error: ".count) }
            return [ScenarioProblem(at: at, "the weather recording cannot be replayed: \(message)")]
        }
        guard let weather, let feed = s.feeds.first(where: { $0.kind == "weather-refresh" }),
            let first = weather.observations.first?.timeUTC, let last = weather.observations.last?.timeUTC,
            let problem = ScenarioPreflight.window(
                start: s.start, end: s.end, recording: first, last,
                what: "the weather recording '\(feed.parameters["dataset"]?.string ?? "")'",
                at: feed.parameters["dataset"])
        else { return [] }
        return [problem]
    }
}

extension WeatherLoadOptions {
    /// The options a scenario declares on its dataset entry `name` (`utc_offset:`, `timezone:`);
    /// none for a dataset named from a manifest.
    init(dataset name: String, of scenario: Scenario) {
        let declared = scenario.datasetFiles.first { $0.name == name }
        self.init(utcOffsetSeconds: declared?.utcOffsetSeconds, timeZone: declared?.timeZone)
    }
}
