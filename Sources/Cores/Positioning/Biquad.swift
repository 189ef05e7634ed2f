import Foundation

/// A second-order IIR section (direct form I) with Butterworth low- and
/// high-pass designs by the bilinear transform with frequency pre-warping.
///
/// Source: R. Bristow-Johnson, "Cookbook formulae for audio EQ biquad filter
/// coefficients" (Q = 1/√2 gives the Butterworth response). O(1) per sample.
public struct Biquad: Sendable, Equatable {
    var b0, b1, b2, a1, a2: Double
    var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

    /// Butterworth low-pass with cutoff `cutoffHz` at `sampleRateHz` (cutoff must be below Nyquist).
    public static func lowPass(cutoffHz: Double, sampleRateHz: Double) -> Biquad {
        let (cosw, alpha) = Self.prewarp(cutoffHz, sampleRateHz)
        let a0 = 1 + alpha
        return Biquad(
            b0: (1 - cosw) / 2 / a0, b1: (1 - cosw) / a0, b2: (1 - cosw) / 2 / a0,
            a1: -2 * cosw / a0, a2: (1 - alpha) / a0)
    }

    /// Butterworth high-pass with cutoff `cutoffHz` at `sampleRateHz`.
    public static func highPass(cutoffHz: Double, sampleRateHz: Double) -> Biquad {
        let (cosw, alpha) = Self.prewarp(cutoffHz, sampleRateHz)
        let a0 = 1 + alpha
        return Biquad(
            b0: (1 + cosw) / 2 / a0, b1: -(1 + cosw) / a0, b2: (1 + cosw) / 2 / a0,
            a1: -2 * cosw / a0, a2: (1 - alpha) / a0)
    }

    static func prewarp(_ f: Double, _ fs: Double) -> (Double, Double) {
        let w0 = 2 * Double.pi * f / fs
        return (cos(w0), sin(w0) / (2 * (0.5).squareRoot()))
    }

    /// Filters one sample and returns the output.
    public mutating func process(_ x: Double) -> Double {
        let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2 = x1
        x1 = x
        y2 = y1
        y1 = y
        return y
    }
}
