import Foundation

/// Log-distance path loss with log-normal shadowing (Rappaport, "Wireless Communications: Principles and
/// Practice", 2nd ed., 2002, §4.9–4.9.2):
///
/// `RSSI(d) = P₀ − 10 n log₁₀(max(d, d₀) / d₀) + X_σ`, X_σ ~ N(0, σ²) in dB,
///
/// with received power P₀ at reference distance d₀, path-loss exponent n and shadowing σ. Readings below the
/// detection floor are "not detected". Indoor defaults (`indoorWiFi`): P₀ = −40 dBm at 1 m (2.4 GHz free-space
/// loss at 1 m is 40 dB, i.e. a 0 dBm-EIRP reference); n = 3.0 and σ = 6 dB, inside the ranges Rappaport's
/// Table 4.2 and §4.11 give for buildings with obstructions (n 2–4, σ 3–14 dB); floor −100 dBm, the lowest
/// values phones report (UJIIndoorLoc's readings reach about −104 dBm).
public struct PathLossModel: Sendable, Equatable, Codable {
    /// Received power at the reference distance, dBm.
    public var referencePowerDbm: Double
    /// Reference distance d₀, metres (> 0).
    public var referenceDistanceMetres: Double
    /// Path-loss exponent n (dimensionless).
    public var pathLossExponent: Double
    /// Shadowing standard deviation σ, dB.
    public var shadowingSigmaDb: Double
    /// Detection floor, dBm: weaker readings are not reported.
    public var detectionFloorDbm: Double

    /// Creates a model; powers in dBm, distance in metres, σ in dB.
    public init(
        referencePowerDbm: Double,
        referenceDistanceMetres: Double,
        pathLossExponent: Double,
        shadowingSigmaDb: Double,
        detectionFloorDbm: Double
    ) {
        self.referencePowerDbm = referencePowerDbm
        self.referenceDistanceMetres = referenceDistanceMetres
        self.pathLossExponent = pathLossExponent
        self.shadowingSigmaDb = shadowingSigmaDb
        self.detectionFloorDbm = detectionFloorDbm
    }

    /// Indoor 2.4 GHz Wi-Fi defaults (see the type's documentation).
    public static let indoorWiFi = PathLossModel(
        referencePowerDbm: -40, referenceDistanceMetres: 1, pathLossExponent: 3.0, shadowingSigmaDb: 6,
        detectionFloorDbm: -100)

    /// Checks every field; throws `.invalidParameter` naming the field.
    public func validate() throws(DeviceEmulationError) {
        try DeviceEmulationError.requirePositive(referenceDistanceMetres, "referenceDistanceMetres")
        try DeviceEmulationError.requireNonNegative(pathLossExponent, "pathLossExponent")
        try DeviceEmulationError.requireNonNegative(shadowingSigmaDb, "shadowingSigmaDb")
        guard referencePowerDbm.isFinite, detectionFloorDbm.isFinite else {
            throw .invalidParameter(
                name: "referencePowerDbm/detectionFloorDbm", value: referencePowerDbm, expected: "finite dBm values")
        }
    }

    /// Mean received power at `distanceMetres` (no shadowing), dBm. Distances below d₀ count as d₀.
    public func meanPowerDbm(atDistance distanceMetres: Double) -> Double {
        let d = max(distanceMetres, referenceDistanceMetres)
        return referencePowerDbm - 10 * pathLossExponent * log10(d / referenceDistanceMetres)
    }

    /// One shadowed reading at `distanceMetres`, dBm (not floored). Consumes one random word.
    public func samplePowerDbm(atDistance distanceMetres: Double, using rng: inout some RandomNumberGenerator) -> Double
    {
        meanPowerDbm(atDistance: distanceMetres) + shadowingSigmaDb * Sampling.standardNormal(&rng)
    }
}
