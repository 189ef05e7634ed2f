import AccountStore
import DeviceEmulation
import FieldtestData
import FieldtestGSL
import Foundation
import MetricReports
import ScenarioEngine
import SkyScoring

/// Drives the weather-by-city favourites app (weather-cities-usecases.txt):
/// US city search, favourites, weather and map per favourite, the two-hour
/// weather layer, per-location weather permission and network permissions.
final class WeatherCitiesDriver: AppDriver {
    /// The app's metric keys (`WeatherCitiesDefinition.Metric`), as the driver records them.
    typealias Metric = WeatherCitiesDefinition.Metric

    let scenario: Scenario
    var devices: [String: Device] = [:]
    let cacheFolder = EmulatedDevices.temporaryFolder()
    var search: CitySearch?
    var places: [Place] = []
    var weather: (any WeatherProvider)?
    /// The user's favourite cities (the app's favourites list, keyed by GeoNames id).
    var favourites = Favourites()
    /// The first answer to the weather prompt per city (GeoNames id): the scenario's truth for WXC-P2,
    /// since the app asks once per new location and keeps that answer.
    var firstWeatherAnswers: [Int: Bool] = [:]
    /// Where the checks go (set in `start`).
    var metrics = MetricCollector()
    /// A fault to inject into the weather the app shows, for the checks' own tests; nil in runs.
    var weatherShownFault: ((inout WeatherReport) -> Void)?
    var accounts: AccountRegistry?
    var accountRNG: RandomStream?
    var sampleStream: RandomStream?

    init(scenario: Scenario) { self.scenario = scenario }

    func start(_ run: RunContext) throws {
        metrics = run.metrics
        // Reported for every run that lists them, so an unmeasured one fails as such.
        metrics.declare(Metric.w1WeatherFieldsMissing)
        metrics.declare(MiCityDefinition.Metric.weatherFieldsMissing)
        devices = try EmulatedDevices.make(for: run, cacheFolder: cacheFolder)
        let store = run.datasets
        // The US places table the scenario lists (the app searches US cities).
        let table = try run.dataset(parameter: nil, formats: [.usCities], what: "US places table")
        places = try store.cached("places:" + table) {
            let url = try store.url(table)
            return try PlacesLoader.loadUSCities(url: url, displayName: DatasetManifest.display(url)).records
        }
        search = try store.cached("citysearch:" + table) { CitySearch(places: places) }
        weather = try WeatherProviders.replayed(by: scenario, store)
        accountRNG = run.stream("accounts")
        sampleStream = run.stream("search-sample")
        let key = try KeyProvider(keyBytes: (0..<32).map { _ in UInt8.random(in: 0...255, using: &accountRNG!) })
        accounts = try AccountRegistry(
            path: cacheFolder.appendingPathComponent("accounts.sqlite").path, keys: key,
            configuration: AccountRegistryConfiguration(policy: .weatherCities), durability: .emulated)
    }

    /// An actor's action, scheduled by the engine.
    func perform(_ action: ActionSpec, actor: Int, at t: Double, _ run: RunContext) {
        perform(action, device: scenario.actors[actor].device, at: t, run)
    }

    /// WXC-D1's p95 search latency threshold set by the `search_latency_ms` parameter, seconds;
    /// nil leaves the metric definition's default (100 ms), which the collector applies.
    func searchLatencyThreshold(_ run: RunContext) -> Double? {
        run.scenario.parameters["search_latency_ms"]?.double.map { $0 / 1000 }
    }

    func city(_ name: String) -> Place? { search?.search(name, limit: 1).first }

