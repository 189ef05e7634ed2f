import Capabilities
import DeviceEmulation
import FieldtestData
import FieldtestGSL
import Foundation
import MetricReports
import ScenarioEngine
import SkyScoring
import TweetSentiment

/// Drives miCity (micity-srs.txt) through a scenario: every `tweet-batch`
/// delivery fetches a batch from the core's `EmulatedTweetAPI` replaying a
/// recorded labelled stream with a request limit per window, through a
/// `RateLimitedClient` (token bucket, back-off on "too many requests");
/// classifies it with the shipped default sentiment model, stores it in the
/// app's SQLite database and updates the core's `CityMood` and
/// `EmotionWordCloud` over a rolling window; users view the mood, the word
/// cloud, tweet lists (`TweetListing`), nearby places, favourites, the weather
/// (replayed NOAA LCD observations) and the game (`GameDifficulty`).
///
/// Reports MIC-12, MIC-14, MIC-15, MIC-16, MIC-25, MIC-30, MIC-34, MIC-55,
/// MIC-NF1, MIC-NF4 and MIC-NF6. Ingest is asynchronous by default (fetch and
/// classification off the main thread): a user action waits only while the main
/// thread merges a classified batch. With the parameter `ingest: main-thread` the
/// whole fetch (network, classification, merge) holds the main thread, and so does
/// each weather refresh's download, as an app that fetched synchronously would. MIC-NF1 compares each action's latency with
/// the ingest running (network + wait for the main thread + measured compute)
/// against the same action without it (the same network draw and compute, no wait).
///
/// Tweet requests make one attempt each (no transport-level retry): a lost
/// request is retried by the next fetch, through the token bucket, so every
/// attempt that can reach the API has spent a token and the API never receives
/// more than its limit in any window.
public final class MiCityDriver: AppDriver, EventErrorKeeping {
    /// The app's metric keys (`MiCityDefinition.Metric`), as the driver records them.
    typealias Metric = MiCityDefinition.Metric

    /// Default tweets per request (Func_12).
    static let defaultBatchSize = 100
    /// Default API budget: Twitter API v1.1 search, 15 requests per 15-minute window.
    static let defaultRateLimit = 15
    static let defaultRateWindow = 900.0
    static let defaultMoodWindow = 3600.0
    /// How far from its station a recorded weather file stands for the weather, metres.
    static let recordedWeatherRadius = 50_000.0
    /// Cached weather answers live this long, seconds.
    static let weatherTimeToLive = 600.0
    /// Bytes of one tweet in an API answer (JSON with metadata), for the emulated download.
    static let bytesPerTweet = 2_500

    var folder = EmulatedDevices.temporaryFolder()
    var devices: [String: Device] = [:]
    var store: MiCityStore?
    var model: SentimentModel?
    /// What classifies the tweets: the shipped model, or the scenario's external system.
    var sentiment: (any SentimentSystem)?
    /// The external sentiment system, when the scenario chose one.
    var externalSentiment: ExternalSystem?
    var api: EmulatedTweetAPI?
    var client: RateLimitedClient?
    /// Human labels of the replayed stream, by stream position.
    var streamLabels: [SentimentLabel] = []
    /// Which labelled tweets MIC-14 scores: all of them, but those the system under test trained on.
    var scoring = TweetScoring.everyTweet
    /// The device's network with single-attempt requests, and its own draws, for the tweet API.
    var tweetLink: NetworkLink?
    var tweetRNG: RandomStream?
    var mood = CityMood(windowSeconds: defaultMoodWindow)
    var cloud = EmotionWordCloud(lexicon: .empty)
    var weather: RecordedWeatherProvider?
    var places: [Place] = []
    var failure: (any Error)?

    // Ingest state.
    var nextOffset = 0
    var missingPages: [Int] = []
    var fetchStarts: [Double] = []
    /// Per classified batch: tweets delivered and tweets the recording still held for that page
    /// (the requested size, fewer only for the page cut by the end of the recording).
    var batchSizes: [(delivered: Int, available: Int)] = []
    /// Virtual time (seconds) of the first fetch that found the recording used up, if any.
    var recordingEndedAt: Double?
    /// Fetches not sent because the recording had no tweet left to replay.
    var fetchesAfterRecordingEnd = 0
    var requestedSize = defaultBatchSize
    var deliveryPeriod = 80.0
    var confusion = ConfusionMatrix()
    var binaryRight = 0
    var binaryTotal = 0
    /// Every classified tweet (id = stream position), in classification order.
    var classified: [ClassifiedTweet] = []
    var fetchesDeferred = 0
    var fetchesOffline = 0
    var fetchesLost = 0
    var burstDenied = 0
    var pendingRegular = false
    var fetchesPaced = 0
    var inFlight: [(start: Double, end: Double)] = []
    /// Stream positions of pages answered but not yet arrived (each page once per answer in flight).
    var pagesInFlight: [Int] = []
    /// Whether a fetch and its classification hold the main thread (`ingest: main-thread`).
    var ingestOnMainThread = false
    /// When ingest held the main thread (virtual seconds, end excluded): merging each batch, or
    /// with `ingest: main-thread` the whole fetch. Known only once a batch is merged, so the
    /// actions' waits are worked out when the run ends.
    var mainThreadBusy: [(start: Double, end: Double)] = []
    /// Each user action: when it started, and its network and compute time (seconds).
    var actionTimes: [(at: Double, network: Double, compute: Double)] = []

