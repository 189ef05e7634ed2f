import DeviceEmulation
import FieldtestData
import Foundation
import ScenarioEngine
import TweetSentiment

extension MiCityDriver {
    /// Default radius of the "Nearby" pop-up, metres.
    static let defaultNearbyRadius = 10_000.0
    /// Bytes of a nearby-places answer (Google Places style JSON).
    static let nearbyBytes = 20_000

    /// Performs one user action at `time` and records its latency (MIC-NF1) and checks.
    func perform(_ action: ActionSpec, run: RunContext, device: Device, spec: DeviceSpec?, at time: Double) throws {
        inFlight.removeAll { $0.end < time }
        run.metrics.sample(
            Metric.actionsDuringIngest, inFlight.contains(where: { $0.start <= time && time < $0.end }) ? 1 : 0)
        var network = 0.0
        var compute = 0.0
        let q = action.parameters
        switch action.kind {
        case "view-mood":
            let (_, s) = ComputeTimer.measure { () -> MoodReading in
                advanceWindow(to: time)
                return mood.reading
            }
            compute = s
        case "word-cloud":
            let k = q["top"]?.int ?? 50
            let (top, s) = ComputeTimer.measure { () -> [CloudTerm] in
                advanceWindow(to: time)
                return cloud.top(k)
            }
            compute = s
            try checkWordCloud(top: top, k: k, at: time)
        case "list-tweets":
            let store = try requireStore()
            if let name = q["class"]?.string, let label = SentimentLabel(name: name) {
                let (ids, s) = try ComputeTimer.measure { try store.tweets(label: label) }
                compute = s
                metrics.check(
                    Metric.listingMismatches,
                    ids == TweetListing.tweets(classified, in: label).compactMap { Int($0.id) }.sorted())
            } else if let word = q["word"]?.string {
                let key = TweetListing.searchKey(word) ?? word.lowercased()
                let (ids, s) = try ComputeTimer.measure { try store.tweets(word: key) }
                compute = s
                metrics.check(
                    Metric.listingMismatches,
                    ids == TweetListing.tweets(classified, containing: word).compactMap { Int($0.id) }.sorted())
            }
            run.metrics.latency(Metric.query, seconds: compute)
        case "nearby-places":
            let radius = q["radius_m"]?.double ?? Self.defaultNearbyRadius
            let outcome = device.request(bytes: Self.nearbyBytes, at: time)
            network = outcome.latencySeconds
            if outcome.delivered {
                let here = position(device: device, spec: spec, at: time)
                let (found, s) = ComputeTimer.measure { nearby(here, radius: radius) }
                compute = s
                lastNearby = found
            }
        case "add-place":
            let name = q["name"]?.string ?? ""
            let store = try requireStore()
            let here = position(device: device, spec: spec, at: time)
            let candidate =
                lastNearby.first { $0.name == name }
                ?? places.filter { $0.name == name }.min { distance(here, $0) < distance(here, $1) }
            if let c = candidate {
                let note = q["note"]?.string ?? "\(c.admin1), \(c.countryCode); population \(c.population)"
                let place = FavouritePlace(
                    name: c.name, latitude: c.latitude, longitude: c.longitude, note: note, savedAt: time)
                let (_, s) = try ComputeTimer.measure { try store.save(place) }
                compute = s
                favourites[name] = place
                run.metrics.latency(Metric.saveLatency, seconds: s)
            }
            try checkFavourites(run, store)
        case "edit-place":
            let name = q["name"]?.string ?? ""
            let note = q["note"]?.string ?? ""
            let store = try requireStore()
            let (existed, s) = try ComputeTimer.measure { try store.updateNote(name: name, note: note) }
            compute = s
            metrics.check(Metric.favouritesMismatches, existed == (favourites[name] != nil))
            favourites[name]?.note = note
            run.metrics.latency(Metric.editLatency, seconds: s)
            try checkFavourites(run, store)
        case "remove-place":
            let name = q["name"]?.string ?? ""
            let store = try requireStore()
            let (existed, s) = try ComputeTimer.measure { try store.delete(name: name) }
            compute = s
            metrics.check(Metric.favouritesMismatches, existed == (favourites[name] != nil))
            favourites[name] = nil
            run.metrics.latency(Metric.deleteLatency, seconds: s)
            try checkFavourites(run, store)
        case "weather":
            let lat = q["latitude"]?.double ?? 0
            let lon = q["longitude"]?.double ?? 0
            let ((served, net), s) = try ComputeTimer.measure {
                try fetchWeather(device: device, latitude: lat, longitude: lon, at: time)
            }
            network = net
            compute = s
            showWeather(served)
        case "play-game":
            let (difficulty, s) = ComputeTimer.measure { () -> Double in
                advanceWindow(to: time)
                return GameDifficulty.difficulty(for: mood.reading)
            }
            compute = s
            let counts = try requireStore().classCounts(after: time - mood.windowSeconds)
            let recount = GameDifficulty.difficulty(for: MoodReading(counts: counts, scoreSum: 0))
            // Tolerance 1e-12: the same formula on the same integer counts.
            metrics.check(Metric.difficultyMismatches, abs(difficulty - recount) < 1e-12)
        default:
            break
        }
        actionTimes.append((time, network, compute))
    }

