import FieldtestData
import Foundation
import MetricReports
import ScenarioEngine
import Testing

@testable import FieldtestApps

@Suite("Weather-cities driver")
struct WeatherCitiesDriverTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `Scenarios/weather-cities.yaml` with its text edited by `edit` (a small search sample keeps it quick).
    func run(editing edit: (String) -> String) throws -> [MetricRow] {
        let datasets = Self.repo.appendingPathComponent("Datasets")
        var text = try String(
            contentsOf: Self.repo.appendingPathComponent("Scenarios/weather-cities.yaml"), encoding: .utf8)
        text = edit(text.replacingOccurrences(of: "search-sample, size: 400", with: "search-sample, size: 5"))
        let s = try ScenarioLoader(manifest: try DatasetManifest(root: datasets)).parse(
            text, file: "weather-cities.yaml")
        let store = DatasetStore(manifest: try DatasetManifest(root: datasets))
        return try ScenarioRunner.run(
            ScenarioRunner.cases(of: s), jobs: 1, runID: "t", datasets: store,
            apps: .bundled
        ).flatMap(\.rows)
    }

    @Test func aSecondAnswerForACityIsNotAskedAndTheFirstStands() throws {
        // Lincoln is answered twice (allow, then refuse): the app asks once and keeps showing its weather.
        let rows = try run {
            $0.replacingOccurrences(of: "city: \"Omaha\", allow: false", with: "city: \"Lincoln\", allow: false")
        }
        let p2 = try #require(rows.first { $0.requirement == "WXC-P2" && $0.metric == "behaviour_mismatches" })
        #expect(p2.value == 0 && p2.samples == 2 + 48, "\(p2)")
        let d1 = try #require(rows.first { $0.requirement == "WXC-D1" && $0.metric == "behaviour_mismatches" })
        #expect(d1.value == 0 && d1.samples == 7, "\(d1)")
    }

    @Test func weatherShownRuleFollowsTheUsersAnswer() {
        #expect(WeatherCitiesDriver.weatherShownFollowsAnswer(shown: true, allowed: true, reportRecorded: true))
        #expect(WeatherCitiesDriver.weatherShownFollowsAnswer(shown: false, allowed: false, reportRecorded: true))
        #expect(WeatherCitiesDriver.weatherShownFollowsAnswer(shown: false, allowed: true, reportRecorded: false))
        #expect(!WeatherCitiesDriver.weatherShownFollowsAnswer(shown: true, allowed: false, reportRecorded: true))
        #expect(!WeatherCitiesDriver.weatherShownFollowsAnswer(shown: false, allowed: true, reportRecorded: true))
    }
}
