import Capabilities
import DeviceEmulation
import FieldtestData
import Foundation
import MetricReports
import ScenarioEngine
import SkyScoring
import TweetSentiment

extension MiCityDriver {
    /// One `tweet-batch` delivery: the regular fetch plus `burst` extra requests
    /// (a user pulling to refresh), all through the client's token bucket.
    func deliver(_ run: RunContext, device: Device, burst: Int, at time: Double) throws {
        try fetch(run, device: device, regular: true, at: time)
        for _ in 0..<burst { try fetch(run, device: device, regular: false, at: time) }
    }

    /// One request for the next page of the stream (MIC-12, MIC-NF6).
    ///
    /// Pages are explicit stream offsets: a page whose answer is lost or refused goes
    /// back to the front of the queue, so no tweet is skipped and none is fetched
    /// twice. A regular fetch without a token is deferred to the token's time when
    /// that comes before the next delivery, else left to the next delivery (paced);
    /// a pull-to-refresh only spends a token when one stays for the next regular
    /// fetch, and is dropped otherwise. Offline, nothing is sent and no token spent.
    /// A "too many requests" answer makes the client back off (`RateLimitedClient`).
    /// Once every tweet of the recorded stream has been fetched, nothing is sent: the
    /// replay has run out, which says nothing about the app (MIC-12 reports when).
    func fetch(_ run: RunContext, device: Device, regular: Bool, at time: Double) throws {
        guard let api, var client, let tweetLink, var rng = tweetRNG else { return }
        guard !missingPages.isEmpty || nextOffset < api.stream.count else {
            if recordingEndedAt == nil { recordingEndedAt = time }
            fetchesAfterRecordingEnd += 1
            return
        }
        if regular {
            guard !pendingRegular, client.availableTokens(at: time) >= 1 - 1e-9 else {
                let next = client.nextAllowedSeconds(at: time)
                if !pendingRegular, next < time + deliveryPeriod, next <= run.scenario.end {
                    pendingRegular = true
                    fetchesDeferred += 1
                    run.simulation.schedule(at: next) { [unowned self] sim in
                        self.pendingRegular = false
                        self.guarded { try self.fetch(run, device: device, regular: true, at: sim.now) }
                    }
                } else {
                    fetchesPaced += 1
                }
                return
            }
        } else if client.availableTokens(at: time) < 2 - 1e-9 {
            burstDenied += 1
            return
        }
        guard device.isOnline(at: time) else {
            fetchesOffline += 1
            return
        }
        guard client.acquire(at: time) else { return }
        self.client = client
        let page = missingPages.isEmpty ? nextOffset : missingPages.removeFirst()
        if page == nextOffset { nextOffset += requestedSize }
        let outcome = tweetLink.request(
            bytes: requestedSize * Self.bytesPerTweet, uploadBytes: 600, at: time, using: &rng)
        // Every attempt is counted by the API, even one whose request may have been lost on the way.
        let answer = self.api?.fetch(from: page, count: requestedSize, at: time) ?? .unavailable
        guard outcome.delivered else {
            fetchesLost += 1
            requeue(page)
            return
        }
        switch answer {
        case .tooManyRequests(let retryAfter):
            self.client?.recordTooManyRequests(at: time, retryAfterSeconds: retryAfter)
            requeue(page)
        case .unavailable:
            requeue(page)
        case .tweets(let tweets):
            self.client?.recordSuccess()
            if regular { fetchStarts.append(time) }
            let arrival = time + outcome.latencySeconds
            inFlight.append((time, arrival))
            pagesInFlight.append(page)
            run.simulation.schedule(at: arrival) { [unowned self] sim in
                self.guarded {
                    try self.classify(
                        run, tweets, from: page, fetchedAt: time, network: outcome.latencySeconds, at: sim.now)
                }
            }
        }
    }

    func requeue(_ page: Int) {
        missingPages.append(page)
        missingPages.sort()
    }

