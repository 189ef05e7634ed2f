import CampusRouting
import Capabilities
import DeviceEmulation
import FieldtestData
import Foundation
import MetricReports
import Positioning
import ScenarioEngine

/// Walks: step counting and distance (NAV-F22), place history (NAV-F21), goals and ranking (NAV-F29),
/// outdoor GPS + PDR positioning and indoor Wi-Fi fingerprinting (NAV-L1), preferences and reminders (NAV-F19).
extension NavUPDriver {
    /// Walks `seconds` at `pace` to a seeded random venue: the phone's IMU trace goes through the step
    /// detector; the arrival is appended to the place history kept in the phone's offline cache.
    func walk(actor i: Int, seconds: Double, pace: WalkingPace, _ run: RunContext) throws {
        guard let campus, let device = devices[actors[i].device] else { return }
        let trace = try device.walk(
            startTime: run.now, segments: [WalkingSegment(durationSeconds: seconds, pace: pace)])
        let steps = try StepDetector().detect(
            timesSeconds: trace.accelerometer.map(\.time), x: trace.accelerometer.map(\.x),
            y: trace.accelerometer.map(\.y), z: trace.accelerometer.map(\.z))
        let truth = trace.trueStepCount
        let m = run.metrics
        m.sample(
            Metric.stepCountErrorMax, truth > 0 ? abs(Double(steps.count - truth)) / Double(truth) : 0)
        m.add(Metric.stepsDetectedTotal, Double(steps.count))
        m.add(Metric.stepsTrueTotal, Double(truth))
        actors[i].walked = true
        actors[i].steps += steps.map { StepEvent(timeSeconds: $0, lengthMetres: pace.stepLengthMetres) }
        let rng = stream(run, "walk-destinations")
        let v = rng.uniformInt(below: campus.venues.count)
        actors[i].venue = v
        actors[i].location = campus.venues[v].location
        let name = campus.venues[v].name
        actors[i].history.append(name)
        if let cache = device.cache {
            let key = "navup-history-\(actors[i].name)"
            var lines = try cache.entry(forKey: key).map { String(decoding: $0.payload, as: UTF8.self) } ?? ""
            lines += name + "\n"
            try cache.store(
                CacheEntry(
                    key: key, payload: Data(lines.utf8), fetchedAt: run.now + seconds,
                    timeToLiveSeconds: 365 * 86400))
        }
    }

    /// NAV-L1 outdoors: a straight walk of `seconds` from the actor's place on a seeded heading; GPS fixes
    /// every second from the phone's receiver, fused with detected steps (length from the pace, heading
    /// from the compass with 0.1 rad noise) by the Kalman filter; errors of the fused and GPS-only tracks.
    func locateOutdoor(actor i: Int, seconds: Double, _ run: RunContext) throws {
        guard let device = devices[actors[i].device] else { return }
        let rng = stream(run, "outdoor")
        let heading = rng.uniform() * 2 * Double.pi
        let t0 = run.now
        let trace = try device.walk(
            startTime: t0, segments: [WalkingSegment(durationSeconds: seconds, pace: .normal)],
            initialHeadingRadians: heading)
        var east = [0.0]
        var north = [0.0]
        var times = [t0]
        for (k, t) in trace.trueStepTimes.enumerated() {
            let l = trace.trueStepLengthsMetres[k]
            let h = trace.trueStepHeadingsRadians[k]
            east.append((east.last ?? 0) + l * sin(h))
            north.append((north.last ?? 0) + l * cos(h))
            times.append(t)
        }
        func truth(at t: Double) -> (Double, Double) {
            var k = 0
            while k + 1 < times.count && times[k + 1] <= t { k += 1 }
            guard k + 1 < times.count else { return (east[k], north[k]) }
            let f = (t - times[k]) / max(1e-9, times[k + 1] - times[k])
            return (east[k] + f * (east[k + 1] - east[k]), north[k] + f * (north[k + 1] - north[k]))
        }
        let origin = actors[i].location
        let steps = try StepDetector().detect(
            timesSeconds: trace.accelerometer.map(\.time), x: trace.accelerometer.map(\.x),
            y: trace.accelerometer.map(\.y), z: trace.accelerometer.map(\.z))
        let stepLength = WalkingPace.normal.stepLengthMetres
        var filter: GPSDeadReckoningFilter?
        var last = t0
        var stepIndex = 0
        var previousStep = t0
        var t = t0 + 1
        // The tracks for the trace: true positions, GPS fixes and the filter's estimates.
        var truePoints: [GeoPoint] = []
        var gpsPoints: [GeoPoint] = []
        var fusedPoints: [GeoPoint] = []
        while t < t0 + seconds {
            while stepIndex < steps.count && steps[stepIndex] <= t {
                let st = steps[stepIndex]
                if var f = filter {
                    f.predict(dtSeconds: st - last)
                    let k = trace.trueStepTimes.lastIndex { $0 <= st } ?? 0
                    let h =
                        (trace.trueStepHeadingsRadians.indices.contains(k) ? trace.trueStepHeadingsRadians[k] : heading)
                        + rng.gaussian(standardDeviation: 0.1)
                    f.updateStep(
                        lengthMetres: stepLength, headingRadians: h, durationSeconds: max(0.2, st - previousStep))
                    filter = f
                    last = st
                }
                previousStep = st
                stepIndex += 1
            }
            let (te, tn) = truth(at: t)
            let here = origin.offset(eastMetres: te, northMetres: tn)
            if run.trace.isRecording { truePoints.append(here) }
            if let fix = device.position(at: t, truePosition: here) {
                let (fe, fn) = Geodesy.localMetres(fix.coordinate, origin: origin)
                if var f = filter {
                    f.predict(dtSeconds: t - last)
                    f.updateGPS(east: fe, north: fn, sigmaMetres: max(1, fix.horizontalAccuracyMetres))
                    filter = f
                } else {
                    filter = GPSDeadReckoningFilter(
                        east: fe, north: fn, positionSigma: max(1, fix.horizontalAccuracyMetres))
                }
                last = t
                outdoorGPS.append(((fe - te) * (fe - te) + (fn - tn) * (fn - tn)).squareRoot())
                if run.trace.isRecording {
                    gpsPoints.append(fix.coordinate)
                    run.trace.event(
                        TraceEvent(
                            time: t, device: actors[i].device, requirement: "NAV-L1", metric: "gps_error",
                            value: outdoorGPS[outdoorGPS.count - 1], unit: "m"))
                }
            }
            if var f = filter {
                f.predict(dtSeconds: t - last)
                last = t
                filter = f
                outdoorFused.append(((f.east - te) * (f.east - te) + (f.north - tn) * (f.north - tn)).squareRoot())
                if run.trace.isRecording {
                    fusedPoints.append(origin.offset(eastMetres: f.east, northMetres: f.north))
                    run.trace.event(
                        TraceEvent(
                            time: t, device: actors[i].device, requirement: "NAV-L1", metric: "fused_error",
                            value: outdoorFused[outdoorFused.count - 1], unit: "m"))
                }
            }
            t += 1
        }
        traceOutdoorWalk(
            device: actors[i].device, truth: truePoints, gps: gpsPoints, fused: fusedPoints, start: t0, run)
    }

