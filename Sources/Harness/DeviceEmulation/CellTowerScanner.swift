import Foundation

/// A cellular base station at a known position.
public struct CellTower: Sendable, Equatable, Codable {
    /// Cell identifier (e.g. "262-01-1234-5678").
    public var cellID: String
    /// Antenna position, metres in the local frame (`up` is the antenna height above ground).
    public var position: LocalPosition
    /// Effective isotropic radiated power, dBm (43 dBm = 20 W, a typical macro cell).
    public var eirpDbm: Double

    /// Creates a tower; position in metres, EIRP in dBm.
    public init(cellID: String, position: LocalPosition, eirpDbm: Double = 43) {
        self.cellID = cellID
        self.position = position
        self.eirpDbm = eirpDbm
    }
}

/// One cell heard by the phone.
public struct CellReading: Sendable, Equatable, Codable {
    /// Cell identifier.
    public var cellID: String
    /// Received signal strength, whole dBm.
    public var rssiDbm: Int

    /// Creates a reading; RSSI in dBm.
    public init(cellID: String, rssiDbm: Int) {
        self.cellID = cellID
        self.rssiDbm = rssiDbm
    }
}

/// The cells a phone sees at one instant: the serving cell (strongest) and its neighbours.
public struct CellScan: Sendable, Equatable, Codable {
    /// Scan time, seconds (UTC epoch).
    public var time: Double
    /// The serving cell, or `nil` when no cell is above the floor (no service).
    public var serving: CellReading?
    /// Neighbour cells, strongest first, at most `CellTowerScanner.maximumNeighbours`.
    public var neighbours: [CellReading]
}

/// Emulated cellular measurements: received power from the Okumura–Hata median path loss plus log-normal
/// shadowing.
///
/// Path loss (Hata, IEEE Trans. Veh. Technol. 29(3):317–325, 1980; urban, small/medium city correction):
/// `L = 69.55 + 26.16 log f − 13.82 log h_b − a(h_m) + (44.9 − 6.55 log h_b) log d`, with f in MHz
/// (150–1500), antenna heights h_b, h_m in metres, d in km (clamped to ≥ 0.02 km here) and
/// `a(h_m) = (1.1 log f − 0.7) h_m − (1.56 log f − 0.8)`. RSSI = EIRP − L + X_σ with σ = 8 dB, the usual
/// macro-cell shadowing value (Rappaport 2002, §4.9.2, measurements 6–10 dB). Readings below −113 dBm (the
/// GSM reporting floor, 3GPP TS 27.007 `+CSQ` 0) are not heard. The strongest cell serves; up to six others
/// are neighbours (GSM reports six: 3GPP TS 45.008). One random word per tower per scan.
public struct CellTowerScanner: Sendable, Equatable {
    /// Known towers.
    public var towers: [CellTower]
    /// Carrier frequency, MHz.
    public var frequencyMHz: Double
    /// Phone antenna height, metres.
    public var mobileHeightMetres: Double
    /// Shadowing standard deviation, dB.
    public var shadowingSigmaDb: Double
    /// Weakest reportable signal, dBm.
    public var detectionFloorDbm: Double
    /// Most neighbours reported.
    public static let maximumNeighbours = 6

    /// Creates a scanner; frequency in MHz (150–1500 for Hata), height in metres, σ in dB, floor in dBm.
    public init(
        towers: [CellTower],
        frequencyMHz: Double = 900,
        mobileHeightMetres: Double = 1.5,
        shadowingSigmaDb: Double = 8,
        detectionFloorDbm: Double = -113
    ) throws(DeviceEmulationError) {
        guard frequencyMHz >= 150, frequencyMHz <= 1500 else {
            throw .invalidParameter(
                name: "frequencyMHz", value: frequencyMHz, expected: "150–1500 MHz (the Okumura–Hata range)")
        }
        try DeviceEmulationError.requirePositive(mobileHeightMetres, "mobileHeightMetres")
        try DeviceEmulationError.requireNonNegative(shadowingSigmaDb, "shadowingSigmaDb")
        for tower in towers {
            try DeviceEmulationError.requirePositive(tower.position.up, "\(tower.cellID) antenna height (position.up)")
        }
        self.towers = towers
        self.frequencyMHz = frequencyMHz
        self.mobileHeightMetres = mobileHeightMetres
        self.shadowingSigmaDb = shadowingSigmaDb
        self.detectionFloorDbm = detectionFloorDbm
    }

    /// Median Hata path loss from `tower` to a phone at horizontal distance `distanceMetres`, dB.
    public func pathLossDb(tower: CellTower, distanceMetres: Double) -> Double {
        let logF = log10(frequencyMHz)
        let hb = tower.position.up
        let mobileCorrection = (1.1 * logF - 0.7) * mobileHeightMetres - (1.56 * logF - 0.8)
        let km = max(distanceMetres / 1000, 0.02)
        return 69.55 + 26.16 * logF - 13.82 * log10(hb) - mobileCorrection + (44.9 - 6.55 * log10(hb)) * log10(km)
    }

    /// Median received power from `tower` at horizontal distance `distanceMetres`, dBm.
    public func meanPowerDbm(tower: CellTower, distanceMetres: Double) -> Double {
        tower.eirpDbm - pathLossDb(tower: tower, distanceMetres: distanceMetres)
    }

    /// One measurement at `time` (seconds) from `position` (metres; only east/north are used).
    public func scan(at time: Double, from position: LocalPosition, using rng: inout some RandomNumberGenerator)
        -> CellScan
    {
        var heard: [CellReading] = []
        for tower in towers {
            let ground = LocalPosition(east: tower.position.east, north: tower.position.north)
            let distance = ground.distance(to: LocalPosition(east: position.east, north: position.north))
            let power =
                (meanPowerDbm(tower: tower, distanceMetres: distance)
                + shadowingSigmaDb * Sampling.standardNormal(&rng)).rounded()
            if power >= detectionFloorDbm {
                heard.append(CellReading(cellID: tower.cellID, rssiDbm: Int(power)))
            }
        }
        heard.sort { ($0.rssiDbm, $1.cellID) > ($1.rssiDbm, $0.cellID) }
        return CellScan(
            time: time, serving: heard.first, neighbours: Array(heard.dropFirst().prefix(Self.maximumNeighbours)))
    }
}
