import FieldtestData
import Foundation
import MetricReports
import ScenarioEngine
import Testing

@testable import FieldtestApps

@Suite("miCity driver")
struct MiCityDriverTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The committed scenario, cut to its first `minutes` to keep the test fast.
    func scenario(_ file: String, minutes: Double) throws -> Scenario {
        var s = try ScenarioLoader(datasetNames: nil).load(Self.repo.appendingPathComponent("Scenarios/" + file))
        s.duration = minutes * 60
        for i in s.devices.indices { s.devices[i].connectivity = s.devices[i].connectivity.filter { $0.at < s.duration } }
        return s
    }

    func run(_ s: Scenario) throws -> [MetricRow] {
        let store = DatasetStore(manifest: try DatasetManifest(root: Self.repo.appendingPathComponent("Datasets")))
        return try ScenarioRunner.run(ScenarioRunner.cases(of: s), jobs: 1, runID: "t", datasets: store,
                                      driver: AppDrivers.factory).flatMap(\.rows)
    }

    func value(_ rows: [MetricRow], _ req: String, _ metric: String) -> Double? {
        rows.first { $0.requirement == req && $0.metric == metric }?.value
    }

    @Test func cityDayIngestsClassifiesAndChecksExactly() throws {
        let s = try scenario("micity-city-day.yaml", minutes: 30)
        let rows = try run(s)
        // 30 min / 80 s → fetches at 0, 80, …, 1760 s: 23 full batches of 100, none skipped or repeated.
        #expect(value(rows, "MIC-12", "tweets_classified") == 2300)
        #expect(value(rows, "MIC-12", "batches_not_100") == 0)
        #expect(value(rows, "MIC-12", "tweets_skipped_or_duplicated") == 0)
        #expect(value(rows, "MIC-12", "fetch_period_p50") == 80)
        // The shipped model on the first 2,300 airline tweets (in-sample): pos/neg accuracy well above 0.83.
        let acc = try #require(value(rows, "MIC-14", "posneg_accuracy"))
        #expect(acc > 0.85 && acc <= 1)
        let f1 = try #require(value(rows, "MIC-14", "macro_f1"))
        #expect(f1 > 0.6 && f1 < 1)
        for (req, metric) in [("MIC-15", "mood_mismatches"), ("MIC-16", "word_cloud_mismatches"), ("MIC-25", "listing_mismatches"),
                              ("MIC-30", "weather_fields_missing"), ("MIC-34", "favourites_mismatches"),
                              ("MIC-55", "difficulty_not_monotone")] {
            let row = try #require(rows.first { $0.requirement == req && $0.metric == metric })
            #expect(row.value == 0, "\(req) \(metric)")
            #expect(row.samples > 0, "\(req) \(metric) made no checks")
        }
        // 15 requests per 15 minutes allowed; one every 80 s uses at most 12 per window.
        let perWindow = try #require(value(rows, "MIC-NF6", "max_requests_per_window"))
        #expect(perWindow >= 11 && perWindow <= 15)
        #expect(rows.filter { $0.kind != .latency }.allSatisfy { $0.status != .fail })
    }

    @Test func sameSeedGivesIdenticalNonLatencyRows() throws {
        let s = try scenario("micity-city-day.yaml", minutes: 12)
        let a = MetricsCSV.render(try run(s).filter { $0.kind != .latency })
        let b = MetricsCSV.render(try run(s).filter { $0.kind != .latency })
        #expect(a == b)
        #expect(a.contains("MIC-15,mood_mismatches"))
    }

    @Test func rateGuardNeverLetsABurstExceedTheWindow() {
        var guardian = WindowRateGuard(limit: 5, window: 900, origin: 0, maxAttempts: 2)
        var sent: [Double] = []
        for i in 0..<40 {
            let t = Double(i) * 30
            for _ in 0..<3 where guardian.mayRequest(at: t) {
                guardian.record(attempts: 2, at: t)
                sent.append(t)
            }
        }
        // Room for two 2-attempt requests per 900 s window (4 ≤ 5 < 6).
        let perWindow = Dictionary(grouping: sent) { Int($0 / 900) }.mapValues(\.count)
        #expect(perWindow.values.allSatisfy { $0 == 2 })
        #expect(perWindow.count == 2)
        guardian.tooManyRequests(resetAt: 2_000)
        let blocked = !guardian.mayRequest(at: 1_900)
        let next = guardian.nextAllowed(after: 1_900)
        #expect(blocked)
        #expect(next == 2_000)
    }

    @Test func difficultyIsMonotoneAndMoodTiesGoToNeutral() {
        #expect(CityMood.difficulty(score: -1) == 1)
        #expect(CityMood.difficulty(score: 0) == 3)
        #expect(CityMood.difficulty(score: 1) == 5)
        let mood = CityMood(counts: [4, 4, 2], at: 0)
        #expect(mood.label == .neutral)
        #expect(abs(mood.confidence - 0.4) < 1e-12)
        #expect(abs(mood.score - (-0.2)) < 1e-12)
    }
}
