import Foundation

/// A Wi-Fi access point at a known position.
public struct AccessPoint: Sendable, Equatable, Codable {
    /// Identifier (BSSID or the dataset's WAP column name, e.g. "WAP017").
    public var bssid: String
    /// Position, metres in the local frame.
    public var position: LocalPosition
    /// Offset added to the model's reference power for this AP (stronger or weaker radio), dB.
    public var powerOffsetDb: Double

    /// Creates an access point; position in metres, offset in dB.
    public init(bssid: String, position: LocalPosition, powerOffsetDb: Double = 0) {
        self.bssid = bssid
        self.position = position
        self.powerOffsetDb = powerOffsetDb
    }
}

/// One access point heard in a scan.
public struct WiFiReading: Sendable, Equatable, Codable {
    /// Access point identifier.
    public var bssid: String
    /// Received signal strength, whole dBm (phones report integers).
    public var rssiDbm: Int

    /// Creates a reading; RSSI in dBm.
    public init(bssid: String, rssiDbm: Int) {
        self.bssid = bssid
        self.rssiDbm = rssiDbm
    }
}

/// The result of one Wi-Fi scan: the access points detected, strongest first (ties by identifier).
public struct WiFiScan: Sendable, Equatable, Codable {
    /// Scan time, seconds (UTC epoch, virtual clock).
    public var time: Double
    /// Detected access points, strongest first.
    public var readings: [WiFiReading]

    /// Creates a scan, sorting `readings` strongest first (ties by identifier) for a stable order.
    public init(time: Double, readings: [WiFiReading]) {
        self.time = time
        self.readings = readings.sorted { ($0.rssiDbm, $1.bssid) > ($1.rssiDbm, $0.bssid) }
    }

    /// RSSI of `bssid` in dBm, or `nil` when it was not detected.
    public func rssi(of bssid: String) -> Int? {
        readings.first { $0.bssid == bssid }?.rssiDbm
    }
}

/// Emulated Wi-Fi scanner that synthesises RSSI from known access-point positions with `PathLossModel`.
///
/// Each scan draws an independent shadowing term per access point (in the AP list's order, one word each, so
/// the stream stays aligned whatever is detected), rounds to whole dBm, and drops readings below the floor
/// ("not detected"). Complexity O(a log a) for a access points.
public struct WiFiScanner: Sendable, Equatable {
    /// Known access points.
    public var accessPoints: [AccessPoint]
    /// Propagation model.
    public var model: PathLossModel

    /// Creates a scanner; throws `.invalidParameter` for an invalid model.
    public init(accessPoints: [AccessPoint], model: PathLossModel = .indoorWiFi) throws(DeviceEmulationError) {
        try model.validate()
        self.accessPoints = accessPoints
        self.model = model
    }

    /// One scan at `time` (seconds) from `position` (metres).
    public func scan(at time: Double, from position: LocalPosition, using rng: inout some RandomNumberGenerator)
        -> WiFiScan
    {
        var readings: [WiFiReading] = []
        for accessPoint in accessPoints {
            let power =
                model.samplePowerDbm(atDistance: accessPoint.position.distance(to: position), using: &rng)
                + accessPoint.powerOffsetDb
            let rounded = power.rounded()
            if rounded >= model.detectionFloorDbm {
                readings.append(WiFiReading(bssid: accessPoint.bssid, rssiDbm: Int(rounded)))
            }
        }
        return WiFiScan(time: time, readings: readings)
    }
}
