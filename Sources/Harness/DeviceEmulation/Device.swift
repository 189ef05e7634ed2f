import FieldtestData
import FieldtestGSL
import Foundation

/// Where the data of a cached fetch came from.
public enum FetchSource: String, Sendable, Codable, Equatable {
    /// Fresh data from the on-device cache.
    case cache
    /// Fetched over the network (and stored in the cache).
    case network
    /// Expired cached data, served because the network was unreachable.
    case expiredCache
    /// Nothing: no network and nothing cached.
    case unavailable
}

/// Outcome of `Device.fetch(key:bytes:timeToLiveSeconds:at:payload:)`.
public struct FetchOutcome: Sendable, Equatable {
    /// Where the data came from.
    public var source: FetchSource
    /// Data served, if any.
    public var payload: Data?
    /// Age of the served data when it reached the app, seconds (`nil` when nothing was served).
    public var ageSeconds: Double?
    /// Emulated network time spent (0 for cache answers), seconds.
    public var networkSeconds: Double
    /// The network outcome when a request was made.
    public var request: RequestOutcome?
}

/// One emulated phone: sensors, network, permissions, consent and an offline cache, on a virtual clock.
///
/// Every component draws from its own named sub-stream of the device's stream — "gps", "network", "wifi",
/// "cell", "imu" — so adding a sensor or using one more often never changes another's draws. A component
/// also draws the same numbers whether or not a permission hides its result (a refused location still
/// advances the "gps" stream), so changing a permission changes only what the app sees.
///
/// A `Device` has mutable state and is meant to be driven by one task (the scenario's event loop).
public final class Device {
    /// The profile it was built from.
    public let profile: DeviceProfile
    /// Device-wide permissions (mutable: the user may change them during a scenario).
    public var permissions: DevicePermissions {
        didSet { network.cellularDataAllowed = permissions.mayUseCellularData }
    }
    /// Per-location weather-service permission (WXC-P2).
    public var weatherService: WeatherServicePermissions
    /// Location-collection consent and collected data (NAV-PR1).
    public var consent: LocationConsent
    /// GPS receiver state.
    public private(set) var gps: GPSReceiver
    /// Network state.
    public private(set) var network: NetworkLink
    /// Wi-Fi source: synthesised or replayed (`nil`: the phone has no Wi-Fi scan data).
    public var wifiScanner: WiFiScanner?
    /// Replayed Wi-Fi fingerprints, used instead of `wifiScanner` when set.
    public var wifiReplay: WiFiFingerprintReplay?
    /// Cellular measurement model (`nil`: no cell data).
    public var cellScanner: CellTowerScanner?
    /// The offline cache, when the device has one.
    public private(set) var cache: OfflineCache?
    /// Virtual times of emulated restarts, seconds.
    public private(set) var restartTimes: [Double] = []

    private let gpsStream: RandomStream
    private let networkStream: RandomStream
    private let wifiStream: RandomStream
    private let cellStream: RandomStream
    private let imuStream: RandomStream

    /// Builds a device from `profile`, drawing from sub-streams of `stream`, with `connectivity` over time
    /// and (optionally) an offline cache database at `cachePath`. Throws for invalid parameters or when the
    /// cache cannot be opened.
    public init(
        profile: DeviceProfile,
        stream: RandomStream,
        connectivity: ConnectivitySchedule = .always(.online),
        cachePath: String? = nil
    ) throws(DeviceEmulationError) {
        self.profile = profile
        permissions = profile.permissions
        weatherService = WeatherServicePermissions()
        consent = LocationConsent()
        gps = try GPSReceiver(environment: profile.gpsEnvironment, fixIntervalSeconds: profile.gpsFixIntervalSeconds)
        network = try NetworkLink(
            schedule: connectivity, wifi: profile.wifiPreset, cellular: profile.cellularPreset,
            cellularDataAllowed: profile.permissions.mayUseCellularData, retry: profile.retry)
        try DeviceEmulationError.requirePositive(profile.inertialSampleRateHz, "inertialSampleRateHz")
        cache = try cachePath.map { path throws(DeviceEmulationError) in try OfflineCache(path: path) }
        gpsStream = stream.substream(named: "gps")
        networkStream = stream.substream(named: "network")
        wifiStream = stream.substream(named: "wifi")
        cellStream = stream.substream(named: "cell")
        imuStream = stream.substream(named: "imu")
    }

    // MARK: Position

    /// Changes the GPS surroundings (e.g. walking into a building).
    public func setGPSEnvironment(_ environment: GPSEnvironment) throws(DeviceEmulationError) {
        try environment.validate()
        gps.environment = environment
    }

    /// A GPS fix attempt at `time` (seconds) for a user truly at `truePosition`; `nil` during a dropout or
    /// when location permission is not granted (WXC-P1).
    public func position(at time: Double, truePosition: GeoPoint) -> GPSFix? {
        var rng = gpsStream
        let fix = gps.fix(at: time, truePosition: truePosition, using: &rng)
        return permissions.devicePosition(fix)
    }