    func perform(_ action: ActionSpec, device name: String, at t: Double, _ run: RunContext) {
        guard let device = devices[name] else { return }
        let p = action.parameters
        let threshold = searchLatencyThreshold(run)
        switch action.kind {
        case "search-city":
            let query = p["query"]?.string ?? ""
            let (hits, seconds) = ComputeTimer.measure { search?.search(query, limit: 10) ?? [] }
            run.metrics.latency(Metric.searchLatency, seconds: seconds, threshold: threshold)
            if let expected = p["expect"]?.string { metrics.check(Metric.d1Behaviour, hits.first?.name == expected) }
        case "search-sample":
            searchSample(size: p["size"]?.int ?? 100, threshold: threshold, run: run)
        case "add-city":
            guard let c = city(p["city"]?.string ?? "") else {
                metrics.check(Metric.d1Behaviour, false)
                return
            }
            let before = favourites.locations.count
            let wasSaved = favourites.locations.contains { $0.id == c.geonameID }
            let message = favourites.add(SavedLocation(place: c))
            // Added once: one more entry when new, none and the duplicate message when already saved.
            metrics.check(
                Metric.d1Behaviour,
                favourites.locations.filter { $0.id == c.geonameID }.count == 1
                    && favourites.locations.count == before + (wasSaved ? 0 : 1) && (message == nil) != wasSaved)
        case "remove-city":
            guard let c = city(p["city"]?.string ?? "") else {
                metrics.check(Metric.d1Behaviour, false)
                return
            }
            let before = favourites.locations.count
            let saved = favourites.locations.filter { $0.id == c.geonameID }.count
            let removed = favourites.remove(ids: [c.geonameID])
            metrics.check(
                Metric.d1Behaviour,
                removed == saved && favourites.locations.count == before - saved
                    && !favourites.locations.contains { $0.id == c.geonameID })
        case "answer-weather-permission":
            guard let c = city(p["city"]?.string ?? "") else { return }
            let allow = p["allow"]?.bool ?? true
            let firstAnswer = firstWeatherAnswers[c.geonameID]
            let arrival = device.weatherService.arrive(at: String(c.geonameID)) { allow }
            // WXC-P2: asked once per new location; its first answer decides whether weather is shown there.
            metrics.check(
                Metric.p2Behaviour,
                arrival.prompted == (firstAnswer == nil) && arrival.enabled == (firstAnswer ?? allow))
            if firstAnswer == nil { firstWeatherAnswers[c.geonameID] = allow }
        case "view-city":
            guard let c = city(p["city"]?.string ?? "") else {
                // No such city: none of its weather fields can be shown.
                for present in RecordedWeatherChecks.requiredFields(nil) {
                    for key in Metric.weatherFieldsMissing { metrics.check(key, present) }
                }
                return
            }
            viewCity(c, device: device, at: t, run: run)
        case "view-weather-layer":
            guard let c = city(p["city"]?.string ?? "") else { return }
            // The layer shows the next two hours from the replay. Each hourly report stands for the
            // hour after it; the horizon is how far ahead the reports cover [t, …) without a gap
            // longer than 90 min (capped at 3 h).
            let times = (weather?.observations ?? []).map(\.timeUTC).filter { $0 >= t - 3600 && $0 <= t + 10_800 }
            var covered = t
            if let first = times.first, first <= t {
                covered = first
                for time in times.dropFirst() where time - covered <= 5400 { covered = time }
            }
            run.metrics.sample(
                Metric.weatherLayerHorizonMin,
                times.first.map { $0 <= t } == true ? min(covered + 3600, t + 10_800) - t : 0)
            _ = c
        case "register":
            register(p, at: t)
        default:
            break
        }
    }

    func searchSample(size: Int, threshold: Double?, run: RunContext) {
        guard let search, let rng = sampleStream, !places.isEmpty else { return }
        // Most populous place per name: the right answer to an exact-name query.
        var best: [String: Place] = [:]
        for p in places where best[p.name].map({ p.population > $0.population }) ?? true { best[p.name] = p }
        let names = best.keys.sorted()
        for _ in 0..<size {
            let name = names[rng.uniformInt(below: names.count)]
            let expected = best[name]!
            let (hits, seconds) = ComputeTimer.measure { search.search(name, limit: 5) }
            run.metrics.latency(Metric.searchLatency, seconds: seconds, threshold: threshold)
            let exactHit =
                hits.first?.geonameID == expected.geonameID
                || (hits.first?.name == name && hits.first?.population == expected.population)
            run.metrics.sample(Metric.exactNameTop1HitRate, exactHit ? 1 : 0)
            // One seeded typing error (deletion, substitution or transposition) in names of 5+ letters.
            var chars = Array(name)
            guard chars.count >= 5 else { continue }
            let i = 1 + rng.uniformInt(below: chars.count - 2)
            switch rng.uniformInt(below: 3) {
            case 0: chars.remove(at: i)
            case 1: chars[i] = chars[i] == "e" ? "a" : "e"
            default: chars.swapAt(i, i + 1)
            }
            let typo = String(chars)
            let (fuzzy, fuzzySeconds) = ComputeTimer.measure { search.search(typo, limit: 5) }
            run.metrics.latency(Metric.searchLatency, seconds: fuzzySeconds, threshold: threshold)
            run.metrics.sample(Metric.misspeltNameTop1HitRate, fuzzy.first?.name == name ? 1 : 0)
            run.metrics.sample(
                Metric.misspeltNameTop5HitRate, fuzzy.contains(where: { $0.name == name }) ? 1 : 0)
        }
    }

