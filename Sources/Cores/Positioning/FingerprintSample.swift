import FieldtestData

/// A labelled Wi-Fi fingerprint used for training: RSSI per access point and where it was taken.
public struct FingerprintSample: Sendable, Equatable {
    /// RSSI per access point in dBm; `FingerprintSample.notDetected` (+100) marks an AP that was not heard.
    public var rssi: [Int8]
    /// Easting in projected metres.
    public var xMetres: Double
    /// Northing in projected metres.
    public var yMetres: Double
    /// Floor number.
    public var floor: Int
    /// Building number.
    public var building: Int
    /// Recording device, used to group samples in cross-validation.
    public var phone: Int
    /// Collector, used to group samples in cross-validation.
    public var user: Int

    /// RSSI sentinel for "access point not detected" (+100, as in UJIIndoorLoc).
    public static let notDetected: Int8 = 100

    /// Creates a sample; coordinates in projected metres, RSSI in dBm.
    public init(
        rssi: [Int8], xMetres: Double, yMetres: Double, floor: Int, building: Int, phone: Int = 0, user: Int = 0
    ) {
        self.rssi = rssi
        self.xMetres = xMetres
        self.yMetres = yMetres
        self.floor = floor
        self.building = building
        self.phone = phone
        self.user = user
    }

    /// Converts labelled UJIIndoorLoc records; throws `.unlabelledTrainingRow` for a record without
    /// ground truth. Records that detect no access point (every RSSI +100) are left out — they say
    /// nothing about where they were taken, and every no-signal query would match them — and
    /// `.noTrainingSignal` is thrown when that leaves none. `withoutSignal(_:)` counts them.
    public static func fromUJIIndoorLoc(_ records: [UJIIndoorLocRecord]) throws(PositioningError) -> [FingerprintSample]
    {
        var out: [FingerprintSample] = []
        out.reserveCapacity(records.count)
        for (i, r) in records.enumerated() {
            guard let l = r.label else { throw .unlabelledTrainingRow(index: i) }
            guard hasSignal(r.rssi) else { continue }
            out.append(
                FingerprintSample(
                    rssi: r.rssi, xMetres: l.longitudeMetres, yMetres: l.latitudeMetres,
                    floor: l.floor, building: l.building, phone: l.phone, user: l.user))
        }
        if out.isEmpty && !records.isEmpty { throw .noTrainingSignal(rows: records.count) }
        return out
    }

    /// Whether `rssi` has at least one detected access point (a value other than +100).
    public static func hasSignal(_ rssi: [Int8]) -> Bool {
        rssi.contains { $0 != notDetected }
    }

    /// The number of `records` that detect no access point, which `fromUJIIndoorLoc` leaves out.
    public static func withoutSignal(_ records: [UJIIndoorLocRecord]) -> Int {
        records.count { !hasSignal($0.rssi) }
    }
}

/// A position estimated from a fingerprint: building, floor and projected coordinates.
public struct FingerprintEstimate: Sendable, Equatable {
    /// Easting in projected metres.
    public var xMetres: Double
    /// Northing in projected metres.
    public var yMetres: Double
    /// Estimated floor number.
    public var floor: Int
    /// Estimated building number.
    public var building: Int

    /// Creates an estimate; coordinates in projected metres.
    public init(xMetres: Double, yMetres: Double, floor: Int, building: Int) {
        self.xMetres = xMetres
        self.yMetres = yMetres
        self.floor = floor
        self.building = building
    }
}