    /// The Wi-Fi locator trained on `fingerprint_train`, and the rows of `fingerprint_test` whose phones
    /// are absent from training (held out by device), both cached across sweep cases.
    func fingerprintData(_ run: RunContext) throws -> (
        FingerprintLocator, seen: [FingerprintSample], unseen: [FingerprintSample]
    ) {
        let trainName = try run.dataset(
            parameter: "fingerprint_train", formats: [.ujiIndoorLoc], what: "Wi-Fi fingerprint training set")
        let testName = try run.dataset(
            parameter: "fingerprint_test", formats: [.ujiIndoorLoc], position: 1, what: "Wi-Fi fingerprint test set")
        let trainURL = try run.datasets.url(trainName)
        let testURL = try run.datasets.url(testName)
        let train = try run.datasets.cached("navup-fp-train-\(trainName)") {
            try FingerprintSample.fromUJIIndoorLoc(UJIIndoorLoc.load(url: trainURL, displayName: trainName).records)
        }
        let locator = try run.datasets.cached("navup-fp-locator-\(trainName)") {
            try FingerprintLocator(training: train)
        }
        let phones = Set(train.map(\.phone))
        let test = try run.datasets.cached("navup-fp-test-\(testName)") {
            try FingerprintSample.fromUJIIndoorLoc(UJIIndoorLoc.load(url: testURL, displayName: testName).records)
        }
        return (locator, test.filter { phones.contains($0.phone) }, test.filter { !phones.contains($0.phone) })
    }

    /// NAV-L1 indoors: `samples` seeded held-out rows recorded by phones that are also in the training set
    /// (other rows, other moments: the checked set), and as many rows of phones absent from training
    /// (a new device: reported beside it).
    func locateIndoor(samples: Int, _ run: RunContext) throws {
        let (locator, seen, unseen) = try fingerprintData(run)
        guard !seen.isEmpty, !unseen.isEmpty else {
            throw NavUPDriverError(
                description: "'fingerprint_test' needs rows of phones both in and absent from 'fingerprint_train'")
        }
        if positioning == nil {
            // The scenario's external locator, handed the training file, or the built-in one.
            // The same training set the built-in locator was trained on (`fingerprintData`).
            let trainName = try run.dataset(
                parameter: "fingerprint_train", formats: [.ujiIndoorLoc], what: "Wi-Fi fingerprint training set")
            externalPositioning = try SystemSelection.start(
                .locate, run: run,
                setup: [SetupDataset(path: try run.datasets.url(trainName).path, format: "ujiindoorloc-csv")])
            positioning = externalPositioning.map { ExternalPositioningSystem($0) } ?? locator
        }
        guard let positioning else { return }
        let rng = stream(run, "indoor")
        for _ in 0..<samples {
            let q = seen[rng.uniformInt(below: seen.count)]
            locateQueries += 1
            // End to end through the system (for an external one, the round trip to its process).
            let (answer, seconds) = ComputeTimer.measure {
                positioning.locate([LocateQuery(id: "q\(locateQueries)", rssi: q.rssi)])[0]
            }
            run.metrics.latency(Metric.indoorLocateLatency, seconds: seconds)
            // A fingerprint the system gave no estimate for is left out (its fault is counted).
            if let answer {
                indoorEstimates.append(Self.estimate(answer))
                indoorTruth.append(q)
            }
            run.metrics.item(Metric.indoorErrorMean, Self.item(q, answer, id: "q\(locateQueries)"))
            let u = unseen[rng.uniformInt(below: unseen.count)]
            locateQueries += 1
            if let answer = positioning.locate([LocateQuery(id: "q\(locateQueries)", rssi: u.rssi)])[0] {
                newPhoneEstimates.append(Self.estimate(answer))
                newPhoneTruth.append(u)
            }
        }
    }