    /// Where the checks go (set in `start`).
    var metrics = MetricCollector()
    /// A fault to inject into the weather the app shows, for the checks' own tests; nil in runs.
    var weatherShownFault: ((inout WeatherReport) -> Void)?

    /// The device the feeds arrive on (the scenario's first).
    var feedDevice: Device?

    // User state.
    var lastNearby: [Place] = []
    var favourites: [String: FavouritePlace] = [:]
    var shownWeather: WeatherReport?

    public init() {}

    // MARK: Start

    public func start(_ run: RunContext) throws {
        metrics = run.metrics
        // Reported for every run that lists them, whether or not a user acted.
        metrics.declare(Metric.actionsDuringIngest)
        metrics.declare(Metric.actionsWaitingForMainThread)
        let s = run.scenario
        devices = try EmulatedDevices.make(for: run, cacheFolder: folder)
        store = try MiCityStore(path: folder.appendingPathComponent("micity.sqlite").path)
        let modelURL = run.datasets.url(path: "models/" + SentimentModelFile.defaultFileName)
        model = try run.datasets.cached("micity-model") {
            try SentimentModelFile.load(modelURL, displayName: DatasetManifest.display(modelURL))
        }
        mood = CityMood(windowSeconds: run.number("mood_window", default: Self.defaultMoodWindow))
        cloud = EmotionWordCloud(lexicon: model?.featurizer.lexicon ?? .empty)
        externalSentiment = try SystemSelection.start(.sentiment, run: run)
        let chosen =
            try SystemSelection.inProcessSentiment(run: run) ?? externalSentiment.map { ExternalSentimentSystem($0) }
        sentiment = chosen ?? model
        // The shipped model is scored only on tweets it never trained on; another system on every tweet.
        if chosen == nil {
            scoring = try run.datasets.cached("micity-trained-texts") {
                try TweetScoring.shippedModel(indexAt: TrainedTextIndex.url(besideModel: modelURL))
            }
            run.metrics.note("MIC-14: \(scoring.description)")
        }
        places = try Self.loadPlaces(run)
        let limit = s.parameters["rate_limit"]?.int ?? Self.defaultRateLimit
        let window = run.number("rate_window", default: Self.defaultRateWindow)
        guard window > 0, window.isFinite else {
            throw EmulatedDevices.BuildError(
                description: "\(s.file): error: 'parameters.rate_window' must be longer than zero")
        }
        guard let feedDevice = s.devices.first.flatMap({ devices[$0.name] }) else {
            throw EmulatedDevices.BuildError(description: "\(s.file): error: miCity needs a device")
        }
        for feed in s.feeds {
            switch feed.kind {
            case "tweet-batch":
                guard let dataset = feed.parameters["dataset"]?.string else {
                    throw EmulatedDevices.BuildError(
                        description: "\(s.file): error: a 'tweet-batch' feed needs 'dataset': a labelled tweet file")
                }
                let stream = try Self.loadStream(dataset, run: run)
                streamLabels = stream.map(\.label)
                api = EmulatedTweetAPI(
                    stream: stream.enumerated().map { RecordedTweet(id: String($0.offset), text: $0.element.text) },
                    requestLimit: limit, windowSeconds: window, windowOriginSeconds: s.start, loops: false)
                deliveryPeriod = feed.every
                // The limit the client assumes: the API's unless a scenario sets a wrong one to exercise the back-off.
                let assumed = s.parameters["client_rate_limit"]?.int ?? limit
                client = RateLimitedClient(
                    bucket: Self.bucket(limit: assumed, windowSeconds: window, period: feed.every, at: s.start))
                var link = feedDevice.network
                link.retry.maxAttempts = 1
                tweetLink = link
                tweetRNG = run.stream("micity-tweet-api")
                requestedSize = feed.parameters["size"]?.int ?? Self.defaultBatchSize
                ingestOnMainThread = s.parameters["ingest"]?.string == "main-thread"
                self.feedDevice = feedDevice
            case "weather-refresh":
                guard let loaded = try Self.loadWeather(feed, run) else { continue }
                weather = loaded
                self.feedDevice = feedDevice
            default:
                continue
            }
        }
        for actor in s.actors {
            guard devices[actor.device] != nil else {
                throw EmulatedDevices.BuildError(
                    description: "\(s.file): error: actor '\(actor.name)' uses unknown device '\(actor.device)'")
            }
            for action in actor.actions {
                if let problem = Self.inputProblem(action, weather: weather, places: places) {
                    throw EmulatedDevices.BuildError(
                        description: "\(s.file):\(action.line): error: actor '\(actor.name)': \(problem)")
                }
            }
        }
    }

    // MARK: Timeline (scheduled by the engine)

    public func restart(device: String, at time: Double, _ run: RunContext) {
        guarded { try devices[device]?.restart(at: time) }
    }

