import AccountStore
import Capabilities
import DeviceEmulation
import FieldtestData
import FieldtestGSL
import Foundation
import MetricReports
import ScenarioEngine
import SkyScoring

/// Drives the SkyScape app (skyscape-srs.txt): city search, favourites, sort,
/// location details with weather replayed from a recording, the quality
/// calendar, reminders and accounts, on emulated phones.
///
/// Sunrise and sunset come from the scenario's sun-times system (`systems: {sun: …}`; the
/// built-in `SolarCalculator` by default), shown to the second as the protocol carries them;
/// golden-hour quality is scored by the built-in model around the system's events.
///
/// Accuracy references: sunrise/sunset against the NREL SPA (`SunReference`), computed
/// for every place and date; spec messages checked exactly; at-rest secrets checked on
/// the raw SQLite bytes; the weather shown against the recording's rows.
final class SkyScapeDriver: AppDriver {
    /// The app's metric keys (`SkyScapeDefinition.Metric`), as the driver records them.
    typealias Metric = SkyScapeDefinition.Metric

    let scenario: Scenario
    var devices: [String: Device] = [:]
    var cacheFolder = EmulatedDevices.temporaryFolder()
    var search: CitySearch?
    /// Every searchable place.
    var places: [Place] = []
    /// The truth of SKY-F1's search checks, built from `places` once.
    var searchOracle = SearchRuleOracle(places: [])
    /// Places given by coordinates, by name and position.
    var customPlaces: [String: SavedLocation] = [:]
    var weather: (any WeatherProvider)?
    var samples: [SkySample] = []
    let reference = SunReference()
    var favourites = Favourites()
    var positions: [String: GeoPoint] = [:]
    let quality = GoldenHourQuality()
    /// Where the app gets sunrise and sunset: the scenario's system, or the built-in calculator.
    var sun: any SunTimesSystem = SolarCalculator()
    /// The external sun-times system, when the scenario chose one.
    var externalSun: ExternalSystem?
    /// The days the app has asked for, by place id and local date (one query each).
    var sunDays: [String: SolarDay] = [:]
    var zone = TimeZone(identifier: "UTC")!
    var forecast: WeatherForecast?
    var accounts: AccountRegistry?
    var accountRNG: RandomStream?
    var accountDB = ""

    /// Where the checks go (set in `start`).
    var metrics = MetricCollector()
    /// A fault to inject into the details the app shows (and the age it gives them), for the
    /// checks' own tests; nil in runs.
    var detailsShownFault: ((inout LocationDetails, inout Double) -> Void)?

    init(scenario: Scenario) { self.scenario = scenario }

    func start(_ run: RunContext) throws {
        metrics = run.metrics
        // Reported for every run that lists them, so an unmeasured one fails as such.
        for metric in [
            Metric.polarEventMismatches, Metric.detailFieldsMissing, Metric.qualityOutOfRange,
            Metric.weatherUnservedRefreshes, Metric.plaintextSecretsAtRest,
        ] {
            metrics.declare(metric)
        }
        zone = TimeZone(identifier: scenario.timeZone) ?? zone
        devices = try EmulatedDevices.make(for: run, cacheFolder: cacheFolder)
        let store = run.datasets
        let loaded = try Self.loadPlaces(run)
        places = loaded.places
        search = loaded.search
        searchOracle = try store.cached("search-oracle:" + loaded.key) { [places] in SearchRuleOracle(places: places) }
        if let bad = Self.badPlaceZones(scenario).first {
            throw ListedDatasetError(
                description: "\(scenario.file):\(bad.line): error: time zone '\(bad.zone)' is not an IANA zone; "
                    + "use a name such as Europe/Oslo, or leave 'timezone' out to take the nearest place's")
        }
        if let loaded = try WeatherProviders.replayed(by: scenario, store) {
            weather = loaded
            samples = loaded.skySamples
        }
        if let weather {
            let seedStream = run.stream("forecast-error")
            forecast = WeatherForecast(
                truth: weather, growthPctPerDay: run.number("forecast_error_growth", default: 8),
                seed: seedStream.next())
        }
        accountRNG = run.stream("accounts")
        accountDB = cacheFolder.appendingPathComponent("accounts.sqlite").path
        let key = try KeyProvider(keyBytes: (0..<32).map { _ in UInt8.random(in: 0...255, using: &accountRNG!) })
        accounts = try AccountRegistry(
            path: accountDB, keys: key, configuration: AccountRegistryConfiguration(policy: .skyScapeRegistration),
            durability: .emulated)

        for spec in scenario.devices {
            positions[spec.name] = spec.position.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
        }
        externalSun = try SystemSelection.start(.sun, run: run)
        if let externalSun { sun = ExternalSunTimesSystem(externalSun) }
    }

