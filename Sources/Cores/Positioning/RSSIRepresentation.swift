import Foundation

/// How an RSSI reading (dBm) becomes a feature value for fingerprint distances.
///
/// Source: Torres-Sospedra, Montoliu, Trilles, Belmonte, Huerta, "Comprehensive
/// analysis of distance and similarity measures for Wi-Fi fingerprinting indoor
/// positioning systems", Expert Systems with Applications 42 (2015) 9263–9278:
/// the *positive* representation (RSSI − min + 1, 0 when not detected) and the
/// *exponential* one (exp(pos/α)/exp(−min/α)) beat raw dBm with +100 sentinels.
public enum RSSIRepresentation: Sendable, Equatable {
    /// `rssi − minimumDBm + 1` for a detected AP, 0 when not detected.
    case positive(minimumDBm: Double = -104)
    /// `exp(pos / alpha) / exp(−minimumDBm / alpha)` with `pos = rssi − minimumDBm`, 0 when not detected
    /// (alpha in dB; the paper uses 24).
    case exponential(minimumDBm: Double = -104, alpha: Double = 24)
    /// `(pos / −minimumDBm)^beta` with `pos = rssi − minimumDBm`, 0 when not detected (the paper uses β = e).
    case powed(minimumDBm: Double = -104, beta: Double = M_E)

    /// The feature value of `rssiDBm`, or 0 when `detected` is false. O(1).
    public func value(rssiDBm: Double, detected: Bool) -> Double {
        guard detected else { return 0 }
        switch self {
        case .positive(let minimum):
            return max(0, rssiDBm - minimum) + 1
        case .exponential(let minimum, let alpha):
            let pos = max(0, rssiDBm - minimum)
            return exp(pos / alpha) / exp(-minimum / alpha)
        case .powed(let minimum, let beta):
            let pos = max(0, rssiDBm - minimum)
            return pow(pos / -minimum, beta)
        }
    }

    /// The feature value of a UJIIndoorLoc-style reading: `+100` means not detected.
    public func value(ujiRSSI: Int8) -> Double {
        value(rssiDBm: Double(ujiRSSI), detected: ujiRSSI != 100)
    }
}
