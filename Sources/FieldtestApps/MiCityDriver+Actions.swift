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
        userActions += 1
        inFlight.removeAll { $0.end < time }
        if inFlight.contains(where: { $0.start <= time && time < $0.end }) { actionsDuringIngest += 1 }
        var network = 0.0
        var compute = 0.0
        let q = action.parameters
        switch action.kind {
        case "view-mood":
            let (current, s) = ComputeTimer.measure { aggregator.expire(at: time) }
            compute = s
            if mood != nil { mood = current }
        case "word-cloud":
            let k = q["top"]?.int ?? 50
            if mood != nil { mood = aggregator.expire(at: time) }
            let (top, s) = ComputeTimer.measure { aggregator.top(k, label: nil) }
            compute = s
            try checkWordCloud(top: top, k: k, at: time)
        case "list-tweets":
            let store = try requireStore()
            if let name = q["class"]?.string, let label = SentimentLabel(name: name) {
                let (ids, s) = try ComputeTimer.measure { try store.tweets(label: label) }
                compute = s
                check("MIC-25", ids == classified.filter { $0.tweet.label == label }.map(\.tweet.index))
            } else if let word = q["word"]?.string {
                let key = word.lowercased()
                let (ids, s) = try ComputeTimer.measure { try store.tweets(word: key) }
                compute = s
                check("MIC-25", ids == classified.filter { $0.tokens.contains(key) }.map(\.tweet.index).sorted())
            }
            run.metrics.latency("MIC-NF4", "query", seconds: compute, threshold: 0.010)
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
            let candidate = lastNearby.first { $0.name == name }
                ?? places.filter { $0.name == name }.min { distance(here, $0) < distance(here, $1) }
            if let c = candidate {
                let place = FavouritePlace(name: c.name, latitude: c.latitude, longitude: c.longitude,
                                           note: "\(c.admin1), \(c.countryCode); population \(c.population)", savedAt: time)
                let (_, s) = try ComputeTimer.measure { try store.save(place) }
                compute = s
                favourites[name] = place
                run.metrics.latency("MIC-34", "save_latency", seconds: s)
            }
            try checkFavourites(run, store)
        case "remove-place":
            let name = q["name"]?.string ?? ""
            let store = try requireStore()
            let (existed, s) = try ComputeTimer.measure { try store.delete(name: name) }
            compute = s
            check("MIC-34", existed == (favourites[name] != nil))
            favourites[name] = nil
            run.metrics.latency("MIC-34", "delete_latency", seconds: s)
            try checkFavourites(run, store)
        case "weather":
            let lat = q["latitude"]?.double ?? 0, lon = q["longitude"]?.double ?? 0
            let ((served, net), s) = try ComputeTimer.measure { try fetchWeather(device: device, latitude: lat, longitude: lon, at: time) }
            network = net
            compute = s
            if let served { shownWeather = served }
            check("MIC-30", shownWeather?.isComplete == true)
        case "play-game":
            if mood != nil { mood = aggregator.expire(at: time) }
            let (level, s) = ComputeTimer.measure { CityMood.difficulty(score: mood?.score ?? 0) }
            compute = s
            let counts = try requireStore().classCounts(after: time - aggregator.window)
            let recount = CityMood(counts: counts, at: time).score
            check("MIC-55", level == CityMood.difficulty(score: recount))
            gameLevels.append(level)
        default:
            break
        }
        let wait = max(0, mainBusyUntil - time)
        let with = network + wait + compute, without = network + compute
        run.metrics.latency("MIC-NF1", "action_latency_with_ingest", seconds: with)
        run.metrics.latency("MIC-NF1", "action_latency_without_ingest", seconds: without)
        latencyWith.record(seconds: with)
        latencyWithout.record(seconds: without)
    }

    func requireStore() throws -> MiCityStore {
        guard let store else { throw EmulatedDevices.BuildError(description: "error: miCity's database is not open") }
        return store
    }

    /// MIC-34: the favourites read back from SQLite equal what the user saved.
    func checkFavourites(_ run: RunContext, _ store: MiCityStore) throws {
        let (saved, s) = try ComputeTimer.measure { try store.favourites() }
        run.metrics.latency("MIC-NF4", "query", seconds: s, threshold: 0.010)
        check("MIC-34", saved == favourites.keys.sorted().compactMap { favourites[$0] })
    }

    /// MIC-16: the word cloud's counts equal a recount over the window's tweets
    /// read back from the database and tokenized again.
    func checkWordCloud(top: [(term: String, count: Int)], k: Int, at time: Double) throws {
        guard let model else { return }
        let rows = try requireStore().recentTweets(after: time - aggregator.window)
        var recount: [[String: Int]] = [[:], [:], [:]]
        for r in rows {
            let tokens = model.featurizer.tokenizer.tokenize(r.text)
            for t in MoodAggregator.emotionTerms(tokens, lexicon: model.featurizer.lexicon) {
                recount[r.label.rawValue][t, default: 0] += 1
            }
        }
        var merged: [String: Int] = [:]
        for m in recount { for (t, n) in m { merged[t, default: 0] += n } }
        let expectedTop = merged.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(k)
        let topOK = top.map(\.term) == expectedTop.map(\.key) && top.map(\.count) == expectedTop.map(\.value)
        check("MIC-16", recount == aggregator.terms && topOK)
        cloudTerms += merged.count
    }

    /// The device's GPS position (the scenario's starting point when it has no fix).
    func position(device: Device, spec: DeviceSpec?, at time: Double) -> GeoCoordinate {
        let truth = spec?.position.map { GeoCoordinate(latitude: $0.latitude, longitude: $0.longitude) }
            ?? weather.map { GeoCoordinate(latitude: $0.latitude, longitude: $0.longitude) }
            ?? GeoCoordinate(latitude: 0, longitude: 0)
        return device.position(at: time, truePosition: truth)?.coordinate ?? truth
    }

    func distance(_ p: GeoCoordinate, _ place: Place) -> Double {
        PlacesLoader.greatCircleMetres(p.latitude, p.longitude, place.latitude, place.longitude)
    }

    /// Places within `radius` metres, nearest first (ties by name). O(n log n).
    func nearby(_ p: GeoCoordinate, radius: Double) -> [Place] {
        var found: [(place: Place, metres: Double)] = []
        for place in places {
            let d = distance(p, place)
            if d <= radius { found.append((place, d)) }
        }
        found.sort { a, b in a.metres != b.metres ? a.metres < b.metres : a.place.name < b.place.name }
        return found.map(\.place)
    }
}
