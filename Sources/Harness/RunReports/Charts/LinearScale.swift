import Foundation

/// Maps a numeric domain onto a pixel range linearly, and picks round tick values for an axis
/// (1, 2 or 5 times a power of ten: Heckbert's "nice numbers").
public struct LinearScale: Sendable, Equatable {
    /// The data interval, low to high (widened when empty so the scale stays invertible).
    public var domain: ClosedRange<Double>
    /// The pixel positions of `domain.lowerBound` and `domain.upperBound` (may run backwards, as a
    /// y axis does in SVG, where y grows downwards).
    public var range: (Double, Double)

    /// A scale from `domain` to `range`; an empty or non-finite domain is widened to ±1 around its value.
    public init(domain: ClosedRange<Double>, range: (Double, Double)) {
        var lo = domain.lowerBound.isFinite ? domain.lowerBound : 0
        var hi = domain.upperBound.isFinite ? domain.upperBound : lo
        if hi <= lo {
            let pad = lo == 0 ? 1 : abs(lo) * 0.1
            lo -= pad
            hi += pad
        }
        self.domain = lo...hi
        self.range = range
    }

    public static func == (a: LinearScale, b: LinearScale) -> Bool {
        a.domain == b.domain && a.range == b.range
    }

    /// The pixel position of `value` (outside the domain extrapolates).
    public func callAsFunction(_ value: Double) -> Double {
        let t = (value - domain.lowerBound) / (domain.upperBound - domain.lowerBound)
        return range.0 + t * (range.1 - range.0)
    }

    /// The value at pixel position `pixel`.
    public func invert(_ pixel: Double) -> Double {
        let t = (pixel - range.0) / (range.1 - range.0)
        return domain.lowerBound + t * (domain.upperBound - domain.lowerBound)
    }

    /// The scale with its domain widened outwards to round tick values (about `count` ticks).
    public func nice(count: Int = 5) -> LinearScale {
        let step = Self.tickStep(domain.lowerBound, domain.upperBound, count: count)
        let lo = (domain.lowerBound / step + Self.slack).rounded(.down) * step
        let hi = (domain.upperBound / step - Self.slack).rounded(.up) * step
        return LinearScale(domain: lo...hi, range: range)
    }

    /// Round values inside the domain, about `count` of them, ascending.
    public func ticks(count: Int = 5) -> [Double] {
        let step = Self.tickStep(domain.lowerBound, domain.upperBound, count: count)
        let first = (domain.lowerBound / step - Self.slack).rounded(.up)
        let last = (domain.upperBound / step + Self.slack).rounded(.down)
        guard first <= last else { return [] }
        // Multiplying the index (not adding steps) keeps 0.1 × 3 from drifting to 0.30000000000000004.
        return stride(from: first, through: last, by: 1).map { Self.clean($0 * step, step: step) }
    }

    /// Tolerance, in steps, for a bound that is a tick but for binary rounding (−0.3 / 0.1 = −2.9999999999999996).
    static let slack = 1e-9

    /// The tick spacing for about `count` ticks over [lo, hi]: 1, 2 or 5 × 10ⁿ, whichever is nearest
    /// on a log scale (the switch points are the geometric means √2, √10 and √50).
    public static func tickStep(_ lo: Double, _ hi: Double, count: Int) -> Double {
        let span = hi - lo
        guard span > 0, span.isFinite else { return 1 }
        let raw = span / Double(max(1, count))
        let power = pow10((log10(raw)).rounded(.down))
        let fraction = raw / power
        let nice: Double =
            fraction >= 50.0.squareRoot()
            ? 10 : fraction >= 10.0.squareRoot() ? 5 : fraction >= 2.0.squareRoot() ? 2 : 1
        return nice * power
    }

    /// 10 to the integer power `e`.
    static func pow10(_ e: Double) -> Double {
        var v = 1.0
        let n = Int(abs(e))
        for _ in 0..<n { v *= 10 }
        return e < 0 ? 1 / v : v
    }

    /// `value` rounded to the precision of `step` (removes binary noise from tick values).
    static func clean(_ value: Double, step: Double) -> Double {
        let decimals = max(0, -Int((log10(step)).rounded(.down)))
        let factor = pow10(Double(decimals))
        return (value * factor).rounded() / factor
    }
}
