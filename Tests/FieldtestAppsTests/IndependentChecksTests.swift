import AccountStore
import FieldtestData
import Foundation
import MetricReports
import ScenarioEngine
import SkyScoring
import Testing

@testable import FieldtestApps

/// Checks that compare what an app shows with an expectation of their own (the recording's rows, the
/// prompt collection), so that they fail when the app is wrong: each test runs an app with one wrong
/// behaviour injected and finds its row failing, and the same run without it passing.
@Suite("Checks independent of the app")
struct IndependentChecksTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The bundled apps, with the app called `name` built by `make` (a driver with a fault injected).
    static func registry(replacing name: String, _ make: @escaping AppDriverFactory) -> AppRegistry {
        AppRegistry(
            AppRegistry.bundled.apps.map { app in
                guard app.name == name else { return app }
                var changed = app
                changed.makeDriver = make
                return changed
            })
    }

    /// The bundled scenario `file`, cut to `hours` when given (connectivity changes after it dropped).
    static func scenario(_ file: String, hours: Double? = nil, edit: (String) -> String = { $0 }) throws -> Scenario {
        let manifest = try DatasetManifest(root: repo.appendingPathComponent("Datasets"))
        let text = try String(contentsOf: repo.appendingPathComponent("Scenarios/" + file), encoding: .utf8)
        var s = try ScenarioLoader(manifest: manifest).parse(edit(text), file: file)
        if let hours {
            s.duration = hours * 3600
            for i in s.devices.indices {
                s.devices[i].connectivity = s.devices[i].connectivity.filter { $0.at < s.duration }
            }
        }
        return s
    }

    static func run(_ s: Scenario, apps: AppRegistry = .bundled) throws -> [MetricRow] {
        let store = DatasetStore(manifest: try DatasetManifest(root: repo.appendingPathComponent("Datasets")))
        return try ScenarioRunner.run(ScenarioRunner.cases(of: s), jobs: 1, runID: "t", datasets: store, apps: apps)
            .flatMap(\.rows)
    }

    static func row(_ rows: [MetricRow], _ requirement: String, _ metric: String) throws -> MetricRow {
        try #require(rows.first { $0.requirement == requirement && $0.metric == metric }, "\(requirement) \(metric)")
    }

    // MARK: WXC-W1 and MIC-30

    static func weatherCities() throws -> Scenario {
        try scenario("weather-cities.yaml") {
            $0.replacingOccurrences(of: "search-sample, size: 400", with: "search-sample, size: 5")
        }
    }

    /// Two degrees too warm: every field is there, so counting fields (with the city's coordinates
    /// among them) passed; the temperature recorded around the moment shown says otherwise.
    @Test func weatherCitiesShowingAWrongTemperatureFailsW1AndMIC30() throws {
        let honest = try Self.run(Self.weatherCities())
        let wrong = try Self.run(
            Self.weatherCities(),
            apps: Self.registry(replacing: "weather-cities") { s in
                let driver = WeatherCitiesDriver(scenario: s)
                driver.weatherShownFault = { $0.temperatureC = $0.temperatureC.map { $0 + 2 } }
                return driver
            })
        for id in ["WXC-W1", "MIC-30"] {
            let ok = try Self.row(honest, id, "weather_values_wrong")
            #expect(ok.value == 0 && ok.samples > 0 && ok.status == .pass, "\(ok)")
            let bad = try Self.row(wrong, id, "weather_values_wrong")
            #expect(bad.value > 0 && bad.status == .fail, "\(bad)")
            #expect(try Self.row(wrong, id, "weather_fields_missing").status == .pass)
        }
    }

    /// A dropped description is a missing field, and an icon left without its description no
    /// longer says what the recording's weather was.
    @Test func weatherCitiesDroppingTheDescriptionFailsW1() throws {
        let rows = try Self.run(
            Self.weatherCities(),
            apps: Self.registry(replacing: "weather-cities") { s in
                let driver = WeatherCitiesDriver(scenario: s)
                driver.weatherShownFault = { $0.description = nil }
                return driver
            })
        let fields = try Self.row(rows, "WXC-W1", "weather_fields_missing")
        // Three required fields per view (symbol, description, temperature): one in three is missing.
        #expect(fields.status == .fail && fields.value * 3 == Double(fields.samples), "\(fields)")
        #expect(try Self.row(rows, "WXC-W1", "weather_values_wrong").status == .fail)
    }

    @Test func miCityShowingAWrongTemperatureFailsMIC30() throws {
        let s = try Self.scenario("micity-city-day.yaml", hours: 1)
        let honest = try Self.row(Self.run(s), "MIC-30", "weather_values_wrong")
        #expect(honest.value == 0 && honest.samples > 0, "\(honest)")
        let wrong = try Self.row(
            Self.run(
                s,
                apps: Self.registry(replacing: "micity") { _ in
                    let driver = MiCityDriver()
                    driver.weatherShownFault = { $0.temperatureC = $0.temperatureC.map { $0 - 3 } }
                    return driver
                }), "MIC-30", "weather_values_wrong")
        #expect(wrong.value > 0 && wrong.status == .fail, "\(wrong)")
    }

    @Test func weatherValueBracketFollowsTheRecordedRows() {
        func obs(_ t: Double, _ c: Double?) -> WeatherObservation {
            var o = WeatherObservation(timeUTC: t, sky: SkyConditions())
            o.temperatureC = c
            return o
        }
        let rows = [obs(0, 10), obs(3600, nil), obs(7200, 14), obs(20_000, 30)]
        func ok(_ v: Double?, at t: Double) -> Bool {
            RecordedWeatherChecks.valueFollowsRecording(v, \.temperatureC, in: rows, at: t)
        }
        #expect(ok(12, at: 3600))  // between 10 and 14
        #expect(!ok(15, at: 3600))
        #expect(!ok(nil, at: 3600))  // recorded, so it must be shown
        #expect(ok(14, at: 7200) && !ok(13.9, at: 7200))  // exactly the row at that time
        #expect(ok(14, at: 16_000))  // only an earlier row within reach: held
        #expect(ok(nil, at: 40_000) && !ok(30, at: 40_000))  // nothing within reach
        #expect(RecordedWeatherChecks.symbolMatchesDescription("10n", "light rain"))
        #expect(!RecordedWeatherChecks.symbolMatchesDescription("01d", "light rain"))
        #expect(!RecordedWeatherChecks.symbolMatchesDescription("04x", "broken clouds"))
    }

    // MARK: SKY-D1

    /// Humidity shown ten points off: the copy is young enough, so the age alone passed; compared
    /// with the recording at the time the copy was fetched, it fails.
    @Test func skyScapeShowingWeatherOtherThanRecordedFailsD1() throws {
        let s = try Self.scenario("skyscape-lincoln.yaml", hours: 6)
        let honest = try Self.row(Self.run(s), "SKY-D1", "shown_weather_mismatches")
        #expect(honest.value == 0 && honest.samples > 0, "\(honest)")
        let wrong = try Self.run(
            s,
            apps: Self.registry(replacing: "skyscape") { s in
                let driver = SkyScapeDriver(scenario: s)
                driver.detailsShownFault = { details, _ in details.humidityPct = details.humidityPct.map { $0 + 10 } }
                return driver
            })
        #expect(try Self.row(wrong, "SKY-D1", "weather_age_online_max").status == .pass)
        let d1 = try Self.row(wrong, "SKY-D1", "shown_weather_mismatches")
        #expect(d1.value > 0 && d1.status == .fail, "\(d1)")
    }

    // MARK: BTD-P1

    /// A catalogue that moved one prompt to another category is consistent with itself (every prompt's
    /// category is the group it is in), so checking it against itself passed; against the collection
    /// the app reads, it fails.
    @Test func journalShowingAPromptInTheWrongGroupFailsP1() throws {
        let collection = PromptCatalogue.collection
        var moved = collection
        let first = try #require(moved.first)
        let other = try #require(moved.first { $0.category != first.category })
        moved[0] = PromptCatalogue.Document(category: other.category, prompt: first.prompt)
        let wrong = PromptCatalogue(documents: moved)
        #expect(wrong.groups.allSatisfy { g in g.prompts.allSatisfy { wrong.category(of: $0) == g.category } })
        #expect(!JournalDriver.groupsFollowCollection(wrong, collection))
        #expect(JournalDriver.groupsFollowCollection(PromptCatalogue.bundled, collection))
        #expect(JournalDriver.groupsFollowCollection(PromptCatalogue(documents: collection.reversed()), collection))
        #expect(
            !JournalDriver.groupsFollowCollection(PromptCatalogue(documents: Array(collection.dropLast())), collection))

        let s = try Self.scenario("beentheredonethat-offline-sync.yaml", hours: 1)
        let honest = try Self.row(Self.run(s), "BTD-P1", "prompt_group_mismatches")
        #expect(honest.value == 0 && honest.samples > 0, "\(honest)")
        let rows = try Self.run(
            s,
            apps: Self.registry(replacing: "journal") { _ in
                let driver = JournalDriver()
                driver.prompts = wrong
                return driver
            })
        let p1 = try Self.row(rows, "BTD-P1", "prompt_group_mismatches")
        #expect(p1.value > 0 && p1.status == .fail, "\(p1)")
    }

    @Test func recommendedPromptsMustBeDistinctPromptsOfTheirCategory() {
        let collection = PromptCatalogue.collection
        let travel = collection.filter { $0.category == "Travel" }.map(\.prompt)
        let gratitude = collection.filter { $0.category == "Gratitude" }.map(\.prompt)
        #expect(JournalDriver.recommendedFollowsCollection(Array(travel.prefix(3)), category: "Travel", collection))
        #expect(!JournalDriver.recommendedFollowsCollection(Array(travel.prefix(2)), category: "Travel", collection))
        #expect(
            !JournalDriver.recommendedFollowsCollection(
                [travel[0], travel[0], travel[1]], category: "Travel", collection))
        #expect(
            !JournalDriver.recommendedFollowsCollection(
                [travel[0], travel[1], gratitude[0]], category: "Travel", collection))
    }
}