    /// The solar events the app shows for the local `date` at `loc`, from its sun-times system, to
    /// the second (the protocol's resolution, so the built-in and a served one show the same).
    /// A date the system gave no answer for shows no events.
    func sunDay(_ loc: SavedLocation, date: CivilDate) -> SolarDay {
        let tz = TimeZone(identifier: loc.timeZone) ?? zone
        let key = "\(loc.id)|\(loc.latitude)|\(loc.longitude)|\(tz.identifier)|\(date)"
        if let known = sunDays[key] { return known }
        let query = SunQuery(
            id: key, latitude: loc.latitude, longitude: loc.longitude, date: date.description, timezone: tz.identifier)
        let t = sun.sunTimes([query]).first ?? nil
        func second(_ v: Double?) -> Double? { v.map { $0.rounded() } }
        let day = SolarDay(
            date: date, sunrise: second(t?.sunrise), sunset: second(t?.sunset), solarNoon: second(t?.solarNoon),
            civilDawn: second(t?.civilDawn), civilDusk: second(t?.civilDusk),
            goldenMorning: (second(t?.goldenHourMorningStart), second(t?.goldenHourMorningEnd)),
            goldenEvening: (second(t?.goldenHourEveningStart), second(t?.goldenHourEveningEnd)),
            dayLengthSeconds: second(t?.dayLengthSeconds), note: t.flatMap { SolarDay.Note(rawValue: $0.note) } ?? .none
        )
        sunDays[key] = day
        return day
    }

    // MARK: Timeline (scheduled by the engine)

    func perform(_ action: ActionSpec, actor: Int, at t: Double, _ run: RunContext) {
        perform(action, device: scenario.actors[actor].device, at: t, run)
    }

    func deliver(_ feed: FeedSpec, at t: Double, _ run: RunContext) {
        if feed.kind == "weather-refresh" { refreshAll(at: t, run) }
    }

    func restart(device: String, at t: Double, _ run: RunContext) { restart(device, at: t, run) }

    // MARK: Places and weather

    /// The place a scenario value names: text is searched (the best match), a mapping gives a
    /// spot by coordinates (`SkyScapeDefinition.place`), in its declared zone or that of the
    /// nearest searchable place.
    func place(_ value: LocatedValue?) -> SavedLocation? {
        guard let value else { return nil }
        if let name = value.string { return search?.search(name, limit: 1).first.map(SavedLocation.init(place:)) }
        guard let name = value["name"]?.string, let latitude = value["latitude"]?.double,
            let longitude = value["longitude"]?.double
        else { return nil }
        let key = "\(name)|\(latitude)|\(longitude)"
        if let known = customPlaces[key] { return known }
        let tz =
            value["timezone"]?.string
            ?? PlacesLoader.nearest(latitude: latitude, longitude: longitude, in: places)?.timeZone ?? zone.identifier
        // Negative ids never meet a GeoNames id.
        let location = SavedLocation(
            id: -(customPlaces.count + 1), name: name, latitude: latitude, longitude: longitude, timeZone: tz)
        customPlaces[key] = location
        return location
    }

