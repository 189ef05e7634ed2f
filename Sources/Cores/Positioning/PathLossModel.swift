import Foundation

/// Log-distance path-loss model: RSSI(d) = P₀ − 10·n·log₁₀(d / 1 m).
///
/// Source: T. S. Rappaport, *Wireless Communications: Principles and Practice*,
/// 2nd ed., §4.9.1 (log-distance path loss). Indoor exponents are typically
/// 2–4 (free space 2); P₀ is the RSSI at 1 m (about −40 dBm for Wi-Fi at 2.4 GHz).
public struct PathLossModel: Sendable, Equatable {
    /// RSSI at the 1 m reference distance, in dBm.
    public var referenceDBm: Double
    /// Path-loss exponent n (dimensionless, > 0).
    public var exponent: Double
    /// Distances below this (metres) are clamped, keeping log₁₀ finite.
    public static let minimumDistanceMetres = 0.1

    /// Creates a model; `referenceDBm` in dBm at 1 m, `exponent` > 0.
    public init(referenceDBm: Double = -40, exponent: Double = 2.5) {
        self.referenceDBm = referenceDBm
        self.exponent = exponent
    }

    /// Expected RSSI in dBm at `distanceMetres`. O(1).
    public func rssi(atDistance distanceMetres: Double) -> Double {
        referenceDBm - 10 * exponent * log10(max(distanceMetres, Self.minimumDistanceMetres))
    }

    /// Distance in metres at which the model predicts `rssiDBm` (inverse of `rssi(atDistance:)`). O(1).
    public func distance(forRSSI rssiDBm: Double) -> Double {
        pow(10, (referenceDBm - rssiDBm) / (10 * exponent))
    }
}
