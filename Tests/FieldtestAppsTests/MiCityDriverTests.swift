import FieldtestData
import FieldtestTestSupport
import Foundation
import MetricReports
import ScenarioEngine
import Testing
import TweetSentiment

@testable import FieldtestApps

@Suite("miCity driver")
struct MiCityDriverTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The committed scenario, cut to its first `minutes` to keep the test fast.
    func scenario(_ file: String, minutes: Double) throws -> Scenario {
        var s = try ScenarioLoader(datasetNames: nil).load(Self.repo.appendingPathComponent("Scenarios/" + file))
        s.duration = minutes * 60
        for i in s.devices.indices {
            s.devices[i].connectivity = s.devices[i].connectivity.filter { $0.at < s.duration }
        }
        return s
    }

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

    /// A run that fails in `start` (a tweet feed pointed at a campus map) leaves no
    /// temporary folder (device caches, app database) behind.
    @Test func failedStartLeavesNoTemporaryFolder() throws {
        let text = try String(
            contentsOf: Self.repo.appendingPathComponent("Scenarios/micity-rate-limit.yaml"), encoding: .utf8
        )
        .replacingOccurrences(of: "datasets: [airline-tweets,", with: "datasets: [campus-quito, airline-tweets,")
        .replacingOccurrences(of: "dataset: airline-tweets, size", with: "dataset: campus-quito, size")
        let s = try ScenarioLoader(datasetNames: nil).parse(text, file: "rate-limit.yaml")
        let store = DatasetStore(manifest: try DatasetManifest(root: Self.repo.appendingPathComponent("Datasets")))
        let driver = try AppRegistry.bundled.makeDriver(for: s)
        let folders = driver.temporaryFolders
        #expect(folders.count == 1)
        #expect(throws: (any Error).self) {
            try driver.start(RunContext(scenario: s, datasets: store, requirements: MiCityDefinition.requirements))
        }
        for folder in folders {
            #expect(!FileManager.default.fileExists(atPath: folder.path), "\(folder.path) left behind")
        }
    }

    /// Actions the schema accepts but miCity cannot perform meaningfully (weather without a
    /// recording, a listing without class or word, adding a place no dataset lists) stop the run with an
    /// error naming the file, the line and what to add, instead of counting as requirement failures.
    @Test func actionsMiCityCannotPerformAreInputErrors() throws {
        let cityDay = try String(
            contentsOf: Self.repo.appendingPathComponent("Scenarios/micity-city-day.yaml"), encoding: .utf8)
        let noWeatherFeed = cityDay.replacingOccurrences(
            of: "  - {kind: weather-refresh, every: 10m, dataset: noaa-lcd-lincoln-2023}\n", with: "")
        let bareListing = cityDay.replacingOccurrences(
            of: "{at: 7m, every: 30m, do: list-tweets, class: positive}",
            with: "{at: 7m, every: 30m, do: list-tweets}")
        let unknownPlace = cityDay.replacingOccurrences(
            of: "{at: 12m, do: add-place, name: Waverly}", with: "{at: 12m, do: add-place, name: Waverley}")
        let noPlaces = cityDay.replacingOccurrences(
            of: "noaa-lcd-lincoln-2023, us-cities]", with: "noaa-lcd-lincoln-2023]")
        // Denver, about 710 km from the Lincoln station the scenario replays.
        let farWeather = cityDay.replacingOccurrences(
            of: "do: weather, latitude: 40.8136, longitude: -96.7026}",
            with: "do: weather, latitude: 39.7392, longitude: -104.9903}")
        #expect(
            noWeatherFeed != cityDay && bareListing != cityDay && unknownPlace != cityDay && noPlaces != cityDay
                && farWeather != cityDay)
        let store = DatasetStore(manifest: try DatasetManifest(root: Self.repo.appendingPathComponent("Datasets")))
        for (text, message) in [
            (
                noWeatherFeed,
                "city-day.yaml:62: error: actor 'maya': the 'weather' action needs recorded weather; add a feed such as"
            ),
            (
                bareListing,
                "city-day.yaml:48: error: actor 'maya': 'list-tweets' needs 'class' (positive, negative or neutral) or 'word'"
            ),
            (
                unknownPlace,
                "city-day.yaml:55: error: actor 'maya': 'add-place': no place named 'Waverley' in the places datasets"
            ),
            (
                noPlaces,
                "city-day.yaml:54: error: actor 'maya': 'add-place' needs a places dataset; add a GeoNames places table (US places or world cities) to 'datasets'"
            ),
            (farWeather, "city-day.yaml:62: error: actor 'maya': the 'weather' action at (39.7392, -104.9903) is 7"),
        ] {
            let s = try ScenarioLoader(datasetNames: nil).parse(text, file: "city-day.yaml")
            let driver = try AppRegistry.bundled.makeDriver(for: s)
            let error = #expect(throws: (any Error).self) {
                try driver.start(RunContext(scenario: s, datasets: store, requirements: MiCityDefinition.requirements))
            }
            #expect(error.map { "\($0)" }?.contains(message) == true, "\(error.map { "\($0)" } ?? "no error")")
        }
    }

    @Test func cityDayIngestsClassifiesAndChecksExactly() throws {
        let s = try scenario("micity-city-day.yaml", minutes: 30)
        let rows = try run(s)
        // 30 min / 80 s → fetches at 0, 80, …, 1760 s: 23 full batches of 100, none skipped or repeated.
        #expect(value(rows, "MIC-12", "tweets_classified") == 2300)
        #expect(value(rows, "MIC-12", "batches_not_100") == 0)
        #expect(value(rows, "MIC-12", "tweets_skipped_or_duplicated") == 0)
        #expect(value(rows, "MIC-12", "fetch_period_p50") == 80)
        // MIC-14 scores only the replayed tweets of the evaluation share, which the shipped model never saw.
        let airline = try AirlineTweetsLoader.load(
            url: Self.repo.appendingPathComponent("Datasets/tweets/airline_Tweets.csv")
        ).records
        let reserved = airline.prefix(2300).filter { EvaluationShare.contains($0.text) }
        #expect(reserved.count > 150 && reserved.count < 320)  // about one in ten
        let accuracyRow = try #require(rows.first { $0.requirement == "MIC-14" && $0.metric == "accuracy" })
        #expect(accuracyRow.samples == reserved.count)
        let posNeg = try #require(rows.first { $0.requirement == "MIC-14" && $0.metric == "posneg_accuracy" })
        #expect(posNeg.samples == reserved.filter { $0.sentiment != .neutral }.count)
        #expect(posNeg.value > 0.85 && posNeg.value <= 1)
        let f1 = try #require(value(rows, "MIC-14", "macro_f1"))
        #expect(f1 > 0.5 && f1 < 1)
        for (req, metric) in [
            ("MIC-15", "mood_mismatches"), ("MIC-16", "word_cloud_mismatches"), ("MIC-25", "listing_mismatches"),
            ("MIC-30", "weather_fields_missing"), ("MIC-34", "favourites_mismatches"),
            ("MIC-55", "difficulty_not_monotone"),
        ] {
            let row = try #require(rows.first { $0.requirement == req && $0.metric == metric })
            #expect(row.value == 0, "\(req) \(metric)")
            #expect(row.samples > 0, "\(req) \(metric) made no checks")
        }
        // 15 requests per 15 minutes allowed; one every 80 s uses at most 12 per window.
        let perWindow = try #require(value(rows, "MIC-NF6", "max_requests_per_window"))
        #expect(perWindow >= 11 && perWindow <= 15)
        #expect(rows.filter { $0.kind != .latency }.allSatisfy { $0.status != .fail })
    }

    /// MIC-NF1 tells the two designs apart: with ingest in the background user actions keep their
    /// latency; an app that fetches on the main thread makes the actions that fall during a fetch
    /// wait for the network and the classification, and fails the requirement.
    @Test func mainThreadIngestFailsMicNF1() throws {
        func cityDay(ingest: String) throws -> Scenario {
            let text = try String(
                contentsOf: Self.repo.appendingPathComponent("Scenarios/micity-city-day.yaml"), encoding: .utf8
            )
            .replacingOccurrences(of: "  mood_window: 1h\n", with: "  mood_window: 1h\n  ingest: \(ingest)\n")
            var s = try ScenarioLoader(datasetNames: nil).parse(text, file: "city-day.yaml")
            #expect(s.parameters["ingest"]?.string == ingest)
            s.duration = 30 * 60
            s.devices[0].connectivity = []
            return s
        }
        let b = try run(try cityDay(ingest: "background"))
        let m = try run(try cityDay(ingest: "main-thread"))
        let ratio = { (rows: [MetricRow]) in
            try #require(rows.first { $0.requirement == "MIC-NF1" && $0.metric == "p95_ratio_with_vs_without" })
        }
        #expect(try ratio(b).status == .pass)
        #expect(try ratio(b).value <= 1.10)
        #expect(try ratio(m).status == .fail)
        #expect(try ratio(m).value > 1.10)
        // The view-mood action every 160 s starts with a fetch: with main-thread ingest it waits, in the background it does not.
        let waitedInBackground = try #require(value(b, "MIC-NF1", "actions_waiting_for_main_thread"))
        let waitedOnMain = try #require(value(m, "MIC-NF1", "actions_waiting_for_main_thread"))
        #expect(waitedOnMain >= 11)
        #expect(waitedInBackground < waitedOnMain)
        // Everything else is measured the same way.
        #expect(value(b, "MIC-12", "tweets_classified") == value(m, "MIC-12", "tweets_classified"))
    }

    @Test func editingAFavouriteChangesOnlyItsNote() throws {
        let path = TemporaryFiles.url("micity-store.sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try MiCityStore(path: path)
        let lincoln = FavouritePlace(
            name: "Lincoln", latitude: 40.8136, longitude: -96.7026, note: "NE, US", savedAt: 100)
        try store.save(lincoln)
        #expect(try store.updateNote(name: "Lincoln", note: "Capitol; Haymarket"))
        var edited = lincoln
        edited.note = "Capitol; Haymarket"
        #expect(try store.favourites() == [edited])
        // A place that is not a favourite is not made one by an edit.
        #expect(try store.updateNote(name: "Waverly", note: "x") == false)
        #expect(try store.favourites() == [edited])
    }

    @Test func skippedOrDuplicatedTweetsLeavePagesStillOwedOut() {
        let pages = { (starts: [Int]) in starts.flatMap { Array($0..<($0 + 10)) } }
        #expect(MiCityDriver.skippedOrDuplicated(pages([0, 10, 20]), outstandingPages: [], pageSize: 10) == 0)
        // Page 10 never came: ten tweets skipped.
        #expect(MiCityDriver.skippedOrDuplicated(pages([0, 20]), outstandingPages: [], pageSize: 10) == 10)
        // Page 10 is still owed at the end (requeued or on its way): nothing skipped.
        #expect(MiCityDriver.skippedOrDuplicated(pages([0, 20]), outstandingPages: [10], pageSize: 10) == 0)
        // Page 10 twice: ten duplicates.
        #expect(MiCityDriver.skippedOrDuplicated(pages([0, 10, 10, 20]), outstandingPages: [], pageSize: 10) == 10)
        #expect(MiCityDriver.skippedOrDuplicated([], outstandingPages: [0], pageSize: 10) == 0)
    }

    @Test func waitingForTheMainThreadFollowsBusyStretches() {
        let busy: [(start: Double, end: Double)] = [(10, 12), (11.5, 13), (20, 21)]
        #expect(MiCityDriver.mainThreadWait(at: 9, busy: busy) == 0)
        #expect(MiCityDriver.mainThreadWait(at: 10, busy: busy) == 3)  // through the overlapping stretch
        #expect(MiCityDriver.mainThreadWait(at: 12.5, busy: busy) == 0.5)
        #expect(MiCityDriver.mainThreadWait(at: 13, busy: busy) == 0)  // the end is free
        #expect(MiCityDriver.mainThreadWait(at: 20.25, busy: busy) == 0.75)
    }

    @Test func sameSeedGivesIdenticalNonLatencyRows() throws {
        let s = try scenario("micity-city-day.yaml", minutes: 12)
        let a = MetricsCSV.render(try run(s).filter { $0.kind != .latency })
        let b = MetricsCSV.render(try run(s).filter { $0.kind != .latency })
        #expect(a == b)
        #expect(a.contains("MIC-15,mood_mismatches"))
    }

    @Test func rateLimitSqueezeStaysUnderTheLimitWithoutA429() throws {
        // 6 requests per 15 min, a fetch wanted every 80 s plus 2 pulls to refresh each time,
        // 10 % packet loss and a 7-minute drop at 20 min.
        let s = try scenario("micity-rate-limit.yaml", minutes: 45)
        let rows = try run(s)
        let perWindow = try #require(value(rows, "MIC-NF6", "max_requests_per_window"))
        #expect(perWindow >= 5 && perWindow <= 6)
        #expect(value(rows, "MIC-NF6", "answers_429") == 0)
        // Burst 1 (6 − ⌈900/80⌉ < 1): a pull to refresh would always take the next fetch's token.
        let refused = try #require(value(rows, "MIC-NF6", "burst_requests_refused"))
        #expect(refused >= 2 * 30)
        #expect(try #require(value(rows, "MIC-NF6", "fetches_offline")) > 0)
        // One token per 180 s: regular fetches 180 s apart (a lost answer doubles one gap).
        let p50 = try #require(value(rows, "MIC-12", "fetch_period_p50"))
        #expect(abs(p50 - 180) < 1e-6)
        #expect(value(rows, "MIC-12", "tweets_skipped_or_duplicated") == 0)
        #expect(value(rows, "MIC-12", "batches_not_100") == 0)
        #expect(value(rows, "MIC-15", "mood_mismatches") == 0)
        #expect(rows.filter { $0.kind != .latency }.allSatisfy { $0.status != .fail })
    }

    @Test func clientAssumingTooHighALimitBacksOffAfterEach429() throws {
        // The client believes in 12 requests per window, the API allows 6: the 7th request of a
        // window is refused, and the client waits for the window's reset before trying again.
        let text = try String(
            contentsOf: Self.repo.appendingPathComponent("Scenarios/micity-rate-limit.yaml"), encoding: .utf8
        )
        .replacingOccurrences(of: "  rate_limit: 6\n", with: "  rate_limit: 6\n  client_rate_limit: 12\n")
        #expect(text.contains("client_rate_limit: 12"))
        let url = TemporaryFiles.url("micity-backoff.yaml")
        try text.write(to: url, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        var s = try ScenarioLoader(datasetNames: nil).load(url)
        s.duration = 45 * 60
        s.devices[0].connectivity = []
        let rows = try run(s)
        // Windows [0, 15m), [15m, 30m), [30m, 45m): each gets 6 answered requests and one refused,
        // plus one more refusal for each 429 answer lost on the 10 %-loss link (the client never saw it).
        let refused = try #require(value(rows, "MIC-NF6", "answers_429"))
        let lost = try #require(value(rows, "MIC-NF6", "fetches_lost"))
        #expect(refused >= 3 && refused <= 3 + lost)
        let perWindow = try #require(value(rows, "MIC-NF6", "max_requests_per_window"))
        #expect(perWindow >= 7 && perWindow <= 7 + lost)
        #expect(value(rows, "MIC-12", "tweets_skipped_or_duplicated") == 0)
        #expect(value(rows, "MIC-15", "mood_mismatches") == 0)
    }

    /// A run that outlasts its recorded stream (TweetEval: 2,000 tweets, pages of 300) stops fetching
    /// when the recording is used up: the short last page and the end of the replay are no MIC-12 failure.
    @Test func usedUpRecordingIsNotABatchFailure() throws {
        let text = try String(
            contentsOf: Self.repo.appendingPathComponent("Scenarios/micity-city-day.yaml"), encoding: .utf8
        )
        .replacingOccurrences(of: "dataset: airline-tweets, size: 100", with: "dataset: tweeteval-val-text, size: 300")
        .replacingOccurrences(
            of: "datasets: [airline-tweets,", with: "datasets: [tweeteval-val-text, tweeteval-val-labels,")
        #expect(text.contains("dataset: tweeteval-val-text, size: 300"))
        var s = try ScenarioLoader(datasetNames: nil).parse(text, file: "used-up.yaml")
        s.duration = 20 * 60
        s.devices[0].connectivity = []
        let rows = try run(s)
        // Fetches at 0, 80, …, 480 s: six pages of 300 and the last 200 tweets; from 560 s to 1200 s,
        // nine deliveries find nothing left and send no request.
        #expect(value(rows, "MIC-12", "tweets_classified") == 2000)
        #expect(value(rows, "MIC-12", "batches_not_300") == 0)
        #expect(rows.first { $0.metric == "batches_not_300" }?.samples == 7)
        #expect(value(rows, "MIC-12", "tweets_skipped_or_duplicated") == 0)
        let usedUp = try #require(rows.first { $0.requirement == "MIC-12" && $0.metric == "recording_used_up_at" })
        #expect(usedUp.value == 560)
        #expect(usedUp.samples == 9)
        #expect(value(rows, "MIC-NF6", "max_requests_per_window") == 7)
        #expect(rows.filter { $0.kind != .latency }.allSatisfy { $0.status != .fail })
    }

    @Test func bucketSustainsTheFeedWhenTheLimitAllowsIt() {
        // Tolerance 1e-12: small exact ratios.
        let day = MiCityDriver.bucket(limit: 15, windowSeconds: 900, period: 80, at: 0)
        #expect(abs(day.capacity - 3) < 1e-12)
        #expect(abs(day.refillPerSecond * 900 - 12) < 1e-12)
        let squeeze = MiCityDriver.bucket(limit: 6, windowSeconds: 900, period: 80, at: 0)
        #expect(abs(squeeze.capacity - 1) < 1e-12)
        #expect(abs(1 / squeeze.refillPerSecond - 180) < 1e-9)
        // Whatever the bucket, capacity + refill · window equals the limit.
        for (limit, period) in [(15, 80.0), (6, 80.0), (180, 5.0), (2, 900.0)] {
            let b = MiCityDriver.bucket(limit: limit, windowSeconds: 900, period: period, at: 0)
            #expect(abs(b.capacity + b.refillPerSecond * 900 - Double(limit)) < 1e-9)
        }
        // A period so short that window / period overflows Int: one request per period cannot be sustained (burst 1).
        let tiny = MiCityDriver.bucket(limit: 15, windowSeconds: 31_622_400, period: 1e-300, at: 0)
        #expect(tiny.capacity == 1)
        #expect(abs(tiny.capacity + tiny.refillPerSecond * 31_622_400 - 15) < 1e-6)
    }
}
