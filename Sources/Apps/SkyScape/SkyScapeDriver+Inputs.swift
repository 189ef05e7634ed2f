import FieldtestData
import Foundation
import ScenarioEngine
import SkyScoring

extension SkyScapeDriver {
    /// The searchable places — the GeoNames tables the scenario lists, else every one the datasets
    /// hold (world cities first) — their search, and the key they are cached under.
    static func loadPlaces(_ run: RunContext) throws -> (places: [Place], search: CitySearch, key: String) {
        let store = run.datasets
        func tables(_ format: DatasetFormat) -> [String] {
            let listed = run.listedDatasets([format])
            return listed.isEmpty ? store.manifest.entries.filter { $0.format == format }.map(\.name) : listed
        }
        let tables = tables(.worldCities) + tables(.usCities)
        guard !tables.isEmpty else {
            throw ListedDatasetError(
                description: "\(run.scenario.file): error: SkyScape searches places, and the datasets hold no GeoNames "
                    + "places table (format world-cities or us-cities); add one")
        }
        let key = tables.joined(separator: "+")
        let places = try store.cached("places:" + key) { () throws -> [Place] in
            var all: [Place] = []
            for name in tables {
                let url = try store.url(name)
                let display = DatasetManifest.display(url)
                all +=
                    store.manifest.entry(named: name)?.format == .usCities
                    ? try PlacesLoader.loadUSCities(url: url, displayName: display).records
                    : try PlacesLoader.loadWorldCities(url: url, displayName: display).records
            }
            return all
        }
        let search = try store.cached("citysearch:" + key) { CitySearch(places: places) }
        return (places, search, key)
    }

    /// What the data shows of a SkyScape scenario before it runs: the weather recording loads and
    /// covers the time window (`WeatherProviders.inputProblems`), and each place an action names is
    /// found by the app's search (a warning: an unknown place is a failed SKY-F1 check, not a stop).
    @Sendable static func inputProblems(_ run: RunContext) throws -> [ScenarioProblem] {
        let s = run.scenario
        var problems = try WeatherProviders.inputProblems(run)
        let (places, search, _) = try loadPlaces(run)
        for actor in s.actors {
            for action in actor.actions {
                let named = [action.parameters["place"]].compactMap { $0 } + (action.parameters["places"]?.array ?? [])
                for value in named {
                    guard let text = value.string, search.search(text, limit: 1).isEmpty else { continue }
                    let hint = DamerauLevenshtein.closest(to: text, in: places.map(\.name)).map {
                        " (did you mean '\($0)'?)"
                    }
                    problems.append(
                        ScenarioProblem(
                            at: value,
                            "no place matches '\(text)'\(hint ?? ""); the app shows 'No results found' and SKY-F1 counts a failed check",
                            severity: .warning))
                }
            }
        }
        return problems
    }
}
