/// A Wi-Fi fingerprint recorded in the field (e.g. one UJIIndoorLoc row) with where it was taken.
public struct RecordedFingerprint: Sendable, Equatable, Codable {
    /// Where it was recorded, metres in the dataset's local frame.
    public var position: LocalPosition
    /// Floor number, if the dataset has one.
    public var floor: Int?
    /// Detected access points (undetected ones omitted).
    public var readings: [WiFiReading]

    /// Creates a fingerprint; position in metres.
    public init(position: LocalPosition, floor: Int? = nil, readings: [WiFiReading]) {
        self.position = position
        self.floor = floor
        self.readings = readings
    }

    /// Builds a fingerprint from a dense row of RSSI values (dBm) aligned with `accessPointNames`, skipping
    /// the dataset's "not detected" marker (UJIIndoorLoc uses +100) and any value above 0 dBm.
    public init(
        position: LocalPosition,
        floor: Int?,
        denseRSSI: [Int],
        accessPointNames: [String],
        notDetectedValue: Int = 100
    ) {
        var readings: [WiFiReading] = []
        for (name, value) in zip(accessPointNames, denseRSSI) where value != notDetectedValue && value <= 0 {
            readings.append(WiFiReading(bssid: name, rssiDbm: value))
        }
        self.init(position: position, floor: floor, readings: readings)
    }
}

/// Replays recorded fingerprints as scans instead of synthesising RSSI.
///
/// Two modes: `scan(at:nearest:floor:)` returns the fingerprint recorded closest to the phone's true position
/// (same floor when one is given; ties to the earliest recorded) — O(f) for f fingerprints; and `nextScan(at:)`
/// returns them one after another in recorded order, wrapping around. Replay uses no randomness.
public struct WiFiFingerprintReplay: Sendable, Equatable {
    /// Recorded fingerprints, in recorded order.
    public let fingerprints: [RecordedFingerprint]
    /// Index of the next fingerprint for sequential replay.
    public private(set) var cursor: Int

    /// Creates a replay; throws `.emptyFingerprintReplay` when `fingerprints` is empty.
    public init(fingerprints: [RecordedFingerprint]) throws(DeviceEmulationError) {
        guard !fingerprints.isEmpty else { throw .emptyFingerprintReplay }
        self.fingerprints = fingerprints
        cursor = 0
    }

    /// The recorded fingerprint nearest to `position` (restricted to `floor` when given and present),
    /// as a scan at `time` (seconds).
    public func scan(at time: Double, nearest position: LocalPosition, floor: Int? = nil) -> WiFiScan {
        let candidates =
            floor.flatMap { wanted in
                let sameFloor = fingerprints.filter { $0.floor == wanted }
                return sameFloor.isEmpty ? nil : sameFloor
            } ?? fingerprints
        var best = candidates[0]
        var bestDistance = best.position.distance(to: position)
        for fingerprint in candidates.dropFirst() {
            let distance = fingerprint.position.distance(to: position)
            if distance < bestDistance {
                best = fingerprint
                bestDistance = distance
            }
        }
        return WiFiScan(time: time, readings: best.readings)
    }

    /// The next recorded fingerprint in order (wrapping around), as a scan at `time` (seconds).
    public mutating func nextScan(at time: Double) -> WiFiScan {
        let fingerprint = fingerprints[cursor]
        cursor = (cursor + 1) % fingerprints.count
        return WiFiScan(time: time, readings: fingerprint.readings)
    }
}
