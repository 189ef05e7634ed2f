import DeviceEmulation
import FieldtestData
import Foundation
import ScenarioEngine
import SkyScoring
import TweetSentiment

extension MiCityDriver {
    /// One `tweet-batch` delivery: the regular fetch plus `burst` extra attempts
    /// (a user pulling to refresh), all through the client's rate guard.
    func deliver(_ run: RunContext, device: Device, burst: Int, at time: Double) throws {
        try fetch(run, device: device, regular: true, at: time)
        for _ in 0..<burst { try fetch(run, device: device, regular: false, at: time) }
    }

    /// One request for the next page of the stream. Pages are explicit offsets:
    /// a page whose answer is lost goes back to the front of the queue, so no
    /// tweet is skipped and none is fetched twice. A regular fetch the guard
    /// refuses is deferred to the next allowed time, one that comes before its pacing
    /// interval is skipped (the next delivery tries again); a refused burst is dropped.
    func fetch(_ run: RunContext, device: Device, regular: Bool, at time: Double) throws {
        guard let api, let pacing = rateGuard?.minimumInterval else { return }
        if regular, let last = lastRegularStart, time - last < pacing - 1e-9 {
            fetchesPaced += 1
            return
        }
        guard rateGuard?.mayRequest(at: time, keepingRoomFor: regular ? 0 : 1) == true else {
            if regular {
                if !pendingRegular, let next = rateGuard?.nextAllowed(after: time), next <= run.scenario.end {
                    pendingRegular = true
                    fetchesDeferred += 1
                    run.simulation.schedule(at: next) { [unowned self] sim in
                        self.pendingRegular = false
                        self.guarded { try self.fetch(run, device: device, regular: true, at: sim.now) }
                    }
                }
            } else {
                burstDenied += 1
            }
            return
        }
        let page = missingPages.isEmpty ? nextOffset : missingPages.removeFirst()
        if page == nextOffset { nextOffset += requestedSize }
        let outcome = device.request(bytes: requestedSize * Self.bytesPerTweet, uploadBytes: 600, at: time)
        guard outcome.attempts > 0 else {
            fetchesOffline += 1
            requeue(page)
            return
        }
        rateGuard?.record(attempts: outcome.attempts, at: time)
        if regular { lastRegularStart = time }
        let answer = api.answer(cursor: page, count: requestedSize, attempts: outcome.attempts, at: time)
        guard outcome.delivered else {
            fetchesLost += 1
            requeue(page)
            return
        }
        switch answer {
        case .tooManyRequests(let reset):
            rateGuard?.tooManyRequests(resetAt: reset)
            requeue(page)
        case .tweets(let tweets, let remaining, _):
            rateGuard?.sync(remaining: remaining, at: time)
            if regular { fetchStarts.append(time) }
            let arrival = time + outcome.latencySeconds
            inFlight.append((time, arrival))
            run.simulation.schedule(at: arrival) { [unowned self] sim in
                self.guarded { try self.classify(run, tweets, network: outcome.latencySeconds, at: sim.now) }
            }
        }
    }

    func requeue(_ page: Int) {
        missingPages.append(page)
        missingPages.sort()
    }

    /// Classifies a delivered batch off the main thread, then merges it on the
    /// main thread (database, mood, word cloud) and checks the mood (MIC-15).
    func classify(_ run: RunContext, _ tweets: [ReplayedTweet], network: Double, at time: Double) throws {
        guard let model, let store else { return }
        let lexicon = model.featurizer.lexicon
        let tokenizer = model.featurizer.tokenizer
        let (predictions, classifySeconds) = ComputeTimer.measure {
            tweets.map { t -> (SentimentPrediction, [String]) in
                let tokens = tokenizer.tokenize(t.text)
                return (model.predict(tokens: tokens), tokens)
            }
        }
        let (newMood, mergeSeconds) = try ComputeTimer.measure { () throws -> CityMood in
            var rows: [StoredTweet] = []
            var words: [[String]] = []
            var batch: [(label: SentimentLabel, terms: [String])] = []
            for (t, (p, tokens)) in zip(tweets, predictions) {
                rows.append(StoredTweet(index: t.index, text: t.text, label: p.label, classifiedAt: time))
                words.append(Self.words(tokens))
                batch.append((p.label, MoodAggregator.emotionTerms(tokens, lexicon: lexicon)))
            }
            try store.insert(rows, words: words)
            return aggregator.add(batch, at: time)
        }
        mood = newMood
        mainBusyUntil = time + classifySeconds + mergeSeconds
        batchSizes.append(tweets.count)
        run.metrics.latency("MIC-12", "batch_latency", seconds: network + classifySeconds + mergeSeconds,
                            threshold: run.scenario.feeds.first { $0.kind == "tweet-batch" }?.every)
        run.metrics.latency("MIC-12", "classify_100_compute", seconds: classifySeconds)
        for (t, (p, tokens)) in zip(tweets, predictions) {
            confusion.add(actual: t.label, predicted: p.label)
            if t.label != .neutral {
                binaryTotal += 1
                if (p.probabilities[2] >= p.probabilities[0]) == (t.label == .positive) { binaryRight += 1 }
            }
            classified.append((StoredTweet(index: t.index, text: t.text, label: p.label, classifiedAt: time), Set(Self.words(tokens))))
        }
        // MIC-15: the mood after this batch equals a recount from the database.
        let counts = try store.classCounts(after: time - aggregator.window)
        check("MIC-15", newMood == CityMood(counts: counts, at: time) && newMood.updatedAt == time)
    }

    /// The distinct searchable words of a token list (negation prefix removed, placeholders dropped).
    static func words(_ tokens: [String]) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for t in tokens {
            let base = t.hasPrefix(TweetTokenizer.negationPrefix) ? String(t.dropFirst(TweetTokenizer.negationPrefix.count)) : t
            if base.hasPrefix("<") && base.hasSuffix(">") { continue }
            if seen.insert(base).inserted { out.append(base) }
        }
        return out
    }

    /// A `weather-refresh` delivery: fetch the weather at the device (cache first).
    func refreshWeather(device: Device, position: GeoCoordinate?, at time: Double) throws {
        guard let weather else { return }
        let p = position ?? GeoCoordinate(latitude: weather.latitude, longitude: weather.longitude)
        let (served, _) = try fetchWeather(device: device, latitude: p.latitude, longitude: p.longitude, at: time)
        if let served { shownWeather = served }
        check("MIC-30", shownWeather?.isComplete == true)
    }

    /// Weather for a point through the device's cache-first fetch; returns what
    /// was served and the emulated network seconds.
    func fetchWeather(device: Device, latitude: Double, longitude: Double, at time: Double) throws -> (WeatherReport?, Double) {
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
