import Foundation
import MetricReports
import ScenarioEngine
import SkyScoring
import Testing

@testable import FieldtestApps
@testable import FieldtestData

@Suite("SkyScape driver")
struct SkyScapeDriverTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The worked example of `Scenarios/README.md` (the YAML block of scenario `demo`), without its sweep.
    static func readmeExample() throws -> Scenario {
        let readme = try String(contentsOf: repo.appendingPathComponent("Scenarios/README.md"), encoding: .utf8)
        let block = try #require(
            readme.components(separatedBy: "```yaml\n").dropFirst()
                .compactMap { $0.components(separatedBy: "```").first }.first { $0.contains("name: demo\n") })
        let manifest = try DatasetManifest(root: repo.appendingPathComponent("Datasets"))
        var s = try ScenarioLoader(manifest: manifest).parse(block, file: "README.md")
        s.sweep = nil
        return s
    }

    func run(_ s: Scenario) throws -> [MetricRow] {
        let store = DatasetStore(manifest: try DatasetManifest(root: Self.repo.appendingPathComponent("Datasets")))
        return try ScenarioRunner.run(
            ScenarioRunner.cases(of: s), jobs: 1, runID: "t", datasets: store,
            apps: .bundled
        ).flatMap(\.rows)
    }

    /// Each behaviour check is traced as it happens, at its virtual time, beside the end-of-run rows.
    @Test func behaviourChecksAreTracedAsTheyHappen() throws {
        let s = try Self.readmeExample()
        let store = DatasetStore(manifest: try DatasetManifest(root: Self.repo.appendingPathComponent("Datasets")))
        let result = try #require(
            try ScenarioRunner.run(ScenarioRunner.cases(of: s), jobs: 1, runID: "t", datasets: store, apps: .bundled)
                .first)
        let checks = result.trace.events.filter { $0.metric == "check" }
        #expect(!checks.isEmpty)
        #expect(checks.allSatisfy { $0.time >= s.start && $0.time <= s.end && ($0.value == 1) == ($0.status == .pass) })
        #expect(
            Set(checks.map(\.requirement)).isSubset(of: Set(result.rows.map(\.requirement)) + ["SKY-F1", "SKY-S1"]))
    }

    @Test func readmeExampleMeasuresSunTimesAndPasses() throws {
        let rows = try run(try Self.readmeExample())
        let max = try #require(rows.first { $0.requirement == "SKY-P2" && $0.metric == "sun_event_abs_error_max" })
        #expect(max.samples > 0)
        #expect(max.threshold == 120)
        #expect(max.status == .pass)
        #expect(rows.allSatisfy { $0.status != .fail }, "\(rows.filter { $0.status == .fail })")
    }

    /// The SPA reference is computed: a date no table ever held (June 2018 minus eleven days) is
    /// measured like any other.
    @Test func sunTimesAreMeasuredOnAnyDate() throws {
        var s = try Self.readmeExample()
        s.start -= 11 * 86_400
        let rows = try run(s)
        for metric in ["sun_event_abs_error_max", "sun_event_abs_error_mean"] {
            let row = try #require(rows.first { $0.requirement == "SKY-P2" && $0.metric == metric })
            #expect(row.samples > 0 && row.value < 30, "\(metric)")
        }
        #expect(!rows.contains { $0.requirement == "SKY-P2" && $0.status == .fail })
    }

    /// Places given by coordinates anywhere (Nuuk, Greenland: no bundled place nearby was ever in a
    /// reference table), their zone from the nearest place; sun times and reminders are measured.
    @Test func placesByCoordinatesAreMeasured() throws {
        let manifest = try DatasetManifest(root: Self.repo.appendingPathComponent("Datasets"))
        let home = "{name: Home, latitude: 64.1835, longitude: -51.7216}"
        let yaml = """
            version: 1
            name: coords
            app: skyscape
            seed: 3
            time: {start: 2023-01-24T06:00:00Z, duration: 1d, timezone: America/Chicago}
            datasets: [noaa-lcd-lincoln-2023, world-cities, us-cities]
            devices:
              - name: phone
            actors:
              - name: ana
                device: phone
                actions:
                  - {at: 1m, do: add-favourite, place: \(home)}
                  - {at: 2m, do: view-details, place: \(home)}
                  - {at: 3m, do: set-reminder, place: \(home), event: sunset, day: 0}
            feeds:
              - {kind: weather-refresh, every: 5m, dataset: noaa-lcd-lincoln-2023}
            requirements: [SKY-P2, SKY-M1, SKY-F1]
            """
        let rows = try run(try ScenarioLoader(manifest: manifest).parse(yaml, file: "coords.yaml"))
        let p2 = try #require(rows.first { $0.requirement == "SKY-P2" && $0.metric == "sun_event_abs_error_max" })
        #expect(p2.samples >= 2 && p2.status == .pass)
        let m1 = try #require(rows.first { $0.requirement == "SKY-M1" && $0.metric == "reminder_abs_error_max" })
        #expect(m1.samples == 1 && m1.status == .pass)
        #expect(!rows.contains { $0.status == .fail }, "\(rows.filter { $0.status == .fail })")
        // A zone that is not IANA is an error at its line.
        let bad = yaml.replacingOccurrences(
            of: "place: {name: Home, latitude: 64.1835, longitude: -51.7216}, event",
            with: "place: {name: Home, latitude: 64.1835, longitude: -51.7216, timezone: WGST}, event")
        #expect(bad != yaml)
        #expect {
            try run(try ScenarioLoader(manifest: manifest).parse(bad, file: "coords.yaml"))
        } throws: { "\($0)".contains("coords.yaml:15: error: time zone 'WGST'") }
    }

    /// A distance sort without a position is reported, not counted as a passing SKY-S1 check.
    @Test func distanceSortWithoutAPositionIsNotAPassingCheck() throws {
        let manifest = try DatasetManifest(root: Self.repo.appendingPathComponent("Datasets"))
        let text = try String(
            contentsOf: Self.repo.appendingPathComponent("Scenarios/skyscape-lincoln.yaml"), encoding: .utf8)
        let noPosition = text.replacingOccurrences(
            of: "    position: {latitude: 40.8136, longitude: -96.7026}\n", with: "")
        #expect(noPosition != text)
        func s1(_ yaml: String) throws -> (checks: Int, unchecked: Double?) {
            var s = try ScenarioLoader(manifest: manifest).parse(yaml, file: "lincoln.yaml")
            s.duration = 2 * 3600
            for i in s.devices.indices {
                s.devices[i].connectivity = s.devices[i].connectivity.filter { $0.at < s.duration }
            }
            let rows = try run(s)
            let mismatches = try #require(
                rows.first { $0.requirement == "SKY-S1" && $0.metric == "behaviour_mismatches" })
            #expect(mismatches.value == 0)
            return (
                mismatches.samples,
                rows.first { $0.requirement == "SKY-S1" && $0.metric == "distance_sorts_without_position" }?.value
            )
        }
        let with = try s1(text)
        let without = try s1(noPosition)
        #expect(with.unchecked == nil)
        #expect(without.unchecked == 1)  // the sort at 11m
        #expect(without.checks == with.checks - 1)
    }

    static func place(_ id: Int, _ name: String, population: Int) -> Place {
        Place(
            geonameID: id, name: name, countryCode: "US", admin1: "NE", latitude: 40.8, longitude: -96.7,
            population: population, timeZone: "America/Chicago")
    }

    @Test func searchRuleFlagsMissingOrWrongResultsAgainstABruteForceRecount() {
        let places = [
            Self.place(1, "Lincoln", population: 290_000), Self.place(2, "Lincoln", population: 7_000),
            Self.place(3, "Lincolnton", population: 11_000),
        ]
        let lincoln = places[0]
        let small = places[1]
        let lincolnton = places[2]
        let oracle = SearchRuleOracle(places: places)
        // Right: the most populous exact name first; nothing at all for a name no place starts with.
        #expect(
            SkyScapeDriver.searchFollowsRule(query: "lincoln", hits: [lincoln, small], message: nil, oracle: oracle))
        #expect(
            SkyScapeDriver.searchFollowsRule(query: "Qwxzzy", hits: [], message: "No results found", oracle: oracle))
        // Wrong: no results for a known place, a smaller namesake or a longer name first, a wrong message.
        #expect(
            !SkyScapeDriver.searchFollowsRule(query: "Lincoln", hits: [], message: "No results found", oracle: oracle))
        #expect(
            !SkyScapeDriver.searchFollowsRule(query: "Lincoln", hits: [small, lincoln], message: nil, oracle: oracle))
        #expect(!SkyScapeDriver.searchFollowsRule(query: "Lincoln", hits: [lincolnton], message: nil, oracle: oracle))
        #expect(
            !SkyScapeDriver.searchFollowsRule(query: "Lincolnt", hits: [], message: "No results found", oracle: oracle))
        #expect(!SkyScapeDriver.searchFollowsRule(query: "Qwxzzy", hits: [], message: "No result", oracle: oracle))
    }

    @Test func calendarRuleFlagsAWrongWindowOrAMissingQuality() {
        let loc = SavedLocation(place: Self.place(1, "Lincoln", population: 290_000))
        let today = CivilDate(daysSinceEpoch: 19_381)  // 2023-01-24
        let calendar = SkyCalendar(location: loc)
        let cell = calendar.select(today, today: today, samples: [])
        #expect(SkyScapeDriver.calendarFollowsRule(cell, dayOffset: 0, weatherRecorded: false))
        #expect(
            SkyScapeDriver.calendarFollowsRule(
                .message(SkyMessage.noPredictionsYet), dayOffset: 8, weatherRecorded: true))
        #expect(
            SkyScapeDriver.calendarFollowsRule(
                .message(SkyMessage.informationExpired), dayOffset: -31, weatherRecorded: true))
        // A cell shown 8 days ahead, a message one day too early, the other message, a day without its quality.
        #expect(!SkyScapeDriver.calendarFollowsRule(cell, dayOffset: 8, weatherRecorded: false))
        #expect(
            !SkyScapeDriver.calendarFollowsRule(
                .message(SkyMessage.informationExpired), dayOffset: -30, weatherRecorded: true))
        #expect(
            !SkyScapeDriver.calendarFollowsRule(
                .message(SkyMessage.informationExpired), dayOffset: 9, weatherRecorded: true))
        #expect(!SkyScapeDriver.calendarFollowsRule(cell, dayOffset: 0, weatherRecorded: true))
    }

    @Test func reminderWarningRuleFlagsAWarningThatDisagreesWithTheQuality() {
        let message = "Low chance of a visible sunrise/sunset on the selected day."
        #expect(SkyScapeDriver.reminderWarningFollowsRule(message, qualityPct: 10, thresholdPct: 25))
        #expect(SkyScapeDriver.reminderWarningFollowsRule(nil, qualityPct: 25, thresholdPct: 25))
        #expect(SkyScapeDriver.reminderWarningFollowsRule(nil, qualityPct: nil, thresholdPct: 25))
        #expect(!SkyScapeDriver.reminderWarningFollowsRule(nil, qualityPct: 10, thresholdPct: 25))
        #expect(!SkyScapeDriver.reminderWarningFollowsRule(message, qualityPct: 80, thresholdPct: 25))
        #expect(!SkyScapeDriver.reminderWarningFollowsRule("Low chance", qualityPct: 10, thresholdPct: 25))
    }

    @Test func remindersAndCalendarOfTheLincolnScenarioAreCheckedOnTheAppsCalendar() throws {
        let manifest = try DatasetManifest(root: Self.repo.appendingPathComponent("Datasets"))
        let s = try ScenarioLoader(manifest: manifest).load(
            Self.repo.appendingPathComponent("Scenarios/skyscape-lincoln.yaml"))
        let rows = try run(s)
        let search = try #require(rows.first { $0.requirement == "SKY-F1" && $0.metric == "behaviour_mismatches" })
        #expect(search.samples == 7 && search.value == 0)
        let calendar = try #require(rows.first { $0.requirement == "SKY-C1" && $0.metric == "behaviour_mismatches" })
        #expect(calendar.samples == 5 && calendar.value == 0)
        let warnings = try #require(rows.first { $0.requirement == "SKY-M1" && $0.metric == "behaviour_mismatches" })
        #expect(warnings.samples == 2 && warnings.value == 0)
        let reminder = try #require(rows.first { $0.requirement == "SKY-M1" && $0.metric == "reminder_abs_error_max" })
        #expect(reminder.samples == 2 && reminder.value > 0 && reminder.value <= 60)
    }
}