    /// A located fingerprint as `items.csv` shows it: projected metres, floor and building.
    static func item(_ q: FingerprintSample, _ a: LocateAnswer?, id: String) -> ItemOutcome {
        func text(_ x: Double, _ y: Double, _ floor: Int, _ building: Int) -> String {
            String(format: "%.2f %.2f floor %d building %d", x, y, floor, building)
        }
        guard let a else {
            return ItemOutcome(item: id, expected: text(q.xMetres, q.yMetres, q.floor, q.building), answer: "")
        }
        let dx = a.longitude - q.xMetres
        let dy = a.latitude - q.yMetres
        return ItemOutcome(
            item: id, expected: text(q.xMetres, q.yMetres, q.floor, q.building),
            answer: text(a.longitude, a.latitude, a.floor, a.building),
            correct: a.floor == q.floor && a.building == q.building, error: (dx * dx + dy * dy).squareRoot())
    }

    static func estimate(_ a: LocateAnswer) -> FingerprintEstimate {
        FingerprintEstimate(xMetres: a.longitude, yMetres: a.latitude, floor: a.floor, building: a.building)
    }

    /// The campus events as the positioning core sees them.
    var coreEvents: [Positioning.CampusEvent] {
        events.map {
            Positioning.CampusEvent(
                id: String($0.id), category: $0.category, placeID: String($0.venue),
                startSeconds: $0.start, endSeconds: $0.end)
        }
    }

    /// NAV-F19: the app's list of preferred events of the next day (`EventReminders.upcoming`), checked
    /// against a scan of every event: preferred category, not over, starting within the horizon.
    func listPreferred(actor i: Int, _ run: RunContext) {
        guard let categories = actors[i].categories else { return }
        let now = run.now
        let prefs = UserPreferences(categories: categories, reminderLeadSeconds: actors[i].lead)
        let listed = Set(
            EventReminders.upcoming(coreEvents, preferences: prefs, nowSeconds: now, horizonSeconds: 86400).map(\.id))
        let expected = Set(
            events.filter { categories.contains($0.category) && $0.end > now && $0.start < now + 86400 }
                .map { String($0.id) })
        run.metrics.check(Metric.preferenceListingErrors, listed == expected)
    }

    /// Schedules the reminders `EventReminders.reminders` asks for, once per event and actor.
    func scheduleReminders(_ run: RunContext) {
        let all = coreEvents
        for i in actors.indices {
            guard let categories = actors[i].categories else { continue }
            let prefs = UserPreferences(categories: categories, reminderLeadSeconds: actors[i].lead)
            for r in EventReminders.reminders(all, preferences: prefs, nowSeconds: run.now) {
                guard let id = Int(r.eventID), actors[i].reminded.insert(id).inserted else { continue }
                run.simulation.schedule(at: r.dueSeconds) { [weak self] sim in
                    self?.reminderLog.append((i, id, sim.now))
                }
            }
        }
    }

    /// NAV-F19 when the run ends: each preferred event's reminder fired once, when due, exactly when
    /// it should have (an independent recount); and how many fired.
    func checkReminders(_ run: RunContext) {
        var checks = 0
        for (i, a) in actors.enumerated() {
            guard let categories = a.categories else { continue }
            for e in events where categories.contains(e.category) {
                // Known to the app from max(creation, preferences); reminded then at once if the lead time has passed.
                let known = max(e.created, a.preferencesSince)
                let due = max(known, e.start - a.lead)
                let shouldFire = e.start > known && due <= run.scenario.end
                let fired = reminderLog.filter { $0.actor == i && $0.event == e.id }
                checks += 1
                run.metrics.check(
                    Metric.reminderErrors,
                    shouldFire ? fired.count == 1 && abs((fired.first?.time ?? 0) - due) <= 1e-6 : fired.isEmpty
                )
            }
        }
        if checks > 0 { run.metrics.add(Metric.remindersFired, Double(reminderLog.count), samples: checks) }
    }
}
