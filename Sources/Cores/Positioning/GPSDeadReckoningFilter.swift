import Foundation

/// GPS + pedestrian dead reckoning fusion with a linear Kalman filter.
///
/// State (metres, metres/second, local east/north): x = [east, north, vₑ, vₙ].
/// Motion model: constant velocity driven by white acceleration noise of spectral
/// density `accelerationNoise` q (m²/s³); per axis over Δt,
/// F = [[1, Δt], [0, 1]], Q = q·[[Δt³/3, Δt²/2], [Δt²/2, Δt]]
/// (Bar-Shalom, Li, Kirubarajan, *Estimation with Applications to Tracking and
/// Navigation*, 2001, §6.2.2 "continuous white noise acceleration model").
/// Measurements: a GPS fix observes position with R = σ²·I (σ = the fix's
/// reported horizontal accuracy, metres); a PDR step (step length × heading from
/// the step detector and gyroscope/compass, over the step's duration) observes
/// velocity with R = σᵥ²·I (`pdrVelocitySigma`, m/s). Standard Kalman
/// predict/update equations (Kalman 1960), Joseph-free form with symmetrisation.
/// Every operation is O(1) (4×4 matrices).
public struct GPSDeadReckoningFilter: Sendable {
    /// State [east, north, vₑ, vₙ] in metres and metres/second.
    public private(set) var state: [Double]
    /// State covariance, row-major 4×4.
    public private(set) var covariance: [Double]
    /// White-acceleration spectral density q in m²/s³ (pedestrians: about 0.5).
    public var accelerationNoise: Double
    /// Standard deviation of a PDR velocity observation in m/s.
    public var pdrVelocitySigma: Double

    /// Starts at `east`/`north` (metres) with standard deviation `positionSigma` (m) and
    /// velocity standard deviation `velocitySigma` (m/s), at rest.
    public init(
        east: Double, north: Double, positionSigma: Double = 10, velocitySigma: Double = 1.5,
        accelerationNoise: Double = 0.5, pdrVelocitySigma: Double = 0.25
    ) {
        state = [east, north, 0, 0]
        covariance = [Double](repeating: 0, count: 16)
        covariance[0] = positionSigma * positionSigma
        covariance[5] = positionSigma * positionSigma
        covariance[10] = velocitySigma * velocitySigma
        covariance[15] = velocitySigma * velocitySigma
        self.accelerationNoise = accelerationNoise
        self.pdrVelocitySigma = pdrVelocitySigma
    }

    /// Estimated east coordinate in metres.
    public var east: Double { state[0] }
    /// Estimated north coordinate in metres.
    public var north: Double { state[1] }

    /// Advances the state by `dtSeconds` (≥ 0) under the constant-velocity model.
    public mutating func predict(dtSeconds dt: Double) {
        guard dt > 0, dt.isFinite else { return }
        state[0] += dt * state[2]
        state[1] += dt * state[3]
        // P ← F P Fᵀ + Q, with F = I + dt·(e₀e₂ᵀ + e₁e₃ᵀ).
        var f = [Double](repeating: 0, count: 16)
        for i in 0..<4 { f[i * 4 + i] = 1 }
        f[0 * 4 + 2] = dt
        f[1 * 4 + 3] = dt
        var fp = [Double](repeating: 0, count: 16)
        for i in 0..<4 {
            for j in 0..<4 {
                var s = 0.0
                for k in 0..<4 { s += f[i * 4 + k] * covariance[k * 4 + j] }
                fp[i * 4 + j] = s
            }
        }
        var p = [Double](repeating: 0, count: 16)
        for i in 0..<4 {
            for j in 0..<4 {
                var s = 0.0
                for k in 0..<4 { s += fp[i * 4 + k] * f[j * 4 + k] }
                p[i * 4 + j] = s
            }
        }
        let q = accelerationNoise
        let q11 = q * dt * dt * dt / 3
        let q12 = q * dt * dt / 2
        let q22 = q * dt
        for (pos, vel) in [(0, 2), (1, 3)] {
            p[pos * 4 + pos] += q11
            p[pos * 4 + vel] += q12
            p[vel * 4 + pos] += q12
            p[vel * 4 + vel] += q22
        }
        covariance = p
    }

    /// Fuses a GPS fix at `east`/`north` (metres) with horizontal accuracy `sigmaMetres` (> 0).
    public mutating func updateGPS(east: Double, north: Double, sigmaMetres: Double) {
        update(components: (0, 1), measured: (east, north), variance: sigmaMetres * sigmaMetres)
    }

    /// Fuses a PDR step: `lengthMetres` walked along `headingRadians` (clockwise from north) over `durationSeconds`.
    public mutating func updateStep(lengthMetres: Double, headingRadians: Double, durationSeconds: Double) {
        guard durationSeconds > 0 else { return }
        let speed = lengthMetres / durationSeconds
        update(
            components: (2, 3), measured: (speed * sin(headingRadians), speed * cos(headingRadians)),
            variance: pdrVelocitySigma * pdrVelocitySigma)
    }

    /// Kalman update for a 2-D observation of state components `c` with R = variance·I.
    mutating func update(components c: (Int, Int), measured z: (Double, Double), variance r: Double) {
        guard r > 0, r.isFinite, z.0.isFinite, z.1.isFinite else { return }
        let idx = [c.0, c.1]
        // S = H P Hᵀ + R (2×2) and its inverse.
        let s00 = covariance[idx[0] * 4 + idx[0]] + r
        let s01 = covariance[idx[0] * 4 + idx[1]]
        let s10 = covariance[idx[1] * 4 + idx[0]]
        let s11 = covariance[idx[1] * 4 + idx[1]] + r
        let det = s00 * s11 - s01 * s10
        guard det > 0 else { return }
        let i00 = s11 / det
        let i01 = -s01 / det
        let i10 = -s10 / det
        let i11 = s00 / det
        // K = P Hᵀ S⁻¹ (4×2).
        var k = [Double](repeating: 0, count: 8)
        for i in 0..<4 {
            let a = covariance[i * 4 + idx[0]]
            let b = covariance[i * 4 + idx[1]]
            k[i * 2] = a * i00 + b * i10
            k[i * 2 + 1] = a * i01 + b * i11
        }
        let y0 = z.0 - state[idx[0]]
        let y1 = z.1 - state[idx[1]]
        for i in 0..<4 { state[i] += k[i * 2] * y0 + k[i * 2 + 1] * y1 }
        // P ← (I − K H) P, then symmetrise.
        var p = covariance
        for i in 0..<4 {
            for j in 0..<4 {
                p[i * 4 + j] -= k[i * 2] * covariance[idx[0] * 4 + j] + k[i * 2 + 1] * covariance[idx[1] * 4 + j]
            }
        }
        for i in 0..<4 {
            for j in (i + 1)..<4 {
                let m = (p[i * 4 + j] + p[j * 4 + i]) / 2
                p[i * 4 + j] = m
                p[j * 4 + i] = m
            }
        }
        covariance = p
    }
}
