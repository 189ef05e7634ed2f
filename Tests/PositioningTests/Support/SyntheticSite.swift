import Foundation
import Positioning

/// The synthetic Wi-Fi site of the positioning tests, shared with the capability tests of
/// `fieldtest locate` (a test-support target: `Tests/PositioningTests/Support`).
public enum SyntheticSite {
    /// 2 buildings × 2 floors, APs on a grid, RSSI from a log-distance model.
    public static func samples() -> [FingerprintSample] {
        var out: [FingerprintSample] = []
        var aps: [(x: Double, y: Double, b: Int, f: Int)] = []
        for i in 0..<16 {
            let b = i >= 8 ? 1 : 0
            let x = Double(i % 4) * 20 + Double(b) * 200
            let y = Double((i / 4) % 2) * 20
            aps.append((x, y, b, (i / 4) % 2))
        }
        for b in 0..<2 {
            for f in 0..<2 {
                for gx in 0..<7 {
                    for gy in 0..<3 {
                        let x = Double(gx) * 10 + Double(b) * 200
                        let y = Double(gy) * 10
                        let rssi: [Int8] = aps.map { ap in
                            guard ap.b == b else { return FingerprintSample.notDetected }
                            let d = max(1, hypot(ap.x - x, ap.y - y))
                            let floorLoss = ap.f == f ? 0.0 : 15.0
                            let v = -40 - 25 * log10(d) - floorLoss
                            return v < -100 ? FingerprintSample.notDetected : Int8(v.rounded())
                        }
                        out.append(FingerprintSample(rssi: rssi, xMetres: x, yMetres: y, floor: f, building: b))
                    }
                }
            }
        }
        return out
    }
}
