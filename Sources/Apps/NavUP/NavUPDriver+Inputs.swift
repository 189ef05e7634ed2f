import FieldtestData
import Foundation
import ScenarioEngine

extension NavUPDriver {
    /// The campus a run of the scenario replays (the `campus` parameter), loaded once per dataset
    /// store and shared by the sweep's cases and by `inputProblems`.
    static func loadCampus(_ run: RunContext) throws -> (name: String, url: URL, campus: NavUPCampus) {
        let name = try run.dataset(parameter: "campus", formats: [.osmXML, .osmPBF], what: "campus map")
        let url = try run.datasets.url(name)
        let campus = try run.datasets.cached("navup-campus-\(name)") {
            try NavUPCampus(url: url, displayName: DatasetManifest.display(url))
        }
        try run.datasets.recordLoadReport(campus.loadReport, for: url)
        return (name, url, campus)
    }

    /// Why `text` names no place of `campus` (the campus is called `campusName`), with the closest
    /// venue name; nil when it is a venue name or coordinates.
    static func unknownPlace(_ text: String, campus: NavUPCampus, campusName: String) -> String? {
        guard campus.place(text) == nil else { return nil }
        let hint = DamerauLevenshtein.closest(to: text, in: campus.venues.map(\.name)).map {
            " (did you mean '\($0)'?)"
        }
        return
            "campus '\(campusName)' has no venue named '\(text)'\(hint ?? ""); give a venue name as the campus spells it, or 'lat,lon'"
    }

    /// What a run of `run.scenario` would stop on that its data shows: a campus with fewer than two
    /// venues, a route or emergency from or to a venue the campus lacks, a crowd-pings trajectory
    /// too short to calibrate the walking speed.
    @Sendable static func inputProblems(_ run: RunContext) throws -> [ScenarioProblem] {
        let s = run.scenario
        let (campusName, _, campus) = try loadCampus(run)
        var problems: [ScenarioProblem] = []
        if campus.venues.count < 2 {
            problems.append(
                ScenarioProblem(
                    at: s.parameters["campus"],
                    "campus '\(campusName)' has fewer than two named venues near its paths; choose another campus"))
        }
        for actor in s.actors {
            for action in actor.actions where action.kind == "route" || action.kind == "emergency" {
                for key in ["from", "to"] {
                    guard let value = action.parameters[key], let text = value.string,
                        let why = unknownPlace(text, campus: campus, campusName: campusName)
                    else { continue }
                    problems.append(ScenarioProblem(at: value, "'\(key)': \(why)"))
                }
            }
        }
        for feed in s.feeds where feed.kind == "crowd-pings" {
            guard let value = feed.parameters["dataset"], let name = value.string else { continue }
            if try NavUPCrowd.walkingSpeed(fixes: loadFixes(name, run)) == nil {
                problems.append(
                    ScenarioProblem(
                        at: value,
                        "dataset '\(name)' has fewer than 20 walking-speed fix pairs; use a GeoLife .plt trajectory with timestamps"
                    ))
            }
        }
        return problems
    }

    /// The fixes of the GeoLife trajectory `name`, loaded once per dataset store.
    static func loadFixes(_ name: String, _ run: RunContext) throws -> [GeoLifeFix] {
        let url = try run.datasets.url(name)
        return try run.datasets.cached("navup-geolife-\(name)") {
            try GeoLifeLoaders.loadPLT(url: url, displayName: DatasetManifest.display(url)).records
        }
    }
}
