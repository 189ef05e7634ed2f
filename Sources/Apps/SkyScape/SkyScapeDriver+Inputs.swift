import FieldtestData
import Foundation
import ScenarioEngine
import SkyScoring

extension SkyScapeDriver {
    /// The searchable places (world and US cities) and their search, loaded once per dataset store.
    static func loadPlaces(_ store: DatasetStore) throws -> (places: [Place], search: CitySearch) {
        let places = try store.cached("places:world+us") { () throws -> [Place] in
            let world = try store.url("world-cities")
            let us = try store.url("us-cities")
            var all = try PlacesLoader.loadWorldCities(url: world, displayName: DatasetManifest.display(world)).records
            all += try PlacesLoader.loadUSCities(url: us, displayName: DatasetManifest.display(us)).records
            return all
        }
        let search = try store.cached("citysearch:world+us") { CitySearch(places: places) }
        return (places, search)
    }

    /// What the data shows of a SkyScape scenario before it runs: the weather recording loads and
    /// covers the time window (`WeatherProviders.inputProblems`), and each place an action names is
    /// found by the app's search (a warning: an unknown place is a failed SKY-F1 check, not a stop).
    @Sendable static func inputProblems(_ run: RunContext) throws -> [ScenarioProblem] {
        let s = run.scenario
        var problems = try WeatherProviders.inputProblems(run)
        let (places, search) = try loadPlaces(run.datasets)
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
