import FieldtestData
import Foundation
import ScenarioEngine

extension MiCityDriver {
    /// The places tables the scenario lists, by format (GeoNames US places or world cities), loaded
    /// once per dataset store (the last listed wins).
    static func loadPlaces(_ run: RunContext) throws -> [Place] {
        var places: [Place] = []
        for name in run.scenario.datasets {
            guard let format = run.datasets.manifest.entry(named: name)?.format,
                format == .usCities || format == .worldCities
            else { continue }
            let url = try run.datasets.url(name)
            places = try run.datasets.cached("places-" + name) {
                format == .usCities
                    ? try PlacesLoader.loadUSCities(url: url, displayName: DatasetManifest.display(url)).records
                    : try PlacesLoader.loadWorldCities(url: url, displayName: DatasetManifest.display(url)).records
            }
        }
        return places
    }

    /// The recorded weather a weather-refresh `feed` replays (any LCD or TMY file), in the year of
    /// the scenario's start.
    static func loadWeather(_ feed: FeedSpec, _ run: RunContext) throws -> RecordedWeatherProvider? {
        guard let dataset = feed.parameters["dataset"]?.string else { return nil }
        let s = run.scenario
        let year = Calendar(identifier: .gregorian).component(.year, from: Date(timeIntervalSince1970: s.start))
        return try RecordedWeatherProvider.load(
            dataset, store: run.datasets, year: year, options: WeatherLoadOptions(dataset: dataset, of: s))
    }

    /// What the data shows of a miCity scenario before it runs: the tweet streams and the weather
    /// load, the weather recording covers the time window (an error when it covers none of it, a
    /// warning when only part), and no action is one `start` refuses (`inputProblem`).
    @Sendable static func inputProblems(_ run: RunContext) throws -> [ScenarioProblem] {
        let s = run.scenario
        var problems: [ScenarioProblem] = []
        var weather: RecordedWeatherProvider?
        for feed in s.feeds {
            switch feed.kind {
            case "tweet-batch":
                if let name = feed.parameters["dataset"]?.string { _ = try loadStream(name, run: run) }
            case "weather-refresh":
                guard let loaded = try loadWeather(feed, run) else { continue }
                weather = loaded
                let times = loaded.provider.observations.map(\.timeUTC)
                if let first = times.first, let last = times.last,
                    let problem = ScenarioPreflight.window(
                        start: s.start, end: s.end, recording: first, last,
                        what: "the weather recording '\(feed.parameters["dataset"]?.string ?? "")'",
                        at: feed.parameters["dataset"])
                {
                    problems.append(problem)
                }
            default:
                continue
            }
        }
        let places = try loadPlaces(run)
        for actor in s.actors {
            for action in actor.actions {
                if let problem = inputProblem(action, weather: weather, places: places) {
                    problems.append(ScenarioProblem(at: action.parameters, "actor '\(actor.name)': \(problem)"))
                }
            }
        }
        return problems
    }
}
