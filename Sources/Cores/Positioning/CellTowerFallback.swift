import Foundation

/// A serving or neighbouring cell tower heard by the phone.
public struct CellTowerReading: Sendable, Equatable {
    /// Tower latitude in degrees (WGS 84).
    public var latitude: Double
    /// Tower longitude in degrees (WGS 84).
    public var longitude: Double
    /// Received signal strength in dBm.
    public var rssiDBm: Double

    /// Creates a reading; degrees and dBm.
    public init(latitude: Double, longitude: Double, rssiDBm: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.rssiDBm = rssiDBm
    }
}

/// Coarse position when neither GPS nor Wi-Fi is available: the centroid of
/// heard cell towers weighted by received power.
///
/// Method: weighted centroid localisation (Blumenthal, Grossmann, Golatowski,
/// Timmermann, "Weighted centroid localization in Zigbee-based sensor networks",
/// IEEE WISP 2007), weights wᵢ = (10^(RSSIᵢ/10 dBm → mW))^g with degree g = 1/2
/// (amplitude). Over the few kilometres between towers, degrees map linearly to
/// east/north metres (east scale cos φ is constant), so averaging degrees gives
/// the same centroid as averaging metres.
/// Complexity O(m).
public enum CellTowerFallback {
    /// The weighted centroid (latitude, longitude) in degrees; nil with no towers.
    public static func estimate(_ towers: [CellTowerReading], degree: Double = 0.5) -> (latitude: Double, longitude: Double)? {
        guard !towers.isEmpty else { return nil }
        let strongest = towers.map(\.rssiDBm).max() ?? 0
        var sw = 0.0, sLat = 0.0, sLon = 0.0
        for t in towers {
            // Relative to the strongest tower, so the weights stay in (0, 1] for any dBm range.
            let w = pow(pow(10, (t.rssiDBm - strongest) / 10), degree)
            sw += w; sLat += w * t.latitude; sLon += w * t.longitude
        }
        return (sLat / sw, sLon / sw)
    }
}