    /// How long an action starting at `time` waits for the main thread: until the end of the
    /// busy stretch it falls in, and of any stretch that begins before that one ends.
    static func mainThreadWait(at time: Double, busy: [(start: Double, end: Double)]) -> Double {
        var free = time
        for b in busy.sorted(by: { $0.start < $1.start }) where b.start <= free && free < b.end { free = b.end }
        return free - time
    }

    func requireStore() throws -> MiCityStore {
        guard let store else { throw EmulatedDevices.BuildError(description: "error: miCity's database is not open") }
        return store
    }

    /// MIC-34: the favourites read back from SQLite equal what the user saved.
    func checkFavourites(_ run: RunContext, _ store: MiCityStore) throws {
        let (saved, s) = try ComputeTimer.measure { try store.favourites() }
        run.metrics.latency(Metric.query, seconds: s)
        metrics.check(
            Metric.favouritesMismatches, saved == favourites.keys.sorted().compactMap { favourites[$0] })
    }

    /// MIC-16: the word cloud's counts (kept incrementally over the rolling window)
    /// equal a recount over the window's tweets read back from the database and
    /// tokenized again, and so does its top `k`.
    func checkWordCloud(top: [CloudTerm], k: Int, at time: Double) throws {
        guard let model else { return }
        let tokenizer = model.featurizer.tokenizer
        let rows = try requireStore().recentTweets(after: time - mood.windowSeconds)
        let recount = EmotionWordCloud(
            tweets: rows.map {
                ClassifiedTweet(
                    id: "", text: $0.text, tokens: tokenizer.tokenize($0.text), label: $0.label,
                    score: 0, timeSeconds: time)
            },
            lexicon: model.featurizer.lexicon)
        metrics.check(Metric.wordCloudMismatches, recount.counts == cloud.counts && top == recount.top(k))
        metrics.sample(Metric.distinctTermsChecked, Double(recount.distinctTerms()))
    }

    /// The device's GPS position (the scenario's starting point when it has no fix).
    func position(device: Device, spec: DeviceSpec?, at time: Double) -> GeoPoint {
        let truth =
            spec?.position.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
            ?? weather.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
            ?? GeoPoint(latitude: 0, longitude: 0)
        return device.position(at: time, truePosition: truth)?.coordinate ?? truth
    }

    func distance(_ p: GeoPoint, _ place: Place) -> Double {
        PlacesLoader.greatCircleMetres(p.latitude, p.longitude, place.latitude, place.longitude)
    }

    /// Places within `radius` metres, nearest first (ties by name). O(n log n).
    func nearby(_ p: GeoPoint, radius: Double) -> [Place] {
        var found: [(place: Place, metres: Double)] = []
        for place in places {
            let d = distance(p, place)
            if d <= radius { found.append((place, d)) }
        }
        found.sort { a, b in a.metres != b.metres ? a.metres < b.metres : a.place.name < b.place.name }
        return found.map(\.place)
    }
}