    func viewCity(_ c: Place, device: Device, at t: Double, run: RunContext) {
        // WXC-P1: location refused → no device position; cellular refused → only Wi-Fi carries data.
        let position = device.position(at: t, truePosition: GeoPoint(latitude: c.latitude, longitude: c.longitude))
        metrics.check(Metric.p1Behaviour, device.permissions.mayReadDevicePosition || position == nil)
        let bearer = device.network.bearer(at: t)
        metrics.check(Metric.p1Behaviour, device.permissions.mayUseCellularData || bearer != .cellular)
        // WXC-P2: weather only where the user allowed it.
        let id = String(c.geonameID)
        let enabled = !device.weatherService.hasAnswered(for: id) || device.weatherService.isEnabled(at: id)
        var summary = enabled ? weather?.report(latitude: c.latitude, longitude: c.longitude, at: t) : nil
        if let fault = weatherShownFault, summary != nil { fault(&summary!) }
        if let allowed = firstWeatherAnswers[c.geonameID] {
            let recorded = weather?.report(latitude: c.latitude, longitude: c.longitude, at: t) != nil
            metrics.check(
                Metric.p2Behaviour,
                Self.weatherShownFollowsAnswer(shown: summary != nil, allowed: allowed, reportRecorded: recorded))
        }
        if enabled {
            // WXC-W1 and MIC-30: the symbol, description and temperature the specifications require
            // are shown, and each is what the recording says for now (checked on its rows).
            for present in RecordedWeatherChecks.requiredFields(summary) {
                for key in Metric.weatherFieldsMissing { metrics.check(key, present) }
            }
            if let summary, let rows = weather?.observations {
                let ok = RecordedWeatherChecks.reportFollowsRecording(summary, rows: rows, at: t)
                for key in Metric.weatherValuesWrong { metrics.check(key, ok) }
            }
        }
        let outcome = device.request(bytes: 8_000, at: t)
        run.metrics.latency(Metric.cityViewLatency, seconds: outcome.latencySeconds)
    }

    /// Use case 5 rule: a city's weather is shown exactly when the user allowed the weather service there
    /// and the recording has a report for the moment.
    static func weatherShownFollowsAnswer(shown: Bool, allowed: Bool, reportRecorded: Bool) -> Bool {
        shown == (allowed && reportRecorded)
    }

    func register(_ p: LocatedValue, at t: Double) {
        guard let accounts, var rng = accountRNG else { return }
        let password = p["password"]?.string ?? ""
        let form = RegistrationForm(
            username: p["username"]?.string, email: p["email"]?.string, password: password,
            passwordConfirmation: p["confirm"]?.string ?? password)
        let expectAccept = p["expect"]?.string != "reject"
        let result = Result { () throws(AccountStoreError) -> RegistrationOutcome in
            try accounts.register(form, now: Date(timeIntervalSince1970: t), using: &rng)
        }
        switch result {
        case .success: metrics.check(Metric.a1Behaviour, expectAccept)
        case .failure(let e):
            if case .registrationRejected = e {
                metrics.check(Metric.a1Behaviour, !expectAccept)
            } else {
                metrics.check(Metric.a1Behaviour, false)
            }
        }
    }

    func finish(_ run: RunContext) throws {
        defer { try? FileManager.default.removeItem(at: cacheFolder) }
        run.metrics.declareLatency(Metric.searchLatency, threshold: searchLatencyThreshold(run))
    }
}