    /// The coordinate places of the scenario's actions whose declared zone is not an IANA zone.
    static func badPlaceZones(_ scenario: Scenario) -> [(line: Int, zone: String)] {
        scenario.actors.flatMap(\.actions).flatMap { action -> [LocatedValue] in
            [action.parameters["place"]].compactMap { $0 } + (action.parameters["places"]?.array ?? [])
        }.compactMap { value in
            guard let zone = value["timezone"], let name = zone.string, IANATimeZone.zone(named: name) == nil
            else { return nil }
            return (zone.line, name)
        }
    }

    func localDate(_ t: Double) -> CivilDate {
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: t))
        return CivilDate(daysSinceEpoch: Int(((t + Double(offset)) / 86_400).rounded(.down)))
    }

    /// Quality of the sunset (or sunrise) of `date` at `loc`; forecasts beyond now carry a
    /// seeded cloud error growing with lead time.
    func qualityPct(_ loc: SavedLocation, date: CivilDate, sunrise: Bool, now: Double, run: RunContext) -> Double? {
        let day = sunDay(loc, date: date)
        guard let event = sunrise ? day.sunrise : day.sunset else { return nil }
        guard var sky = SkyConditions.window(samples, around: event) else { return nil }
        let leadDays = (event - now) / 86_400
        if leadDays > 0, let forecast { sky = forecast.conditions(sky, at: event, issuedAt: now) }
        let q = quality.score(sky).qualityPct
        recordScore(q)
        return q
    }

    /// Checks a quality shown to the user (SKY-Q1: percent in 0…100).
    func recordScore(_ q: Double) {
        metrics.check(Metric.qualityOutOfRange, (0...100).contains(q))
        metrics.sample(Metric.qualityMean, q)
    }

    /// The details screen (SKY-D2) of `loc` at `t`.
    func details(_ loc: SavedLocation, at t: Double, run: RunContext) -> LocationDetails {
        let date = localDate(t)
        let day = sunDay(loc, date: date)
        // a sunset to score (none on polar or skipped dates)
        let quality = day.sunset != nil ? qualityPct(loc, date: date, sunrise: false, now: t, run: run) : nil
        return LocationDetails(day: day, weather: weather?.observation(at: t), qualityPct: quality)
    }

    // MARK: Actions

    func perform(_ action: ActionSpec, device name: String, at t: Double, _ run: RunContext) {
        guard let device = devices[name] else { return }
        let p = action.parameters
        var network = 0.0
        let (_, compute) = ComputeTimer.measure { () -> Void in
            switch action.kind {
            case "search":
                let query = p["query"]?.string ?? ""
                let hits = search?.search(query, limit: 10) ?? []
                let message = hits.isEmpty ? SkyMessage.noResults : nil
                metrics.check(
                    Metric.f1Behaviour,
                    Self.searchFollowsRule(query: query, hits: hits, message: message, oracle: searchOracle))
            case "add-favourite":
                guard let loc = place(p["place"]) else {
                    metrics.check(Metric.f1Behaviour, false)
                    return
                }
                let already = favourites.locations.contains(loc)
                let message = favourites.add(loc)
                metrics.check(
                    Metric.f1Behaviour, already ? message == "Location already added!" : message == nil)
            case "remove-favourites":
                let ids = Set((p["places"]?.array ?? []).compactMap { place($0)?.id })
                let present = favourites.locations.filter { ids.contains($0.id) }.count
                let removed = favourites.remove(ids: ids)
                metrics.check(
                    Metric.f1Behaviour,
                    removed == present && favourites.locations.allSatisfy { !ids.contains($0.id) })
            case "sort-favourites":
                sortFavourites(by: p["by"]?.string ?? "quality", device: device, deviceName: name, at: t, run: run)
            case "view-details", "open-calendar", "set-reminder":
                guard let loc = place(p["place"]) else {
                    metrics.check(Metric.f1Behaviour, false)
                    return
                }
                if action.kind == "view-details" {
                    network = viewDetails(loc, device: device, at: t, run: run)
                } else if action.kind == "open-calendar" {
                    openCalendar(loc, day: p["day"]?.int ?? 0, at: t, run: run)
                } else {
                    setReminder(loc, sunrise: p["event"]?.string == "sunrise", day: p["day"]?.int ?? 0, at: t, run: run)
                }
            case "register", "login":
                account(action.kind, p, at: t)
            case "move":
                if let la = p["latitude"]?.double, let lo = p["longitude"]?.double {
                    positions[name] = GeoPoint(latitude: la, longitude: lo)
                }
            default:
                break
            }
        }
        run.metrics.latency(Metric.userActionLatency, seconds: compute + network)
    }

    func viewDetails(_ loc: SavedLocation, device: Device, at t: Double, run: RunContext) -> Double {
        let (fields, compute) = ComputeTimer.measure { details(loc, at: t, run: run) }
        var network = 0.0
        do {
            let outcome = try device.fetch(key: "details-\(loc.id)", bytes: 24_000, timeToLiveSeconds: 300, at: t) {
                (try? JSONEncoder().encode(fields)) ?? Data()
            }
            network = outcome.networkSeconds
            // What the screen shows: the copy the fetch served, as old as the fetch says.
            if var shown = outcome.payload.flatMap({ try? JSONDecoder().decode(LocationDetails.self, from: $0) }) {
                var age = outcome.ageSeconds ?? 0
                detailsShownFault?(&shown, &age)
                if device.isOnline(at: t), outcome.ageSeconds != nil {
                    metrics.sample(Metric.weatherAgeOnlineMax, age)
                }
                if let rows = weather?.observations {
                    metrics.check(
                        Metric.shownWeatherMismatches,
                        Self.detailsFollowRecording(shown, rows: rows, at: t - age))
                }
            }
        } catch {
            metrics.check(Metric.detailRequestsFailed, false)
        }
        let missing = Set(fields.missingFields)
        for name in SkyScapeDefinition.detailFields {
            metrics.check(Metric.detailFieldsMissing, !missing.contains(name))
            metrics.sample(Metric.missing(name), missing.contains(name) ? 1 : 0)
        }
        run.metrics.latency(Metric.locationQueryLatency, seconds: compute + network)
        return network
    }

    /// SKY-D1: the weather of a details copy fetched at `fetchedAt` (UTC seconds) is the recording's
    /// then: its cloud layers, rain probability, humidity and wind each lie within the recorded
    /// values around that time (`RecordedWeatherChecks`, on the recording's rows, not through the
    /// app's provider or cache).
    static func detailsFollowRecording(_ shown: LocationDetails, rows: [WeatherObservation], at fetchedAt: Double)
        -> Bool
    {
        let fields: [(Double?, KeyPath<WeatherObservation, Double?>)] = [
            (shown.cloudLowPct, \.sky.cloudLowPct), (shown.cloudMidPct, \.sky.cloudMidPct),
            (shown.cloudHighPct, \.sky.cloudHighPct), (shown.humidityPct, \.sky.humidityPct),
            (shown.windSpeedMps, \.windSpeedMps),
        ]
        let heldRain = RecordedWeatherChecks.heldValue(\.sky.precipProbabilityPct, in: rows, at: fetchedAt)
        return shown.rainProbabilityPct == heldRain
            && fields.allSatisfy { RecordedWeatherChecks.valueFollowsRecording($0.0, $0.1, in: rows, at: fetchedAt) }
    }

    func refreshAll(at t: Double, _ run: RunContext) {
        for (_, device) in devices.sorted(by: { $0.key < $1.key }) where device.isOnline(at: t) {
            for loc in favourites.locations {
                let fields = details(loc, at: t, run: run)
                metrics.check(
                    Metric.weatherUnservedRefreshes, fields.cloudLowPct != nil || fields.humidityPct != nil)
                _ = try? device.fetch(key: "details-\(loc.id)", bytes: 24_000, timeToLiveSeconds: 300, at: t) {
                    (try? JSONEncoder().encode(fields)) ?? Data()
                }
            }
        }
    }

    func restart(_ name: String, at t: Double, _ run: RunContext) {
        guard let device = devices[name] else { return }
        do { try device.restart(at: t) } catch {
            metrics.check(Metric.restartRequestsNotServed, false)
            return
        }
        // The first request after the reboot: details of the first favourite, from the cache.
        guard let loc = favourites.locations.first else { return }
        let (fields, compute) = ComputeTimer.measure { details(loc, at: t, run: run) }
        let outcome = try? device.fetch(key: "details-\(loc.id)", bytes: 24_000, timeToLiveSeconds: 300, at: t) {
            (try? JSONEncoder().encode(fields)) ?? Data()
        }
        let served = outcome?.payload != nil
        metrics.check(Metric.restartRequestsNotServed, served)
        if served { metrics.sample(Metric.restartToServedMax, compute + (outcome?.networkSeconds ?? 0)) }
    }

    func sortFavourites(by key: String, device: Device, deviceName: String, at t: Double, run: RunContext) {
        let order: FavouriteSort
        var qualities: [Int: Double] = [:]
        if key == "distance" {
            let here = positions[deviceName].flatMap { device.position(at: t, truePosition: $0)?.coordinate }
            // No position (no fix, or location permission refused): there is no distance to sort by, and
            // SORT1 says nothing of what the app shows then, so nothing is checked.
            guard let here else {
                metrics.sample(Metric.distanceSortsWithoutPosition, 1)
                return
            }
            order = .distance(latitude: here.latitude, longitude: here.longitude)
        } else {
            for loc in favourites.locations {
                qualities[loc.id] = qualityPct(loc, date: localDate(t), sunrise: false, now: t, run: run)
            }
            order = .quality
        }
        switch favourites.sorted(by: order, quality: qualities) {
        case .message(let m):
            let expected =
                favourites.locations.isEmpty
                ? "No location to be sorted!" : "Please save at least 2 locations before sorting."
            metrics.check(Metric.s1Behaviour, m == expected)
        case .sorted(let list):
            // Independent check of the order: keys non-decreasing, ties alphabetical.
            func keyOf(_ l: SavedLocation) -> Double {
                if case .distance(let la, let lo) = order {
                    return PlacesLoader.greatCircleMetres(la, lo, l.latitude, l.longitude)
                }
                return -(qualities[l.id] ?? -1)
            }
            let ok = zip(list, list.dropFirst()).allSatisfy { a, b in
                keyOf(a) < keyOf(b) || (keyOf(a) == keyOf(b) && a.name <= b.name)
            }
            metrics.check(Metric.s1Behaviour, ok && list.count == favourites.locations.count)
        }
    }

    /// The app's calendar (CAL1) for `loc`, warning below the scenario's `low_quality_threshold` (%).
    func calendar(_ loc: SavedLocation, run: RunContext) -> SkyCalendar {
        var calendar = SkyCalendar(location: loc)
        calendar.model.lowQualityThreshold = run.number("low_quality_threshold", default: quality.lowQualityThreshold)
        return calendar
    }

    /// Opens the app's calendar `day` days from today and checks what it shows against CAL1's window rule.
    func openCalendar(_ loc: SavedLocation, day: Int, at t: Double, run: RunContext) {
        let today = localDate(t)
        let shown = calendar(loc, run: run).select(today.adding(days: day), today: today, samples: samples) {
            self.sunDay(loc, date: $0)
        }
        if case .day(let cell) = shown {
            for q in [cell.sunriseQualityPct, cell.sunsetQualityPct].compactMap({ $0 }) { recordScore(q) }
        }
        metrics.check(
            Metric.c1Behaviour,
            Self.calendarFollowsRule(shown, dayOffset: day, weatherRecorded: !samples.isEmpty))
    }

    /// Sets the app's reminder for the `sunrise` (or sunset) of the day `day` days from today: its warning is
    /// checked against CAL1 1.4.3 and, when it fires, its time against the SPA event minus 30 min.
    func setReminder(_ loc: SavedLocation, sunrise: Bool, day: Int, at t: Double, run: RunContext) {
        let today = localDate(t)
        let date = today.adding(days: day)
        let calendar = calendar(loc, run: run)
        guard
            case .day(let cell) = calendar.select(date, today: today, samples: samples, sun: { sunDay(loc, date: $0) })
        else {
            // Days 0…7 are inside the calendar's window: a reminder can be set.
            metrics.check(Metric.m1Behaviour, false)
            return
        }
        // No reminder when the event does not happen (polar day or night); SKY-P2 checks that against SPA.
        guard
            let reminder = calendar.reminders(for: cell).first(where: { $0.event == (sunrise ? "sunrise" : "sunset") })
        else { return }
        let shownQuality = sunrise ? cell.sunriseQualityPct : cell.sunsetQualityPct
        metrics.check(
            Metric.m1Behaviour,
            Self.reminderWarningFollowsRule(
                reminder.warning, qualityPct: shownQuality,
                thresholdPct: calendar.model.lowQualityThreshold))
        let tz = TimeZone(identifier: loc.timeZone) ?? zone
        let bounds = SolarCalculator.localDayBounds(date, zone: tz)
        let ref = reference.events(
            latitude: loc.latitude, longitude: loc.longitude, sunrise: sunrise,
            from: Double(bounds.start), to: Double(bounds.end)
        ).first
        run.simulation.schedule(at: reminder.fireUTC) { [unowned self] sim in
            if let ref { self.metrics.sample(Metric.reminderAbsErrorMax, abs(sim.now - (ref - 1800))) }
        }
    }

    // MARK: Spec rules (independent of the app's code)

    /// FAV1 search rule, checked against `oracle` (every place name folded once): when a place's name
    /// starts with the query (accents and case folded) there are results, led by the most populous
    /// place of exactly that name if there is one; no results show exactly "No results found".
    static func searchFollowsRule(query: String, hits: [Place], message: String?, oracle: SearchRuleOracle) -> Bool {
        let folded = CitySearch.fold(query)
        if hits.isEmpty {
            guard message == "No results found" else { return false }
            return folded.isEmpty || !oracle.anyName(startingWith: folded)
        }
        guard message == nil else { return false }
        guard let topPopulation = oracle.topPopulation(named: folded) else { return true }
        return CitySearch.fold(hits[0].name) == folded && hits[0].population == topPopulation
    }

    /// CAL1 window rule: more than 7 days ahead shows exactly "No predictions for the selected date yet!",
    /// more than 30 days back exactly "Information expired."; in between the day's cell, with a sunset
    /// quality whenever the sun sets and weather was recorded.
    static func calendarFollowsRule(_ shown: CalendarSelection, dayOffset: Int, weatherRecorded: Bool) -> Bool {
        let expectedMessage: String? =
            dayOffset > 7
            ? "No predictions for the selected date yet!"
            : (dayOffset < -30 ? "Information expired." : nil)
        switch shown {
        case .message(let m): return m == expectedMessage
        case .day(let cell):
            return expectedMessage == nil
                && !(cell.sun.sunset != nil && cell.sunsetQualityPct == nil && weatherRecorded)
        }
    }

    /// CAL1 1.4.3 rule: a reminder warns, with exactly "Low chance of a visible sunrise/sunset on the selected
    /// day.", when the quality shown for its event (percent) is below `thresholdPct`, and otherwise not.
    static func reminderWarningFollowsRule(_ warning: String?, qualityPct: Double?, thresholdPct: Double) -> Bool {
        let low = qualityPct.map { $0 < thresholdPct } ?? false
        return low ? warning == "Low chance of a visible sunrise/sunset on the selected day." : warning == nil
    }

    func account(_ kind: String, _ p: LocatedValue, at t: Double) {
        guard let accounts, var rng = accountRNG else { return }
        let username = p["username"]?.string ?? ""
        let password = p["password"]?.string ?? ""
        let expectAccept = p["expect"]?.string != "reject"
        let now = Date(timeIntervalSince1970: t)
        if kind == "register" {
            let form = RegistrationForm(
                username: username, email: p["email"]?.string, password: password,
                passwordConfirmation: p["confirm"]?.string ?? password)
            do {
                let outcome = try accounts.register(form, now: now, using: &rng)
                if case .pendingVerification(let delivery) = outcome {
                    _ = try accounts.verifyEmail(pendingID: delivery.pendingID, code: delivery.code, now: now)
                }
                metrics.check(Metric.a1Behaviour, expectAccept)
            } catch {
                if case .registrationRejected(let v) = error {
                    metrics.check(Metric.a1Behaviour, !expectAccept && !v.isEmpty)
                } else {
                    metrics.check(Metric.a1Behaviour, false)
                }
            }
        } else {
            do {
                _ = try accounts.login(identifier: username, password: password, now: now, using: &rng)
                metrics.check(Metric.a2Behaviour, expectAccept)
            } catch {
                metrics.check(
                    Metric.a2Behaviour,
                    !expectAccept && error.description == "Incorrect username or password. Please try again.")
            }
        }
    }

    // MARK: Summary

    func finish(_ run: RunContext) throws {
        defer { try? FileManager.default.removeItem(at: cacheFolder) }
        SystemSelection.finish(externalSun, run: run)
        let m = run.metrics
        // SKY-P2: sunrise/sunset shown for every scenario day at every favourite and searched place vs SPA.
        let locations = Set(favourites.locations).union(
            scenario.actors.flatMap(\.actions).compactMap { place($0.parameters["place"]) })
        let firstDay = localDate(scenario.start)
        let days = Int((scenario.duration / 86_400).rounded(.up))
        for loc in locations.sorted(by: { $0.id < $1.id }) {
            let tz = TimeZone(identifier: loc.timeZone) ?? zone
            for k in 0...max(0, days) {
                let date = firstDay.adding(days: k)
                let b = SolarCalculator.localDayBounds(date, zone: tz)
                let shown = sunDay(loc, date: date)
                for (isRise, value) in [(true, shown.sunrise), (false, shown.sunset)] {
                    let ref = reference.events(
                        latitude: loc.latitude, longitude: loc.longitude, sunrise: isRise,
                        from: Double(b.start), to: Double(b.end))
                    let event = ItemOutcome(
                        item: "\(loc.name) \(date) \(isRise ? "sunrise" : "sunset")",
                        expected: ref.first.map { CivilTime.isoUTC(Int($0.rounded())) } ?? "none",
                        answer: value.map { CivilTime.isoUTC(Int($0.rounded())) } ?? "none")
                    if let value, let r = ref.first {
                        m.sample(Metric.sunEventAbsErrorMax, abs(value - r), item: event)
                        m.sample(Metric.sunEventAbsErrorMean, abs(value - r))
                    }
                    // An event shown where the reference has none, or missing where it has one.
                    m.check(Metric.polarEventMismatches, (value == nil) == ref.isEmpty, item: event)
                }
            }
        }
        m.declareLatency(Metric.locationQueryLatency)
        // SKY-SEC: no plaintext email or password in the account database file.
        if run.reports("SKY-SEC") {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: accountDB))) ?? Data()
            for action in scenario.actors.flatMap(\.actions) where action.kind == "register" {
                for secret in [action.parameters["email"]?.string, action.parameters["password"]?.string].compactMap({
                    $0
                }) where !secret.isEmpty {
                    // An unreadable store proves nothing: each secret counts as leaked.
                    m.check(
                        Metric.plaintextSecretsAtRest,
                        !bytes.isEmpty && bytes.range(of: Data(secret.utf8)) == nil)
                }
            }
        }
    }
}
