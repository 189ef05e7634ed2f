import FieldtestData
import FieldtestGSL
import Foundation
import Testing

@testable import DeviceEmulation

@Suite("Device")
struct DeviceTests {
    static let here = GeoPoint(latitude: 40.81, longitude: -96.70)

    static func cachePath() throws -> String {
        try OfflineCacheTests.temporaryDatabasePath()
    }

    static func gpsTrack(_ device: Device, from start: Int, count: Int) -> [GPSFix?] {
        (start..<(start + count)).map { device.position(at: Double($0), truePosition: here) }
    }

    @Test("each component has its own sub-stream: using Wi-Fi, cells and the network never changes GPS draws")
    func subStreamIsolation() throws {
        let profile = DeviceProfile(name: "phone", gpsEnvironment: .urban, cellularPreset: .veryBadNetwork)
        let quiet = try Device(profile: profile, stream: RandomStream(seed: 1234))
        let busy = try Device(profile: profile, stream: RandomStream(seed: 1234))
        busy.wifiScanner = try WiFiScanner(accessPoints: [
            AccessPoint(bssid: "a", position: LocalPosition(east: 5, north: 5))
        ])
        busy.cellScanner = try CellTowerScanner(towers: [
            CellTower(cellID: "c", position: LocalPosition(east: 500, north: 0, up: 25))
        ])
        var busyFixes: [GPSFix?] = []
        for second in 0..<200 {
            _ = busy.scanWiFi(at: Double(second), from: LocalPosition(east: 0, north: 0))
            _ = busy.scanCells(at: Double(second), from: LocalPosition(east: 0, north: 0))
            _ = busy.request(bytes: 5000, at: Double(second))
            _ = try busy.walk(
                startTime: Double(second), segments: [WalkingSegment(durationSeconds: 0.5, pace: .normal)])
            busyFixes.append(busy.position(at: Double(second), truePosition: Self.here))
        }
        #expect(Self.gpsTrack(quiet, from: 0, count: 200) == busyFixes)
        // A different device stream gives different fixes.
        let other = try Device(profile: profile, stream: RandomStream(seed: 1235))
        #expect(Self.gpsTrack(other, from: 0, count: 200) != busyFixes)
    }

    @Test("same seed ⇒ identical Wi-Fi scans, requests and gait samples")
    func determinism() throws {
        func run() throws -> ([WiFiScan?], [RequestOutcome], GaitTrace) {
            let device = try Device(
                profile: DeviceProfile(name: "p", cellularPreset: .edge), stream: RandomStream(seed: 77))
            device.wifiScanner = try WiFiScanner(
                accessPoints: (0..<5).map {
                    AccessPoint(bssid: "ap\($0)", position: LocalPosition(east: Double($0) * 10, north: 0))
                })
            let scans = (0..<20).map { device.scanWiFi(at: Double($0), from: LocalPosition(east: 3, north: 2)) }
            let requests = (0..<20).map { device.request(bytes: 10_000, at: Double($0)) }
            let trace = try device.walk(startTime: 0, segments: [WalkingSegment(durationSeconds: 5, pace: .fast)])
            return (scans, requests, trace)
        }
        let first = try run()
        let second = try run()
        #expect(first.0 == second.0)
        #expect(first.1 == second.1)
        #expect(first.2 == second.2)
    }

    @Test(
        "WXC-P1 on a device: refused location hides fixes without shifting the GPS stream; refused cellular is offline")
    func permissions() throws {
        let granted = try Device(profile: DeviceProfile(name: "p"), stream: RandomStream(seed: 5))
        let refused = try Device(
            profile: DeviceProfile(
                name: "p", permissions: DevicePermissions(location: .refused, cellularData: .refused)),
            stream: RandomStream(seed: 5),
            connectivity: .always(.cellularOnly))
        #expect(Self.gpsTrack(refused, from: 0, count: 50).allSatisfy { $0 == nil })
        refused.permissions.location = .granted
        #expect(
            Self.gpsTrack(refused, from: 50, count: 50)
                == Self.gpsTrack(granted, from: 0, count: 100).suffix(50).map { $0 })
        #expect(!refused.isOnline(at: 0))
        #expect(refused.request(bytes: 10, at: 0).failure == .noNetwork)
        refused.permissions.cellularData = .granted
        #expect(refused.isOnline(at: 0))
        #expect(refused.request(bytes: 10, at: 0).bearer == .cellular)
    }

    @Test("cache-first fetch: network, fresh cache, expired use offline, unavailable, and survival of a restart")
    func fetchAndRestart() throws {
        let schedule = try ConnectivitySchedule(intervals: [
            ConnectivityInterval(startTime: 1000, endTime: 5000, state: .offline)
        ])
        let device = try Device(
            profile: DeviceProfile(name: "p", cellularPreset: .threeG), stream: RandomStream(seed: 8),
            connectivity: schedule, cachePath: Self.cachePath())
        let body = Data("weather".utf8)
        let first = try device.fetch(key: "w", bytes: 2000, timeToLiveSeconds: 300, at: 0) { body }
        #expect(first.source == .network && first.payload == body && first.networkSeconds > 0)
        let second = try device.fetch(key: "w", bytes: 2000, timeToLiveSeconds: 300, at: 100) { body }
        #expect(second.source == .cache)
        #expect(abs((second.ageSeconds ?? -1) - (100 - first.networkSeconds)) < 1e-9)
        let offline = try device.fetch(key: "w", bytes: 2000, timeToLiveSeconds: 300, at: 2000) { body }
        #expect(offline.source == .expiredCache && offline.payload == body)
        #expect(abs((offline.ageSeconds ?? -1) - (2000 - first.networkSeconds)) < 1e-9)
        let nothing = try device.fetch(key: "other", bytes: 2000, timeToLiveSeconds: 300, at: 2000) { body }
        #expect(nothing.source == .unavailable && nothing.payload == nil)

        try device.restart(at: 2500)
        #expect(device.restartTimes == [2500])
        let afterRestart = try device.fetch(key: "w", bytes: 2000, timeToLiveSeconds: 300, at: 2600) { body }
        #expect(afterRestart.source == .expiredCache)
        let stats = try #require(device.cache?.statistics)
        #expect(stats.hits == 1 && stats.expiredUses == 2 && stats.misses == 2)
        // Back online at 5000: the expired entry is refetched.
        let refreshed = try device.fetch(key: "w", bytes: 2000, timeToLiveSeconds: 300, at: 5000) { body }
        #expect(refreshed.source == .network)
    }

    @Test("NAV-PR1 on a device: fixes are stored only under consent")
    func consentOnDevice() throws {
        let device = try Device(
            profile: DeviceProfile(name: "p", gpsEnvironment: .openSky), stream: RandomStream(seed: 3))
        #expect(!device.collectLocation(userID: "u", at: 0, truePosition: Self.here))
        device.consent.give(at: 1)
        var stored = 0
        for second in 2..<12 where device.collectLocation(userID: "u", at: Double(second), truePosition: Self.here) {
            stored += 1
        }
        #expect(stored >= 8)  // open-sky dropouts are 1 %
        #expect(device.consent.records.count == stored)
        device.consent.withdrawAndDelete(at: 20)
        #expect(device.consent.records.isEmpty)
    }
}
