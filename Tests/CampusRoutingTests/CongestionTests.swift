import CampusRouting
import FieldtestData
import Foundation
import Testing

@Suite("Congestion: Weidmann speeds, densities, regret, cache")
struct CongestionTests {
    @Test("Weidmann factor matches the formula")
    func weidmann() {
        #expect(abs(WeidmannSpeed.factor(density: 0) - 1) < 1e-12)
        // Values from Python: 1 - exp(-1.913 * (1/ρ - 1/5.4)).
        #expect(abs(WeidmannSpeed.factor(density: 1) - 0.7895991463259704) < 1e-12)
        #expect(abs(WeidmannSpeed.factor(density: 3) - 0.2467871391570694) < 1e-12)
        #expect(abs(WeidmannSpeed.factor(density: 6) - WeidmannSpeed.minimumFactor) < 1e-12)
        #expect(abs(WeidmannSpeed.slowdown(density: 1) - 1 / 0.7895991463259704) < 1e-12)
    }

    static func crowd(on point: GeoPoint, devices: Int, time: Double) -> [CrowdPing] {
        (0..<devices).map { CrowdPing(device: "d\($0)", time: time, location: point, accuracyMetres: 5) }
    }

    @Test("pings are matched to the nearest edge and counted per device in the window")
    func density() throws {
        let g = try SmallMap.graph()
        let est = CrowdDensityEstimator(graph: g)
        let mid = GeoPoint(latitude: 0.00001, longitude: 0.0005)  // on South Walk (A–B)
        var pings = Self.crowd(on: mid, devices: 3, time: 100)
        pings.append(CrowdPing(device: "d0", time: 90, location: mid, accuracyMetres: 5))  // same device again
        pings.append(CrowdPing(device: "old", time: 10, location: mid, accuracyMetres: 5))  // outside window
        let dens = est.densities(pings: pings, at: 100, windowSeconds: 60)
        let south = try #require(g.edges.firstIndex { $0.name == "South Walk" })
        // 3 devices on a 111.195 m footway of default width 2.5 m.
        #expect(abs(dens[south] - 3 / (SmallMap.milliDegree * 2.5)) < 1e-12)
        #expect(dens.enumerated().allSatisfy { $0.offset == south || $0.element == 0 })
    }

    @Test("congestion reroutes walkers; regret measures the cost of ignoring it")
    func regret() throws {
        let g = try SmallMap.graph()
        let walk = try g.profileIndex(named: "walk")
        let south = try #require(g.edges.firstIndex { $0.name == "South Walk" })
        var densities = [Double](repeating: 0, count: g.edges.count)
        densities[south] = 3
        let truth = WeidmannSpeed.slowdowns(densities: densities)
        var router = AStarRouter()
        let naive = router.route(in: g, from: SmallMap.a, to: SmallMap.c, profile: walk)
        let aware = router.route(in: g, from: SmallMap.a, to: SmallMap.c, profile: walk, slowdown: truth)
        #expect(aware.points == [SmallMap.a, SmallMap.d, SmallMap.c])
        let r = try #require(RouteRegret.regret(of: naive, in: g, profile: walk, trueSlowdown: truth, router: &router))
        let naiveTime = (SmallMap.milliDegree / 0.2467871391570694 + SmallMap.milliDegree) / 1.4
        #expect(abs(r - (naiveTime / aware.durationSeconds - 1)) < 1e-9)
        #expect(r > 0.3)
        let zero = try #require(
            RouteRegret.regret(of: aware, in: g, profile: walk, trueSlowdown: truth, router: &router))
        #expect(abs(zero) < 1e-12)
    }

    @Test("offline routing uses the cached snapshot and reports its age")
    func cache() {
        var cache = CongestionCache()
        let s1 = CongestionSnapshot(takenAt: 100, densities: [0.5])
        #expect(cache.congestion(now: 200, online: false, fresh: s1).snapshot == nil)
        let online = cache.congestion(now: 100, online: true, fresh: s1)
        #expect(!online.fromCache)
        let offline = cache.congestion(now: 700, online: false, fresh: CongestionSnapshot(takenAt: 700, densities: [9]))
        #expect(offline.fromCache)
        #expect(offline.snapshot == s1)
        #expect(abs(offline.ageSeconds - 600) < 1e-12)
    }

    @Test("heatmap counts devices per cell")
    func heatmap() {
        let pings =
            Self.crowd(on: GeoPoint(latitude: 0.0001, longitude: 0.0001), devices: 4, time: 5)
            + [
                CrowdPing(
                    device: "x", time: 5, location: GeoPoint(latitude: 0.0006, longitude: 0.0001), accuracyMetres: 3)
            ]
        let h = CrowdHeatmap(
            pings: pings, origin: GeoPoint(latitude: 0, longitude: 0), cellMetres: 50, at: 5, windowSeconds: 10)
        #expect(h.cells.map(\.devices) == [4, 1])
        #expect(h.cells.map(\.row) == [0, 1])
        #expect(abs(h.cells[0].density - 4.0 / 2500) < 1e-15)
    }
}

@Suite("Crowd ping privacy and access rules")
struct CrowdPingStoreTests {
    static func ping(_ d: String, _ t: Double) -> CrowdPing {
        CrowdPing(device: d, time: t, location: GeoPoint(latitude: 0, longitude: 0), accuracyMetres: 5)
    }

    @Test("no ping is stored before consent")
    func consent() {
        var store = CrowdPingStore(retentionSeconds: 3600)
        let first = store.submit(Self.ping("a", 1))
        #expect(!first)
        #expect(store.pings.isEmpty)
        #expect(store.refusedWithoutConsent == 1)
        store.grantConsent("a")
        let second = store.submit(Self.ping("a", 2))
        #expect(second)
        #expect(store.pings.count == 1)
    }

    @Test("withdrawal deletes the device's data and stops collection")
    func withdraw() {
        var store = CrowdPingStore(retentionSeconds: 3600)
        store.grantConsent("a")
        store.grantConsent("b")
        store.submit(Self.ping("a", 1))
        store.submit(Self.ping("a", 2))
        store.submit(Self.ping("b", 3))
        let deleted = store.withdrawConsent("a")
        #expect(deleted == 2)
        #expect(store.pings.map(\.device) == ["b"])
        let after = store.submit(Self.ping("a", 4))
        #expect(!after)
    }

    @Test("pings past retention are dropped")
    func retention() {
        var store = CrowdPingStore(retentionSeconds: 100)
        store.grantConsent("a")
        store.submit(Self.ping("a", 0))
        store.submit(Self.ping("a", 50))
        store.submit(Self.ping("a", 120))
        #expect(store.pings.map(\.time) == [50, 120])
        let pruned = store.prune(now: 1000)
        #expect(pruned == 2)
    }

    @Test("mobile users read but cannot write congestion", arguments: [CrowdRole.mobile, .agent, .admin])
    func access(role: CrowdRole) {
        var store = CrowdPingStore(retentionSeconds: 100)
        let snap = CongestionSnapshot(takenAt: 1, densities: [0.2])
        let ok = store.publish(snap, by: role)
        #expect(ok == (role != .mobile))
        #expect(store.deniedWrites == (role == .mobile ? 1 : 0))
        #expect(store.congestion(for: .mobile) == (ok ? snap : nil))
    }
}