    /// A `tweet-batch` delivery (with its `burst` of extra requests) or a weather refresh
    /// at the first device's position.
    public func deliver(_ feed: FeedSpec, at time: Double, _ run: RunContext) {
        guard let feedDevice else { return }
        switch feed.kind {
        case "tweet-batch":
            let burst = feed.parameters["burst"]?.int ?? 0
            guarded { try deliver(run, device: feedDevice, burst: burst, at: time) }
        case "weather-refresh" where feed.parameters["dataset"]?.string != nil:
            let position = run.scenario.devices.first?.position.map {
                GeoPoint(latitude: $0.latitude, longitude: $0.longitude)
            }
            guarded { try refreshWeather(device: feedDevice, position: position, at: time) }
        default:
            return
        }
    }

    public func perform(_ action: ActionSpec, actor: Int, at time: Double, _ run: RunContext) {
        let name = run.scenario.actors[actor].device
        guard let device = devices[name] else { return }
        let spec = run.scenario.devices.first { $0.name == name }
        guarded { try perform(action, run: run, device: device, spec: spec, at: time) }
    }

    /// What is wrong with an action that the schema accepts but miCity cannot perform
    /// meaningfully, with how to fix it; nil when it is fine. Without these checks a
    /// `weather` action with no recorded weather would count as a MIC-30 failure, and a
    /// `list-tweets` without a class or a word would add a query that never ran to MIC-NF4,
    /// an `add-place` of a place no dataset lists would save nothing, leaving MIC-34 unmeasured,
    /// and a `weather` action far from the recorded station would be served that station's weather.
    static func inputProblem(_ action: ActionSpec, weather: RecordedWeatherProvider?, places: [Place]) -> String? {
        switch action.kind {
        case "add-place":
            let name = action.parameters["name"]?.string ?? ""
            guard !places.contains(where: { $0.name == name }) else { return nil }
            return places.isEmpty
                ? "'add-place' needs a places dataset; add a GeoNames places table (US places or world cities) to 'datasets'"
                : "'add-place': no place named '\(name)' in the places datasets; use a name they list (as spelt there)"
        case "weather":
            guard let weather else {
                return "the 'weather' action needs recorded weather; add a feed such as "
                    + "'{kind: weather-refresh, every: 10m, dataset: <an LCD or TMY recording>}'"
            }
            let latitude = action.parameters["latitude"]?.double ?? 0
            let longitude = action.parameters["longitude"]?.double ?? 0
            let metres = PlacesLoader.greatCircleMetres(latitude, longitude, weather.latitude, weather.longitude)
            guard metres > Self.recordedWeatherRadius else { return nil }
            return String(
                format: "the 'weather' action at (%.4f, %.4f) is %.0f km from the recorded station at (%.4f, %.4f); "
                    + "recorded weather stands for %.0f km around its station: ask for a point within that, or replay a station near it",
                latitude, longitude, metres / 1000, weather.latitude, weather.longitude,
                Self.recordedWeatherRadius / 1000)
        case "list-tweets" where action.parameters["class"] == nil && action.parameters["word"] == nil:
            return "'list-tweets' needs 'class' (positive, negative or neutral) or 'word' (the word to look for)"
        default:
            return nil
        }
    }

    /// The client's token bucket: never more than `limit` requests in any interval of
    /// `windowSeconds`, with the largest sustained rate that still covers one request
    /// per delivery `period` when the limit allows it (burst `limit − ⌈window/period⌉`,
    /// at least 1). City day: 15 per 900 s, one per 80 s → burst 3, one token per 75 s;
    /// rate-limit squeeze: 6 per 900 s → burst 1, one token per 180 s.
    static func bucket(limit: Int, windowSeconds: Double, period: Double, at start: Double) -> TokenBucket {
        // Requests one per period needs in a window; at least `limit` (burst 1) when that
        // many or more, so a tiny period or a huge window never overflows `Int`.
        let ratio = (windowSeconds / period).rounded(.up)
        let needed = period > 0 && ratio.isFinite && ratio < Double(limit) ? Int(ratio) : limit
        return TokenBucket.never(
            exceeding: limit, perWindowOf: windowSeconds, burst: max(1, limit - needed), startSeconds: start)
    }

    /// The recorded stream of a labelled tweet dataset, in file order: any layout
    /// `LabelledTweetStream` recognises from the file's content (airline, `text`+`label` CSV,
    /// original Sentiment140 CSV, VADER ground truth, SemEval TSV, TweetEval texts + labels).
    static func loadStream(_ name: String, run: RunContext) throws -> [LabelledTweet] {
        let url = try run.datasets.url(name)
        let loaded = try run.datasets.cached("micity-stream-" + name) { () throws -> Loaded<LabelledTweet> in
            do {
                return try LabelledTweetStream.load(url: url, displayName: DatasetManifest.display(url)).tweets
            } catch {
                throw EmulatedDevices.BuildError(
                    description: "\(String(describing: error)) (tweet-batch dataset '\(name)' in \(run.scenario.file))")
            }
        }
        try run.datasets.recordLoadReport(loaded.report, for: url)
        return loaded.records
    }
}
