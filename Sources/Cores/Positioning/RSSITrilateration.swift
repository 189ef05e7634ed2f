import FieldtestGSL
import Foundation

/// One received signal from a transmitter at a known position (projected metres, RSSI in dBm).
public struct RangingAnchor: Sendable, Equatable {
    /// Transmitter easting in metres.
    public var xMetres: Double
    /// Transmitter northing in metres.
    public var yMetres: Double
    /// Received signal strength in dBm.
    public var rssiDBm: Double

    /// Creates an anchor reading.
    public init(xMetres: Double, yMetres: Double, rssiDBm: Double) {
        self.xMetres = xMetres
        self.yMetres = yMetres
        self.rssiDBm = rssiDBm
    }
}

/// Position from RSSI of access points at known positions: the position whose
/// path-loss-predicted RSSIs best match the readings in the least-squares sense
/// (residuals in dB, so the log-normal shadowing noise is treated as Gaussian).
///
/// Method: minimise Σᵢ (RSSIᵢ − P₀ + 10·n·log₁₀ ‖p − aᵢ‖)² over p = (x, y) with
/// GSL's Levenberg–Marquardt trust-region solver (`FieldtestGSL.NonlinearLeastSquares`)
/// and the analytic Jacobian ∂rᵢ/∂x = 10·n/ln 10 · (x − xᵢ)/‖p − aᵢ‖². The start
/// is the centroid weighted by received power in mW, so the solver begins inside
/// the anchor hull. Complexity: O(iterations · m) for m anchors.
public enum RSSITrilateration {
    /// A solved position.
    public struct Solution: Sendable, Equatable {
        /// Easting in metres.
        public var xMetres: Double
        /// Northing in metres.
        public var yMetres: Double
        /// Final cost ½ Σ rᵢ² in dB².
        public var costDB2: Double
        /// Whether the solver met its convergence test.
        public var converged: Bool
    }

    /// Solves for the position; needs at least 3 anchors.
    public static func solve(_ anchors: [RangingAnchor], model: PathLossModel) throws(PositioningError) -> Solution {
        guard anchors.count >= 3 else { throw .tooFewMeasurements(needed: 3, found: anchors.count) }
        guard model.exponent > 0, model.exponent.isFinite, model.referenceDBm.isFinite else {
            throw .invalidParameter(name: "exponent", reason: "must be a finite number > 0 (got \(model.exponent))")
        }
        var sw = 0.0, sx = 0.0, sy = 0.0
        for a in anchors {
            let w = pow(10, a.rssiDBm / 10)
            sw += w; sx += w * a.xMetres; sy += w * a.yMetres
        }
        let start = sw > 0 && sw.isFinite ? [sx / sw, sy / sw]
            : [anchors.map(\.xMetres).reduce(0, +) / Double(anchors.count), anchors.map(\.yMetres).reduce(0, +) / Double(anchors.count)]
        let scale = 10 * model.exponent / log(10)
        let minD2 = PathLossModel.minimumDistanceMetres * PathLossModel.minimumDistanceMetres
        do {
            let s = try NonlinearLeastSquares.solve(
                initial: start, residualCount: anchors.count,
                residuals: { p, f in
                    for (i, a) in anchors.enumerated() {
                        let d = hypot(p[0] - a.xMetres, p[1] - a.yMetres)
                        f[i] = a.rssiDBm - model.rssi(atDistance: d)
                    }
                },
                jacobian: { p, J in
                    for (i, a) in anchors.enumerated() {
                        let dx = p[0] - a.xMetres, dy = p[1] - a.yMetres
                        let d2 = max(dx * dx + dy * dy, minD2)
                        J[i][0] = scale * dx / d2
                        J[i][1] = scale * dy / d2
                    }
                })
            return Solution(xMetres: s.parameters[0], yMetres: s.parameters[1], costDB2: s.cost, converged: s.converged)
        } catch {
            throw .invalidParameter(name: "anchors", reason: "could not be solved: \(error)")
        }
    }
}