    /// Moves the rolling window to `time`: the mood and the word cloud drop the tweets that left it.
    func advanceWindow(to time: Double) {
        cloud.remove(mood.evict(at: time))
    }

    /// Classifies a delivered batch (stream positions `first…`, requested at `fetchedAt`) off the
    /// main thread, then merges it on the main thread (database, mood, word cloud) and checks the
    /// mood (MIC-15). With `ingest: main-thread` the main thread was held from the request on.
    func classify(
        _ run: RunContext, _ tweets: [RecordedTweet], from first: Int, fetchedAt: Double, network: Double,
        at time: Double
    ) throws {
        if let k = pagesInFlight.firstIndex(of: first) { pagesInFlight.remove(at: k) }
        guard let model, let sentiment, let store else { return }
        let tokenizer = model.featurizer.tokenizer
        // End to end through the system (for an external one, the round trip to its process);
        // the app's own tokenizing for its word search and cloud is timed with it, as before.
        let (results, classifySeconds) = ComputeTimer.measure {
            let answers = sentiment.classify(tweets.map(\.text))
            return zip(tweets, answers).compactMap { t, answer -> (ClassifiedTweet, SentimentAnswer)? in
                // A tweet the system gave no answer for stays unclassified (its fault is counted).
                guard let p = answer else { return nil }
                let tokens = tokenizer.tokenize(t.text)
                return (
                    ClassifiedTweet(
                        id: t.id, text: t.text, tokens: tokens, label: p.label, score: p.score, timeSeconds: time), p
                )
            }
        }
        let batch = results.map(\.0)
        let (reading, mergeSeconds) = try ComputeTimer.measure { () throws -> MoodReading in
            let rows = batch.enumerated().map {
                StoredTweet(
                    index: Int($0.element.id) ?? first + $0.offset, text: $0.element.text, label: $0.element.label,
                    classifiedAt: time)
            }
            try store.insert(rows, words: batch.map { TweetListing.searchWords($0.tokens) })
            let evicted = mood.update(with: batch, at: time)
            cloud.add(batch)
            cloud.remove(evicted)
            return mood.reading
        }
        let merged = time + classifySeconds + mergeSeconds
        mainThreadBusy.append((ingestOnMainThread ? fetchedAt : time + classifySeconds, merged))
        let available = max(0, min(requestedSize, (api?.stream.count ?? 0) - first))
        batchSizes.append((tweets.count, available))
        run.metrics.latency(
            Metric.batchLatency, seconds: network + classifySeconds + mergeSeconds,
            threshold: run.scenario.feeds.first { $0.kind == "tweet-batch" }?.every)
        run.metrics.latency(Metric.classify100Compute, seconds: classifySeconds)
        // MIC-14 on every labelled tweet the system under test never trained on (`TweetScoring`).
        for (tweet, p) in results {
            guard let position = Int(tweet.id) else { continue }
            guard streamLabels.indices.contains(position) else { continue }
            guard scoring.scores(tweet.text) else {
                metrics.add(Metric.tweetsLeftOutTrainedOn)
                continue
            }
            let actual = streamLabels[position]
            confusion.add(actual: actual, predicted: p.label)
            metrics.item(
                Metric.accuracy,
                ItemOutcome(
                    item: tweet.id, expected: actual.name, answer: p.label.name, correct: actual == p.label))
            if actual != .neutral {
                binaryTotal += 1
                if p.leansPositive == (actual == .positive) {
                    binaryRight += 1
                }
            }
        }
        classified += batch
        // MIC-15: the mood after this batch equals a recount from the database.
        let counts = try store.classCounts(after: time - mood.windowSeconds)
        let recount = MoodReading(counts: counts, scoreSum: 0)
        // Tolerance 1e-12: ratios of the same integers computed the same way.
        metrics.check(
            Metric.moodMismatches,
            reading.counts == recount.counts && reading.label == recount.label
                && abs(reading.confidence - recount.confidence) < 1e-12
                && abs(reading.netPolarity - recount.netPolarity) < 1e-12)
    }