    /// Takes a GPS fix and stores it under `userID` if the user consented to collection (NAV-PR1).
    /// Returns whether a record was stored.
    @discardableResult
    public func collectLocation(userID: String, at time: Double, truePosition: GeoPoint) -> Bool {
        guard let fix = position(at: time, truePosition: truePosition) else { return false }
        return consent.collect(
            LocationConsent.Record(
                userID: userID, time: time, latitude: fix.coordinate.latitude, longitude: fix.coordinate.longitude))
    }

    // MARK: Network

    /// Connectivity at `time` (seconds).
    public func connectivity(at time: Double) -> ConnectivityState {
        network.schedule.state(at: time)
    }

    /// Whether the app can reach the network at `time` over a permitted bearer.
    public func isOnline(at time: Double) -> Bool {
        network.bearer(at: time) != nil
    }

    /// Emulates a request at `time` (seconds) downloading `bytes` and uploading `uploadBytes`.
    public func request(bytes: Int, uploadBytes: Int = 512, at time: Double) -> RequestOutcome {
        var rng = networkStream
        return network.request(bytes: bytes, uploadBytes: uploadBytes, at: time, using: &rng)
    }

    /// The app's cache-first fetch at `time` (seconds): fresh cached data if present; otherwise the network
    /// (the response is stored with `timeToLiveSeconds`, fetched at its arrival time); if the network is
    /// unreachable or the request fails, expired cached data (an expired use) or nothing.
    ///
    /// A failed refetch makes a second, offline lookup at the failure time, so it is counted twice in the
    /// cache statistics (one miss, then an expired use or miss). Without a cache this is a plain request.
    /// `payload` builds the server's response; it is called only when a request is delivered.
    public func fetch(
        key: String,
        bytes: Int,
        timeToLiveSeconds: Double,
        at time: Double,
        payload: () -> Data
    ) throws(DeviceEmulationError) -> FetchOutcome {
        let online = isOnline(at: time)
        if let cache {
            let answer = try cache.lookup(key: key, at: time, isOnline: online)
            switch answer {
            case let .hit(data, age):
                return FetchOutcome(source: .cache, payload: data, ageSeconds: age, networkSeconds: 0, request: nil)
            case let .expiredUse(data, age):
                return FetchOutcome(
                    source: .expiredCache, payload: data, ageSeconds: age, networkSeconds: 0, request: nil)
            case .miss:
                guard online else {
                    return FetchOutcome(
                        source: .unavailable, payload: nil, ageSeconds: nil, networkSeconds: 0, request: nil)
                }
            }
        }
        let outcome = request(bytes: bytes, at: time)
        let arrival = time + outcome.latencySeconds
        if outcome.delivered {
            let data = payload()
            try cache?.store(
                CacheEntry(key: key, payload: data, fetchedAt: arrival, timeToLiveSeconds: timeToLiveSeconds))
            return FetchOutcome(
                source: .network, payload: data, ageSeconds: 0, networkSeconds: outcome.latencySeconds, request: outcome
            )
        }
        if let cache, case let .expiredUse(data, age) = try cache.lookup(key: key, at: arrival, isOnline: false) {
            return FetchOutcome(
                source: .expiredCache, payload: data, ageSeconds: age, networkSeconds: outcome.latencySeconds,
                request: outcome)
        }
        return FetchOutcome(
            source: .unavailable, payload: nil, ageSeconds: nil, networkSeconds: outcome.latencySeconds,
            request: outcome)
    }

    // MARK: Radio scans

    /// A Wi-Fi scan at `time` from `position` (metres): replayed when a replay is set, else synthesised;
    /// `nil` when the device has neither. `floor` restricts replay to that floor.
    public func scanWiFi(at time: Double, from position: LocalPosition, floor: Int? = nil) -> WiFiScan? {
        if let wifiReplay { return wifiReplay.scan(at: time, nearest: position, floor: floor) }
        guard let wifiScanner else { return nil }
        var rng = wifiStream
        return wifiScanner.scan(at: time, from: position, using: &rng)
    }

    /// A cellular measurement at `time` from `position` (metres); `nil` without a cell model.
    public func scanCells(at time: Double, from position: LocalPosition) -> CellScan? {
        guard let cellScanner else { return nil }
        var rng = cellStream
        return cellScanner.scan(at: time, from: position, using: &rng)
    }

    // MARK: Inertial sensors

    /// Accelerometer and gyroscope data of a walk starting at `startTime` (seconds), with ground truth.
    public func walk(
        startTime: Double,
        segments: [WalkingSegment],
        initialHeadingRadians: Double = 0
    ) throws(DeviceEmulationError) -> GaitTrace {
        let model = GaitModel(
            placement: profile.placement, noise: profile.inertialNoise, sampleRateHz: profile.inertialSampleRateHz,
            initialHeadingRadians: initialHeadingRadians)
        var rng = imuStream
        return try model.generate(startTime: startTime, segments: segments, using: &rng)
    }

    // MARK: Restart

    /// Emulated reboot at `time` (seconds): the cache database is closed and reopened from the same file,
    /// keeping its entries and the run's statistics (SKY-R1). Sensor and network state are physical and stay.
    public func restart(at time: Double) throws(DeviceEmulationError) {
        restartTimes.append(time)
        guard let old = cache else { return }
        try old.close()
        cache = try OfflineCache(path: old.path, statistics: old.statistics)
    }
}
