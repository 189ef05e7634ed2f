import CampusRouting
import FieldtestData
import Foundation
import MetricReports
import Positioning
import Testing

@testable import FieldtestApps
@testable import ScenarioEngine

@Suite("NavUP driver")
struct NavUPDriverTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A short day on the Montgomery campus: a class change at 12:30 with 150 walkers.
    static let quickDay = """
        version: 1
        name: navup-quick
        app: navup
        seed: 4
        time: {start: 2026-03-02T12:00:00Z, duration: 40m, timezone: America/New_York}
        datasets: [campus-montgomery]
        parameters: {campus: campus-montgomery, class_change_period: 1h, ping_retention: 10m}
        devices:
          - {name: phone, network: lte, permissions: {location: granted, consent: false}}
        actors:
          - name: ana
            device: phone
            actions:
              - {at: 25m, every: 1m, count: 5, do: random-routes, routes: 2}
              - {at: 1m, do: search-venue, queries: 30}
              - {at: 10m, do: consent, granted: true}
              - {at: 30m, do: consent, granted: false}
              - {at: 20m, do: write-congestion, role: mobile}
              - {at: 21m, do: write-congestion, role: admin}
              - {at: 22m, do: set-goal, steps: 300}
              - {at: 23m, do: walk, duration: 4m, pace: normal}
              - {at: 33m, do: emergency, from: "Science Center", profile: wheelchair}
        feeds:
          - {kind: crowd-pings, every: 30s, people: 150}
          - {kind: campus-events, every: 10m, count: 5}
        requirements: [NAV-F3, NAV-F4, NAV-F5, NAV-F7, NAV-F18, NAV-F22, NAV-F26, NAV-F29, NAV-PR1]
        """

    func run(_ s: Scenario) throws -> [MetricRow] {
        let store = DatasetStore(manifest: try DatasetManifest(root: Self.repo.appendingPathComponent("Datasets")))
        return try ScenarioRunner.run(
            ScenarioRunner.cases(of: s), jobs: 1, runID: "t", datasets: store,
            apps: .bundled
        ).flatMap(\.rows)
    }

    func value(_ rows: [MetricRow], _ req: String, _ metric: String) -> Double? {
        rows.first { $0.requirement == req && $0.metric == metric }?.value
    }

    @Test func quickDayMeasuresEveryListedRequirement() throws {
        let s = try ScenarioLoader(datasetNames: nil).parse(Self.quickDay, file: "quick.yaml")
        let rows = try run(s)
        #expect(!rows.contains { $0.metric == "not_measured" })
        // Prefixes and one-typo names of 30 venues: the intended venue is in the top 5 nearly always.
        let hit = try #require(value(rows, "NAV-F3", "top5_hit_rate"))
        #expect(hit >= 0.9 && hit <= 1)
        // Regret is a ratio ≥ 0; fresh congestion keeps it small.
        let regret = try #require(value(rows, "NAV-F4", "regret_online_p95"))
        #expect(regret >= 0 && regret <= 0.1)
        // The 50 m heat map of GPS pings follows the walkers' true positions.
        let r = try #require(value(rows, "NAV-F7", "heatmap_50m_correlation"))
        #expect(r > 0.5 && r <= 1.000001)  // Pearson r; 1e-6 for rounding
        // One mobile write refused, the admin's accepted.
        #expect(value(rows, "NAV-F26", "mobile_writes_denied") == 1)
        #expect(value(rows, "NAV-F26", "write_rights_errors") == 0)
        // Four minutes of normal walking is about 4 × 60 × 1.8 steps; the detector is within 5 %.
        let steps = try #require(value(rows, "NAV-F22", "steps_true_total"))
        #expect(steps > 350 && steps < 520)
        #expect(try #require(value(rows, "NAV-F22", "step_count_error_max")) <= 0.05)
        for (req, metric) in [
            ("NAV-F5", "expired_events_shown"), ("NAV-F5", "event_listing_mismatches"),
            ("NAV-F18", "wrong_wheelchair_evacuations"), ("NAV-F29", "goal_notice_errors"),
            ("NAV-PR1", "pings_stored_without_consent"), ("NAV-PR1", "data_left_after_withdrawal"),
            ("NAV-PR1", "pings_past_retention"),
        ] {
            let row = try #require(rows.first { $0.requirement == req && $0.metric == metric })
            #expect(row.value == 0, "\(req) \(metric)")
            #expect(row.samples > 0, "\(req) \(metric) made no checks")
        }
        // With only 150 walkers the heat-map agreement (0.58) is below the 0.8 that the 600-walker teaching day meets.
        #expect(rows.filter { $0.kind != .latency && $0.requirement != "NAV-F7" }.allSatisfy { $0.status != .fail })
    }

    @Test func sameSeedGivesIdenticalNonLatencyRows() throws {
        var s = try ScenarioLoader(datasetNames: nil).parse(Self.quickDay, file: "quick.yaml")
        s.duration = 30 * 60
        let a = MetricsCSV.render(try run(s).filter { $0.kind != .latency })
        let b = MetricsCSV.render(try run(s).filter { $0.kind != .latency })
        #expect(a == b)
    }

    @Test func committedWheelchairScenarioUsesNoForbiddenEdge() throws {
        var s = try ScenarioLoader(datasetNames: nil).load(
            Self.repo.appendingPathComponent("Scenarios/navup-wheelchair.yaml"))
        s.duration = 25 * 60
        let rows = try run(s)
        let forbidden = try #require(rows.first { $0.requirement == "NAV-F15" && $0.metric == "forbidden_edges_used" })
        #expect(forbidden.value == 0)
        #expect(forbidden.samples > 0)
        // Minutes 1, 3, …, 25: 13 × 5 random routes, one named route and two evacuations (20 and 25 min).
        #expect(value(rows, "NAV-F15", "wheelchair_routes") == 68)
        #expect(value(rows, "NAV-F18", "wrong_wheelchair_evacuations") == 0)
    }

    /// Hit rates are deterministic agreement with the reference, so they are `accuracy` rows:
    /// a baseline check flags any drop (0.945 → 0.935 used to pass as a 5 % `rate`).
    @Test func hitRatesAreAccuracyAndRegressOnAnyDrop() throws {
        var s = try ScenarioLoader(datasetNames: nil).load(
            Self.repo.appendingPathComponent("Scenarios/navup-positioning.yaml"))
        s.duration = 10 * 60
        let rows = try run(s)
        let hitRates = rows.filter { $0.metric.hasSuffix("hit_rate") }
        #expect(
            hitRates.map(\.metric) == [
                "indoor_building_hit_rate", "indoor_floor_hit_rate",
                "indoor_new_phone_building_hit_rate", "indoor_new_phone_floor_hit_rate",
            ])
        #expect(hitRates.allSatisfy { $0.kind == .accuracy })
        let floor = try #require(rows.first { $0.metric == "indoor_floor_hit_rate" })
        var worse = floor
        worse.value = floor.value - 0.01
        #expect(BaselineCheck.compare(current: [worse], baseline: [floor]).regressions.count == 1)
        let quick = try run(try ScenarioLoader(datasetNames: nil).parse(Self.quickDay, file: "quick.yaml"))
        #expect(quick.first { $0.metric == "top5_hit_rate" }?.kind == .accuracy)
    }

    /// A threshold override naming a metric NAV-F18 does not report stops the run with an
    /// error listing the metrics it does report, instead of loosening another row.
    @Test func overrideOfAnUnreportedMetricIsAnError() throws {
        let text = try String(
            contentsOf: Self.repo.appendingPathComponent("Scenarios/navup-wheelchair.yaml"), encoding: .utf8
        )
        .replacingOccurrences(of: "  - NAV-F18", with: "  - {id: NAV-F18, threshold: 5, metric: nonexistent_metric}")
        var s = try ScenarioLoader(datasetNames: nil).parse(text, file: "wheelchair.yaml")
        s.duration = 21 * 60
        let error = try #require(throws: ThresholdOverrideError.self) { try run(s) }
        #expect(
            error.file == "wheelchair.yaml" && error.requirement == "NAV-F18" && error.metric == "nonexistent_metric")
        #expect(error.reported.contains("wrong_wheelchair_evacuations"))
    }

    @Test func coordinatesThatAreNotOnEarthAreAnErrorNotATrap() throws {
        // The loader rejects such texts; the driver must not trap on them either.
        for text in ["nan,nan", "1e999,0", "91,0", "0,181"] {
            var s = try ScenarioLoader(datasetNames: nil).parse(Self.quickDay, file: "quick.yaml")
            s.duration = 34 * 60
            let i = try #require(s.actors[0].actions.firstIndex { $0.kind == "emergency" })
            let action = s.actors[0].actions[i]
            s.actors[0].actions = [action]
            s.actors[0].actions[0].parameters = LocatedValue(
                value: .object([
                    ("do", LocatedValue(value: .string("emergency"), line: 0, column: 0)),
                    ("from", LocatedValue(value: .string(text), line: 0, column: 0)),
                ]), line: action.line, column: 0)
            s.feeds = []
            #expect(throws: NavUPDriverError.self, "\(text)") { try run(s) }
        }
    }

    @Test func unknownPlaceIsAnError() throws {
        let text = Self.quickDay.replacingOccurrences(of: "from: \"Science Center\"", with: "from: \"Nowhere Hall\"")
        let s = try ScenarioLoader(datasetNames: nil).parse(text, file: "quick.yaml")
        #expect(throws: NavUPDriverError.self) { try run(s) }
    }

    // MARK: Checks that must be able to fail

    /// Runs `s` keeping the driver, for tests that look inside it or tamper with a phone.
    func drive(_ s: Scenario, before: (NavUPDriver, Scenario) -> Void = { _, _ in }) throws -> (
        NavUPDriver, [MetricRow], MetricCollector
    ) {
        let store = DatasetStore(manifest: try DatasetManifest(root: Self.repo.appendingPathComponent("Datasets")))
        let context = RunContext(scenario: s, datasets: store, requirements: NavUPDefinition.requirements)
        let driver = NavUPDriver()
        try driver.start(context)
        ScenarioTimeline.schedule(context, driver: driver)
        before(driver, s)
        context.simulation.run()
        try driver.finish(context)
        let rows = context.metrics.rows(
            template: MetricRow.Template(scenario: s.name, runID: "t", seed: s.seed, requirement: ""),
            requirements: s.requirements)
        return (driver, rows, context.metrics)
    }

    /// A listed requirement the scenario never exercises is `not_measured` (no verdict), not a pass
    /// with zero checks (ten NAV requirements used to pass that way).
    @Test func unexercisedRequirementsAreNotMeasured() throws {
        let text = """
            version: 1
            name: navup-idle
            app: navup
            seed: 1
            time: {start: 2026-03-02T12:00:00Z, duration: 10m, timezone: America/New_York}
            datasets: [campus-montgomery]
            parameters: {campus: campus-montgomery}
            devices:
              - {name: phone, network: lte, permissions: {location: granted, consent: true}}
            actors:
              - {name: ana, device: phone, actions: [{at: 1m, do: consent, granted: true}]}
            requirements: [NAV-F2, NAV-F3, NAV-F4, NAV-F5, NAV-F7, NAV-F9, NAV-F15, NAV-F18, NAV-F19, NAV-F21, NAV-F22, NAV-F26, NAV-F29, NAV-L1, NAV-PR1]
            """
        let rows = try run(try ScenarioLoader(datasetNames: nil).parse(text, file: "idle.yaml"))
        for req in [
            "NAV-F2", "NAV-F3", "NAV-F4", "NAV-F5", "NAV-F7", "NAV-F9", "NAV-F15", "NAV-F18", "NAV-F19", "NAV-F21",
            "NAV-F22", "NAV-F26", "NAV-F29", "NAV-L1", "NAV-PR1",
        ] {
            let own = rows.filter { $0.requirement == req }
            #expect(!own.isEmpty && own.allSatisfy { $0.status == .notMeasured || $0.status == .info }, "\(req)")
        }
        #expect(!rows.contains { $0.status == .pass || $0.status == .fail })
    }

    /// NAV-PR1: a phone that records locations before the user consents is caught on the phone, even
    /// though the server (which refuses the pings) never stores one.
    @Test func phoneCollectingBeforeConsentFailsPR1() throws {
        var s = try ScenarioLoader(datasetNames: nil).load(
            Self.repo.appendingPathComponent("Scenarios/navup-teaching-day.yaml"))
        s.duration = 40 * 60
        let (_, rows, _) = try drive(s) { driver, s in driver.devices["student-phone"]?.consent.give(at: s.start) }
        let phone = try #require(rows.first { $0.metric == "phone_records_without_consent" })
        #expect(phone.value > 0 && phone.status == .fail)
        #expect(value(rows, "NAV-PR1", "pings_stored_without_consent") == 0)
        let (_, honest, _) = try drive(s)
        #expect(value(honest, "NAV-PR1", "phone_records_without_consent") == 0)
    }

    /// NAV-F3: a typed query's expected answers come from the venue names it begins, not from the
    /// search under test: a misspelt name begins none, so finding a venue for it is a miss; a text
    /// that begins no name expects the not-found prompt.
    @Test func typedQueryIsJudgedAgainstTheNamesItBegins() throws {
        let names = ["Science Center", "Science West Building", "Music Building"]
        #expect(NavUPDriver.namesBegun(by: "sci", among: names) == ["Science Center", "Science West Building"])
        #expect(NavUPDriver.namesBegun(by: "West b", among: names) == ["Science West Building"])
        #expect(NavUPDriver.namesBegun(by: "Scince", among: names).isEmpty)
        func hitRate(_ query: String) throws -> Double? {
            let text = Self.quickDay.replacingOccurrences(
                of: "{at: 1m, do: search-venue, queries: 30}",
                with: "{at: 1m, do: search-venue, query: \"\(query)\"}")
            return value(
                try run(try ScenarioLoader(datasetNames: nil).parse(text, file: "quick.yaml")), "NAV-F3",
                "top5_hit_rate")
        }
        #expect(try hitRate("Music") == 1)
        #expect(try hitRate("Scince Centre") == 0)  // the fuzzy search finds Science Center: not what the text names
        #expect(try hitRate("qqqqqqqq") == 1)  // nothing found: the prompt
    }

    /// NAV-F5: the app's listing comes from `RouteSurroundings`; the independent distance agrees with
    /// the core's geometry, and listed events are never expired.
    @Test func eventsAlongRoutesComeFromTheCoreAndAreChecked() throws {
        let a = GeoPoint(latitude: 39.095, longitude: -77.155)
        let b = GeoPoint(latitude: 39.098, longitude: -77.151)
        let line = [a, GeoPoint(latitude: 39.0962, longitude: -77.1538), b]
        var worst = 0.0
        for k in 0..<400 {
            let p = GeoPoint(latitude: 39.094 + Double(k % 20) * 0.0003, longitude: -77.157 + Double(k / 20) * 0.0004)
            worst = max(
                worst, abs(NavUPDriver.sphericalMetres(from: p, to: line) - Geodesy.distanceToPolyline(p, line).metres))
        }
        #expect(worst < 0.5)
        var s = try ScenarioLoader(datasetNames: nil).load(
            Self.repo.appendingPathComponent("Scenarios/navup-teaching-day.yaml"))
        s.duration = 25 * 60
        let (_, rows, _) = try drive(s)
        let listed = try #require(rows.first { $0.metric == "events_listed" })
        #expect(listed.samples > 0 && listed.value > 0)
        #expect(value(rows, "NAV-F5", "expired_events_shown") == 0)
        #expect(value(rows, "NAV-F5", "event_listing_mismatches") == 0)
        #expect(value(rows, "NAV-F5", "poi_listing_mismatches") == 0)
    }

    /// NAV-F29: a ranking with the right order but wrong ranks, a missing user or a wrong score is caught.
    @Test func rankingCheckLooksAtTheRanks() {
        let scores = ["a": 30.0, "b": 20, "c": 20, "d": 5]
        let good = StepGoals.rank(
            scores.keys.sorted().map { StepGoals.Entry(user: $0, score: scores[$0] ?? 0) }, by: .score)
        #expect(good.map(\.rank) == [1, 2, 2, 4])
        #expect(NavUPDriver.rankingErrors(good, scores: scores) == 0)
        var allFirst = good
        for i in allFirst.indices { allFirst[i].rank = 1 }
        #expect(NavUPDriver.rankingErrors(allFirst, scores: scores) == 3)  // b, c and d
        #expect(NavUPDriver.rankingErrors(Array(good.dropLast()), scores: scores) == 1)
        var wrongScore = good
        wrongScore[0].score = 31
        #expect(NavUPDriver.rankingErrors(wrongScore, scores: scores) == 1)
    }

    /// NAV-F22: statistics over time are checked period by period, so steps put in the wrong hour fail.
    @Test func stepStatisticsAreCheckedPerPeriod() {
        let steps = [3590.0, 3595, 3605, 7300].map { StepEvent(timeSeconds: $0, lengthMetres: 0.7) }
        let stats = StepStatistics(events: steps, periodSeconds: 3600)
        #expect(NavUPDriver.statisticsErrors(stats, events: steps, periodSeconds: 3600) == 0)
        var shifted = stats
        shifted.periods[0].steps -= 1
        shifted.periods[1].steps += 1
        #expect(shifted.totalSteps == stats.totalSteps)
        #expect(NavUPDriver.statisticsErrors(shifted, events: steps, periodSeconds: 3600) == 2)
    }

    /// NAV-F4: contested requests are ones where congestion decides the route, so routing them
    /// without congestion data has positive regret on every one of them.
    @Test func contestedRequestsDependOnCongestion() throws {
        var s = try ScenarioLoader(datasetNames: nil).load(
            Self.repo.appendingPathComponent("Scenarios/navup-teaching-day.yaml"))
        s.duration = 90 * 60  // both class changes (at the first, the diffuse crowd never changes the app's routes)
        let (_, rows, metrics) = try drive(s)
        let blindOnline = metrics.recordedSamples("NAV-F4", "regret_online_without_congestion_p95")
        let regretOnline = metrics.recordedSamples("NAV-F4", "regret_online_p95")
        #expect(blindOnline.count >= 100)
        #expect(blindOnline.filter { $0 == 0 }.count == 1)  // only the agent's named route is not contested
        // On these requests, fresh congestion data lowers the regret a congestion-free route has.
        let mean = { (v: [Double]) in v.reduce(0, +) / Double(max(1, v.count)) }
        #expect(mean(regretOnline) < mean(blindOnline), "\(mean(regretOnline)) vs \(mean(blindOnline))")
        // The row that says so: 0 for an app that routes as if there were no crowd.
        let saved = try #require(value(rows, "NAV-F4", "regret_saved_by_fresh_congestion_mean"))
        #expect(saved > 0 && saved <= 1)
        // Routes now start and end at the projected points, so the partial edges every route shares
        // dilute the ratio: the blind p95 is about 0.05 (0.16 with vertex snapping), still above the
        // congestion-aware p95.
        let blind = try #require(value(rows, "NAV-F4", "regret_online_without_congestion_p95"))
        #expect(blind > 0 && blind >= (value(rows, "NAV-F4", "regret_online_p95") ?? .infinity))
    }

    /// NAV-F2: offline, the app answers from the map on the phone: a phone that was never online has
    /// none, so its offline routes and searches fail; the committed walk keeps it through a reboot.
    @Test func offlineWithoutADownloadedMapFailsF2() throws {
        let text = Self.quickDay.replacingOccurrences(
            of: "  - {name: phone, network: lte, permissions: {location: granted, consent: false}}",
            with:
                "  - {name: phone, network: lte, permissions: {location: granted, consent: false}, connectivity: [{at: 0s, state: offline}]}"
        )
        .replacingOccurrences(of: "requirements: [NAV-F3,", with: "requirements: [NAV-F2, NAV-F3,")
        let rows = try run(try ScenarioLoader(datasetNames: nil).parse(text, file: "quick.yaml"))
        let failures = try #require(rows.first { $0.metric == "offline_failures" })
        #expect(failures.value == Double(failures.samples) && failures.samples == 10 + 30 && failures.status == .fail)
        let walk = try run(
            try ScenarioLoader(datasetNames: nil).load(
                Self.repo.appendingPathComponent("Scenarios/navup-offline-walk.yaml")))
        let offline = try #require(walk.first { $0.metric == "offline_failures" })
        #expect(offline.value == 0 && offline.samples > 100)
    }

    /// NAV-F15: a "no route" answer is checked by an independent search; a made-up one for a pair
    /// that is connected is wrong.
    @Test func wrongNoRouteIsCaught() throws {
        var s = try ScenarioLoader(datasetNames: nil).load(
            Self.repo.appendingPathComponent("Scenarios/navup-wheelchair.yaml"))
        s.duration = 5 * 60
        let (driver, rows, _) = try drive(s)
        #expect(value(rows, "NAV-F15", "wrong_no_route") == 0)
        let campus = try #require(driver.campus)
        let p = campus.wheelchair
        var router = AStarRouter()
        let found = try #require(
            campus.venues.indices.lazy.compactMap { a -> Route? in
                let r = router.route(
                    in: campus.graph, from: campus.venues[a].location,
                    to: campus.venues[(a + 1) % campus.venues.count].location, profile: p)
                return r.status == .ok && !r.steps.isEmpty ? r : nil
            }.first)
        #expect(
            driver.answerIsRight(found, from: found.points[0], to: found.points[found.points.count - 1], profile: p))
        let madeUp = Route.failed(
            .noRoute, profile: "wheelchair", from: found.fromVertex, to: found.toVertex,
            fromSnap: found.fromSnap, toSnap: found.toSnap)
        #expect(
            !driver.answerIsRight(madeUp, from: found.points[0], to: found.points[found.points.count - 1], profile: p))
    }

    /// NAV-F9/NAV-F18: evacuations that start on an exit (empty routes, no routing) are counted; the
    /// committed scenarios start most evacuations where a route is needed.
    @Test func evacuationsStartingAtAnExitAreCounted() throws {
        let rows = try run(
            try ScenarioLoader(datasetNames: nil).load(
                Self.repo.appendingPathComponent("Scenarios/navup-emergency.yaml")))
        #expect(value(rows, "NAV-F9", "evacuations_starting_at_exit") == 1)
        #expect(rows.first { $0.metric == "invalid_emergency_routes" }?.samples == 11)
        #expect(value(rows, "NAV-F18", "wheelchair_evacuations_starting_at_exit") == 0)
    }
}