    /// A `weather-refresh` delivery: fetch the weather at the device (cache first).
    func refreshWeather(device: Device, position: GeoPoint?, at time: Double) throws {
        guard let weather else { return }
        let p = position ?? GeoPoint(latitude: weather.latitude, longitude: weather.longitude)
        let (served, network) = try fetchWeather(device: device, latitude: p.latitude, longitude: p.longitude, at: time)
        // A background refresh; an app that fetches on the main thread holds it for the download.
        if ingestOnMainThread, network > 0 { mainThreadBusy.append((time, time + network)) }
        showWeather(served)
    }

    /// Shows `served` (the weather the fetch gave; nil keeps what was shown) and checks what the
    /// screen then shows (MIC-30): symbol, description and temperature present, and as the
    /// recording says for the moment the report describes (checked on the recording's rows).
    func showWeather(_ served: WeatherReport?) {
        if var served {
            weatherShownFault?(&served)
            shownWeather = served
        }
        for present in RecordedWeatherChecks.requiredFields(shownWeather) {
            metrics.check(Metric.weatherFieldsMissing, present)
        }
        if let shown = shownWeather, let rows = weather?.provider.observations {
            metrics.check(
                Metric.weatherValuesWrong,
                RecordedWeatherChecks.reportFollowsRecording(shown, rows: rows, at: shown.time))
        }
    }

    /// Weather for a point through the device's cache-first fetch; returns what
    /// was served and the emulated network seconds.
    func fetchWeather(device: Device, latitude: Double, longitude: Double, at time: Double) throws -> (
        WeatherReport?, Double
    ) {
        guard let weather else { return (nil, 0) }
        let key = String(format: "weather:%.2f,%.2f", latitude, longitude)
        let outcome = try device.fetch(key: key, bytes: 1_200, timeToLiveSeconds: Self.weatherTimeToLive, at: time) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return (try? encoder.encode(weather.weather(at: time))) ?? Data()
        }
        let served = outcome.payload.flatMap { try? JSONDecoder().decode(WeatherReport.self, from: $0) }
        return (served, outcome.networkSeconds)
    }
}

/// Which labelled tweets MIC-14 scores. A model is measured only on tweets it never trained on:
/// the shipped model's training texts are recognised by content, through the trained-text index
/// written beside it (`TrainedTextIndex`), never by the name of the file a tweet came from.
enum TweetScoring: Sendable, CustomStringConvertible {
    /// Every labelled tweet (a system under test whose training data the harness does not know).
    case everyTweet
    /// Every labelled tweet but those in the index (the shipped model).
    case notTrainedOn(TrainedTextIndex)
    /// The shipped model without its index: only the evaluation share it kept out of training
    /// (`EvaluationShare`, one tweet in ten by text hash).
    case evaluationShareOnly

    /// The rule for the shipped model whose index is at `url` (an absent file: the share rule).
    static func shippedModel(indexAt url: URL) throws -> TweetScoring {
        guard FileManager.default.fileExists(atPath: url.path) else { return .evaluationShareOnly }
        let data = try readFileBytes(url, displayName: DatasetManifest.display(url))
        return .notTrainedOn(try TrainedTextIndex(decoding: Data(data), file: DatasetManifest.display(url)))
    }

    /// Whether a labelled tweet of `text` is scored.
    func scores(_ text: String) -> Bool {
        switch self {
        case .everyTweet: true
        case .notTrainedOn(let index): !index.contains(text)
        case .evaluationShareOnly: EvaluationShare.contains(text)
        }
    }

    var description: String {
        switch self {
        case .everyTweet: "every labelled tweet is scored (the system under test is not the shipped model)"
        case .notTrainedOn(let index):
            "every labelled tweet is scored except those the shipped model trained on (\(index.count) texts, "
                + "recognised by text hash; counted in tweets_left_out_trained_on)"
        case .evaluationShareOnly:
            "only the evaluation share (one tweet in ten by text hash) is scored: the shipped model's "
                + "trained-text index is missing, so which tweets it trained on is not known"
        }
    }
}
