import FieldtestData
import Foundation
import Testing

@testable import ScenarioEngine

/// Scenarios that validate must run in bounded time and memory: the schema
/// bounds repeat counts, periods, lengths, coordinates and names.
@Suite("Scenario limits")
struct ScenarioLimitsTests {
    let loader: ScenarioLoader = {
        let manifest = try? DatasetManifest(root: ScenarioValidationTests.repo.appendingPathComponent("Datasets"))
        return ScenarioLoader(manifest: manifest!)
    }()

    func errors(_ text: String) -> [String] { loader.messages(text) }

    /// The NavUP scenario with its one action replaced by `action`.
    func navUP(action: String) -> String {
        navUPScenario.replacingOccurrences(of: "{at: 1m, do: random-routes, routes: 5}", with: action)
    }

    @Test func occurrencesAreBoundedPerScenario() throws {
        let year = navUP(action: "{at: 1m, every: 1ms, do: consent, granted: true}")
            .replacingOccurrences(of: "duration: 1h", with: "duration: 366d")
        #expect(
            errors(year) == [
                "x.yaml:18:25: error: the scenario schedules 31622340001 action occurrences and feed deliveries (31622340001 by 'actors[0].actions[0]' (do: consent)); the most is 1000000; use a longer 'every', a 'count' or 'until', or a shorter 'time.duration'"
            ])
        // A count keeps it within the bound; so does a longer period.
        #expect(errors(year.replacingOccurrences(of: "every: 1ms,", with: "every: 1ms, count: 1000,")) == [])
        #expect(errors(year.replacingOccurrences(of: "every: 1ms,", with: "every: 1m,")) == [])
        // Feeds count too, together with the actions.
        let feeds =
            navUP(action: "{at: 1m, every: 1ms, count: 900000, do: consent, granted: true}")
            + "feeds:\n  - {kind: campus-events, every: 10ms}\n"
        #expect(errors(feeds).count == 1)
        #expect(
            errors(feeds).first?.contains(
                "schedules 1260001 action occurrences and feed deliveries (900000 by 'actors[0].actions[0]' (do: consent))"
            ) == true)
        let action = try #require(
            try loader.parse(navUP(action: "{at: 1m, every: 2m, count: 3, do: consent, granted: true}"), file: "x.yaml")
                .actors.first?.actions.first)
        #expect(action.occurrenceCount(duration: 3600) == 3)
        #expect(action.offsets(duration: 3600).count == 3)
    }

    @Test func periodsMustBeLongerThanZero() {
        #expect(
            errors(navUP(action: "{at: 1m, every: 0, do: consent, granted: true}")) == [
                "x.yaml:18:25: error: 'actors[0].actions[0].every' must be longer than zero; give a period such as 90s, 5m or 1h"
            ])
        #expect(
            errors(navUPScenario + "feeds:\n  - {kind: campus-events, every: 0s}\n") == [
                "x.yaml:22:34: error: 'feeds[0].every' must be longer than zero; give a period such as 90s, 5m or 1h"
            ])
        let hang =
            navUPScenario.replacingOccurrences(
                of: "  campus: campus-quito\n", with: "  campus: campus-quito\n  class_change_period: 0s\n")
            + "feeds:\n  - {kind: crowd-pings, every: 1m, people: 5}\n"
        #expect(
            errors(hang) == [
                "x.yaml:12:24: error: 'parameters.class_change_period' must be longer than zero; give a period such as 90s, 5m or 1h"
            ])
        #expect(
            errors(hang.replacingOccurrences(of: "period: 0s", with: "period: 1s")) == [
                "x.yaml:12:24: error: 'parameters.class_change_period' is 1 s; it must be at least 600 s"
            ])
        let miCity = miCityScenario.replacingOccurrences(
            of: "  rate_limit: 6\n", with: "  rate_limit: 6\n  rate_window: 0s\n")
        #expect(
            errors(miCity) == [
                "x.yaml:12:16: error: 'parameters.rate_window' must be longer than zero; give a period such as 90s, 5m or 1h"
            ])
    }

    @Test func crowdWorkIsBounded() {
        let crowd =
            navUPScenario.replacingOccurrences(
                of: "  campus: campus-quito\n", with: "  campus: campus-quito\n  class_change_period: 10m\n"
            )
            .replacingOccurrences(of: "duration: 1h", with: "duration: 366d")
            + "feeds:\n  - {kind: crowd-pings, every: 1d, people: 20000}\n"
        #expect(errors(crowd).count == 1)
        #expect(errors(crowd).first?.contains("'feeds[0].people': 20000 people over 52705 class changes") == true)
        #expect(errors(crowd.replacingOccurrences(of: "people: 20000", with: "people: 100")) == [])
    }

    @Test func workPerOccurrenceCountsTowardTheBound() {
        // A random route counts 75 times (its measured cost); 150 occurrences of 100 routes each are
        // 1,125,000 occurrences of work.
        let routes = navUP(action: "{at: 1m, every: 10s, count: 150, do: random-routes, routes: 100}")
        #expect(
            errors(routes).first?.contains(
                "schedules 1125000 action occurrences and feed deliveries (1125000 by 'actors[0].actions[0]' (do: random-routes, each counted 7500 times for its work))"
            ) == true)
        #expect(errors(routes.replacingOccurrences(of: "routes: 100", with: "routes: 80")) == [])
    }

    /// A journal scenario whose one actor logs in `count` times, every second, at `iterations`.
    func journalLogins(_ count: Int, iterations: Int = 600_000) -> String {
        """
        version: 1
        name: x
        app: journal
        seed: 1
        time: {start: 2024-06-01T08:00:00Z, duration: 6h, timezone: UTC}
        datasets: [sentiment140-positive]
        parameters: {kdf_iterations: \(iterations)}
        devices:
          - {name: phone, gps: urban, network: lte}
        actors:
          - name: ana
            device: phone
            actions:
              - {at: 1m, do: sign-up, username: ana, email: ana@example.org, password: "Hiking-2024 fjords"}
              - {at: 2m, every: 1s, count: \(count), do: login, username: ana, password: "Hiking-2024 fjords"}
        requirements: [BTD-A1]

        """
    }

    @Test func slowKeyDerivationsAreBoundedPerScenario() {
        // 1,000 derivations at the production minimum: one sign-up and 999 logins fit, 1,000 logins do not.
        #expect(errors(journalLogins(999)) == [])
        #expect(
            errors(journalLogins(1000)) == [
                "x.yaml:15:9: error: the scenario plans 1001 'login', 'sign-up' actions at 600000 PBKDF2 iterations each; each derives a key with a slow KDF, so the most is 1000; use a longer 'every', a 'count' or 'until'"
            ])
        // More iterations per derivation allow fewer derivations.
        #expect(errors(journalLogins(100, iterations: 6_000_000)).first?.contains("so the most is 100;") == true)
        #expect(errors(journalLogins(99, iterations: 6_000_000)) == [])
    }

    @Test func actionLengthsEndWithinTheScenario() {
        #expect(
            errors(navUP(action: "{at: 1m, do: walk, duration: 300d}")) == [
                "x.yaml:18:38: error: 'actors[0].actions[0].duration' is 25920000 s; it must be at most 7200 s"
            ])
        #expect(
            errors(navUP(action: "{at: 30m, do: walk, duration: 2h}")) == [
                "x.yaml:18:39: error: 'actors[0].actions[0].duration': the walk at 1800 s lasts 7200 s and would end after the scenario (3600 s); shorten it, start it earlier or lengthen 'time.duration'"
            ])
        #expect(
            errors(navUP(action: "{at: 6m, every: 10m, do: walk, duration: 5m}")) == [
                "x.yaml:18:50: error: 'actors[0].actions[0].duration': the walk starting last at 3360 s lasts 300 s and would end after the scenario (3600 s); shorten it, start it earlier or lengthen 'time.duration'"
            ])
        #expect(errors(navUP(action: "{at: 6m, every: 10m, count: 5, do: walk, duration: 5m}")) == [])
    }

    @Test func repeatCountsHaveMaxima() {
        let cases: [(String, String)] = [
            (
                "{at: 1m, do: search-venue, queries: 2000000000}",
                "'actors[0].actions[0].queries': 2000000000 is above the maximum 100000"
            ),
            (
                "{at: 1m, do: locate, environment: indoor, samples: 2000000000}",
                "'actors[0].actions[0].samples': 2000000000 is above the maximum 3600"
            ),
            (
                "{at: 1m, do: set-goal, steps: 9223372036854775807}",
                "'actors[0].actions[0].steps': 9223372036854775807 is above the maximum 1000000"
            ),
            (
                "{at: 1m, do: random-routes, routes: 100000}",
                "'actors[0].actions[0].routes': 100000 is above the maximum 10000"
            ),
        ]
        for (action, message) in cases {
            let e = errors(navUP(action: action))
            #expect(e.count == 1 && e[0].hasSuffix(message), "\(action): \(e)")
        }
        let burst = miCityScenario.replacingOccurrences(
            of: "dataset: airline-tweets}", with: "dataset: airline-tweets, burst: 100000000}")
        #expect(errors(burst).first?.hasSuffix("'feeds[0].burst': 100000000 is above the maximum 100") == true)
        let limit = miCityScenario.replacingOccurrences(of: "rate_limit: 6", with: "rate_limit: 9223372036854775807")
        #expect(
            errors(limit) == [
                "x.yaml:11:15: error: 'parameters.rate_limit': 9223372036854775807 is above the maximum 1000000"
            ])
        // Swept values are checked against the same maxima.
        #expect(errors(miCityScenario + "sweep:\n  parameters:\n    rate_limit: [6, 9223372036854775807]\n").count == 1)
    }

    @Test func coordinateTextsMustBeFiniteAndInRange() {
        for (text, why) in [
            ("nan,nan", "'nan,nan' is not a position: latitude and longitude must be finite numbers of degrees"),
            ("1e999,0", "'1e999,0' is not a position: latitude and longitude must be finite numbers of degrees"),
            ("91,0", "latitude 91.0 in '91,0' is outside -90…90 degrees"),
            ("0,-180.5", "longitude -180.5 in '0,-180.5' is outside -180…180 degrees"),
        ] {
            let e = errors(navUP(action: "{at: 1m, do: route, from: \"\(text)\", to: \"Aulas A\"}"))
            #expect(
                e == [
                    "x.yaml:18:35: error: 'actors[0].actions[0].from': \(why); give a venue name or 'latitude,longitude' in degrees"
                ])
        }
        #expect(errors(navUP(action: "{at: 1m, do: emergency, from: \"1e999,0\"}")).count == 1)
        #expect(errors(navUP(action: "{at: 1m, do: route, from: \"-0.2,-78.5\", to: \"Aulas A\"}")) == [])
        #expect(PlaceText.read("Aulas A") == .name)
        #expect(PlaceText.read("Block 3, Room 2") == .name)
        #expect(PlaceText.read(" -0.2 , -78.5 ") == .coordinates(latitude: -0.2, longitude: -78.5))
    }

    @Test func timeZoneMustBeAnIANAName() {
        for zone in ["EST", "GMT+5", "UTC+3", "Asia/Singapur"] {
            #expect(
                errors(miCityScenario.replacingOccurrences(of: "America/Chicago", with: zone)) == [
                    "x.yaml:8:13: error: 'time.timezone': '\(zone)' is not an IANA time zone; use an IANA name such as 'Asia/Singapore', 'America/New_York' or 'UTC' (not abbreviations or offsets such as EST or GMT+5)"
                ])
        }
        for zone in ["UTC", "Etc/GMT+5", "Europe/Paris"] {
            #expect(errors(miCityScenario.replacingOccurrences(of: "America/Chicago", with: zone)) == [])
        }
    }

    @Test func ambiguousThresholdOverridesAreRejected() {
        let generic = "  - {id: MIC-12, threshold: 5}\n"
        let specific = "  - {id: MIC-12, threshold: 3, metric: tweets_classified}\n"
        let both = miCityScenario.replacingOccurrences(of: "  - MIC-12\n", with: generic + specific)
        #expect(
            errors(both) == [
                "x.yaml:25:10: error: requirement 'MIC-12' has a threshold override without 'metric:' and one with 'metric:'; which one applies to the checked metric is ambiguous; name the metric in every override of 'MIC-12'"
            ])
        #expect(errors(miCityScenario.replacingOccurrences(of: "  - MIC-12\n", with: specific + generic)).count == 1)
        #expect(
            errors(miCityScenario.replacingOccurrences(of: "  - MIC-12\n", with: specific + specific)) == [
                "x.yaml:25:10: error: requirement 'MIC-12' is listed twice"
            ])
        let twoMetrics = specific + "  - {id: MIC-12, threshold: 3, metric: other_metric}\n"
        #expect(errors(miCityScenario.replacingOccurrences(of: "  - MIC-12\n", with: twoMetrics)) == [])
    }

    @Test func namesAreAtMost100Characters() {
        let long = String(repeating: "a", count: 101)
        #expect(
            errors(miCityScenario.replacingOccurrences(of: "name: mood", with: "name: \(long)")) == [
                "x.yaml:2:7: error: 'name': the name is 101 characters long; shorten it to at most 100"
            ])
        #expect(
            errors(miCityScenario.replacingOccurrences(of: "name: mood", with: "name: \(String(long.dropFirst()))"))
                == [])
        #expect(JSONSchemaWriter.render(.bundled).contains("\"maxLength\" : 100"))
    }

    @Test func sweepLabelsNameTheSeedWhenThereAreSeveral() throws {
        let swept = try loader.parse(
            miCityScenario + "sweep:\n  parameters:\n    rate_limit: [6, 10]\n  seeds: [1, 2]\n", file: "x.yaml")
        #expect(
            ScenarioRunner.cases(of: swept).map(\.label) == [
                "mood[rate_limit=6,seed=1]", "mood[rate_limit=6,seed=2]", "mood[rate_limit=10,seed=1]",
                "mood[rate_limit=10,seed=2]",
            ])
        let seedsOnly = try loader.parse(miCityScenario + "sweep:\n  seeds: [1, 2]\n", file: "x.yaml")
        #expect(ScenarioRunner.cases(of: seedsOnly).map(\.label) == ["mood[seed=1]", "mood[seed=2]"])
        let oneSeed = try loader.parse(
            miCityScenario + "sweep:\n  parameters:\n    rate_limit: [6, 10]\n  seeds: [3]\n", file: "x.yaml")
        #expect(ScenarioRunner.cases(of: oneSeed).map(\.label) == ["mood[rate_limit=6]", "mood[rate_limit=10]"])
        #expect(ScenarioRunner.cases(of: try loader.parse(miCityScenario, file: "x.yaml")).map(\.label) == ["mood"])
    }
}
