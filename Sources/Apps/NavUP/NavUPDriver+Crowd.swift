import AccountStore
import CampusRouting
import DeviceEmulation
import FieldtestData
import Foundation
import ScenarioEngine

/// Crowd pings, published congestion, consent and access rights (NAV-F7, NAV-F26, NAV-PR1).
extension NavUPDriver {
    /// One delivery of crowd pings: walkers and consenting actors' phones ping; the agent publishes the
    /// density snapshot of the last `window` seconds; estimated and true densities are compared.
    func crowdTick(at time: Double, window: Double, _ run: RunContext) {
        guard let campus, let estimator else { return }
        for ping in crowd?.pings(at: time) ?? [] { store.submit(ping) }
        for a in actors {
            guard let device = devices[a.device] else { continue }
            let truth = a.location
            // The app sends a ping only when the phone stored it, i.e. after consent (NAV-PR1).
            if device.collectLocation(userID: a.name, at: time, truePosition: truth),
                let last = device.consent.records.last
            {
                store.submit(
                    CrowdPing(
                        device: a.device, time: time,
                        location: GeoPoint(latitude: last.latitude, longitude: last.longitude), accuracyMetres: 10))
            }
        }
        store.prune(now: time)
        let snapshot = estimator.snapshot(pings: store.pings, at: time, windowSeconds: window)
        store.publish(snapshot, by: .agent)
        checkPrivacy(at: time, run)
        guard let crowd else { return }
        let truth = crowd.trueDensities(at: time, estimator: estimator)
        guard truth.contains(where: { $0 > 0 }) else { return }
        for e in 0..<truth.count where truth[e] > 0 || snapshot.densities[e] > 0 {
            run.metrics.sample(Metric.edgeDensityCorrelation, pair: truth[e], snapshot.densities[e])
            run.metrics.sample(Metric.edgeDensityMae, abs(truth[e] - snapshot.densities[e]))
        }
        // The heat map the app shows (`CrowdHeatmap` of the pings) against the walkers' true positions
        // counted per 50 m cell here, by the documented grid (rows north, columns east of the origin,
        // equirectangular at its latitude), not by the heat map's own code.
        let estMap = CrowdHeatmap(
            pings: store.pings.filter { $0.device.hasPrefix("crowd-") }, origin: campus.origin,
            cellMetres: 50, at: time, windowSeconds: window)
        var cells: [[Int]: (Double, Double)] = [:]
        let rad = Double.pi / 180
        let radius = 6_371_008.8
        for w in crowd.walkers(at: time) {
            let east = (w.point.longitude - campus.origin.longitude) * rad * cos(campus.origin.latitude * rad) * radius
            let north = (w.point.latitude - campus.origin.latitude) * rad * radius
            cells[[Int((north / 50).rounded(.down)), Int((east / 50).rounded(.down))], default: (0, 0)].0 += 1
        }
        for c in estMap.cells { cells[[c.row, c.column], default: (0, 0)].1 = Double(c.devices) }
        if run.trace.isRecording { lastHeatmap = (time, estMap, cells.mapValues { Int($0.0) }) }
        for k in cells.keys.sorted(by: { ($0[0], $0[1]) < ($1[0], $1[1]) }) {
            if let v = cells[k] { run.metrics.sample(Metric.heatmap50mCorrelation, pair: v.0, v.1) }
        }
    }

    func grantConsent(device: String, at time: Double) {
        store.grantConsent(device)
        devices[device]?.consent.give(at: time)
        consentSince[device] = time
    }

    /// Withdrawal deletes the user's identifiable data on the server and on the phone; checks none is left.
    func withdrawConsent(device: String, at time: Double, _ run: RunContext) {
        store.withdrawConsent(device)
        _ = devices[device]?.consent.withdrawAndDelete(at: time)
        consentSince[device] = nil
        let left = store.pings.filter { $0.device == device }.count + (devices[device]?.consent.records.count ?? 0)
        run.metrics.check(Metric.dataLeftAfterWithdrawal, left == 0)
    }

    /// NAV-PR1 at `time`, per phone: no ping stored on the server and no location record kept on the
    /// phone from a moment without the user's consent (as the scenario's consent actions set it, not as
    /// the phone or the server believe it); and no ping past retention. The collections refused since the
    /// last check are counted with this one (one sample per phone).
    func checkPrivacy(at time: Double, _ run: RunContext) {
        let m = run.metrics
        for name in devices.keys.sorted() {
            let since = consentSince[name]
            let mine = store.pings.filter { $0.device == name }
            m.check(
                Metric.pingsStoredWithoutConsent,
                !mine.contains { since == nil || $0.time < since ?? 0 })
            let records = devices[name]?.consent.records ?? []
            m.check(
                Metric.phoneRecordsWithoutConsent,
                !records.contains { since == nil || $0.time < since ?? 0 })
        }
        m.check(
            Metric.pingsPastRetention,
            !store.pings.contains { $0.time < time - store.retentionSeconds })
        let refusals =
            store.refusedWithoutConsent
            + devices.keys.sorted().reduce(0) { $0 + (devices[$1]?.consent.refusedCollections ?? 0) }
        m.add(
            Metric.collectionsRefusedWithoutConsent, Double(refusals - refusalsRecorded),
            samples: devices.count)
        refusalsRecorded = refusals
    }

    /// NAV-F26: a congestion write by `role`; the store and the account policy must both refuse mobile
    /// users and accept agents and administrators; every role may read.
    func writeCongestion(role name: String, _ run: RunContext) {
        guard let estimator else { return }
        let role = CrowdRole(rawValue: name) ?? .mobile
        let accountRole: Role = role == .mobile ? .mobileUser : (role == .agent ? .agent : .admin)
        let snapshot = estimator.snapshot(pings: store.pings, at: run.now, windowSeconds: 300)
        let deniedBefore = store.deniedWrites
        let accepted = store.publish(snapshot, by: role)
        let allowed = AccessPolicy.navUP.allows(accountRole, .write, .congestionData)
        let canRead =
            AccessPolicy.navUP.allows(accountRole, .read, .congestionData) && store.congestion(for: role) != nil
        let expected = role != .mobile
        run.metrics.check(
            Metric.writeRightsErrors, accepted == expected && allowed == expected && canRead)
        if role == .mobile {
            // Every write a mobile user tried must be denied by the store.
            mobileWrites += 1
            run.metrics.add(
                Metric.mobileWritesDenied, Double(store.deniedWrites - deniedBefore),
                threshold: Double(mobileWrites))
        }
    }
}
