import Foundation

/// Daily samples of the Sun's apparent declination and the equation of time, stored as
/// quadratic interpolation coefficients, so that the hour angle of an event altitude at any
/// instant costs a handful of multiplications and one arc cosine (no division).
///
/// Each UTC day *n* (days since 1970-01-01) holds, for tan δ, sec δ and the equation of
/// time *E* (radians), the quadratic through the values at 0 h UT of days *n*−1, *n*, *n*+1
/// (`SolarEphemeris`, Meeus ch. 12, 22, 25), evaluated at *u* = t/86 400 − *n* with
/// |*u*| ≤ ½ — the same three-day scheme as NREL SPA's Appendix A.2. Interpolation error is
/// below 10⁻⁶ rad in δ and *E* (< 0.01 s of time), far inside the 30 s accuracy goal.
///
/// With the equation of time defined as *E* = GAST − α + π at 0 h UT, the local hour angle
/// at UTC instant *t* and longitude λ (radians, east positive) is
/// `H = 2π·u − π + λ + E(u)`.
///
/// `standard` covers 1900-01-01…2100-12-31 and is built once per process (about 73,000
/// days, a few tens of milliseconds); other days get a small table on demand.
public struct SolarEphemerisTable: Sendable {
    /// UTC day number (days since 1970-01-01) of the first day with coefficients.
    public let firstDay: Int
    /// UTC day number of the last day with coefficients.
    public let lastDay: Int
    /// Nine coefficients per day: tan δ (c0, c1, c2), sec δ (c0, c1, c2), E (c0, c1, c2).
    /// (With them the cosine of an event's hour angle, (sin h − sin φ sin δ)/(cos φ cos δ),
    /// is sin h·sec φ·sec δ − tan φ·tan δ.)
    let coefficients: [Double]

    /// The table for 1900-01-01…2100-12-31.
    public static let standard = SolarEphemerisTable(days: -25_567...47_846)

    /// Builds coefficients for every UTC day in `days` (day numbers since 1970-01-01).
    /// O(days).
    public init(days: ClosedRange<Int>) {
        firstDay = days.lowerBound
        lastDay = days.upperBound
        var samples: [(tanDec: Double, secDec: Double, eot: Double)] = []
        samples.reserveCapacity(days.count + 2)
        for n in (days.lowerBound - 1)...(days.upperBound + 1) { samples.append(Self.sample(day: n)) }
        var c: [Double] = []
        c.reserveCapacity(days.count * 9)
        for i in 1...(days.count) {
            let a = samples[i - 1]
            let b = samples[i]
            let d = samples[i + 1]
            for (y0, y1, y2) in [(a.tanDec, b.tanDec, d.tanDec), (a.secDec, b.secDec, d.secDec), (a.eot, b.eot, d.eot)]
            {
                c.append(y1)
                c.append((y2 - y0) / 2)
                c.append((y2 - 2 * y1 + y0) / 2)
            }
        }
        coefficients = c
    }

    /// tan δ, sec δ and the equation of time (radians, within ±π) at 0 h UT of day `n`.
    static func sample(day n: Int) -> (tanDec: Double, secDec: Double, eot: Double) {
        let e = SolarEphemeris(utcSeconds: Double(n) * 86_400)
        let rad = Double.pi / 180
        var eot = (e.apparentSiderealDeg - e.rightAscensionDeg + 180).truncatingRemainder(dividingBy: 360)
        if eot > 180 { eot -= 360 } else if eot < -180 { eot += 360 }
        let dec = e.declinationDeg * rad
        return (tan(dec), 1 / cos(dec), eot * rad)
    }

    /// Whether the table covers every instant in `range` (UTC seconds).
    func covers(_ range: ClosedRange<Double>) -> Bool {
        // ⌊lower/86 400⌋ − 1 ≥ firstDay and ⌈upper/86 400⌉ + 1 ≤ lastDay, without rounding.
        range.lowerBound >= Double(firstDay + 1) * 86_400 && range.upperBound <= Double(lastDay - 1) * 86_400
    }

    /// Interpolated terms at UTC instant `t` (seconds); the caller guarantees coverage.
    @inline(__always)
    func terms(at t: Double) -> SolarTerms {
        let x = t * (1 / 86_400)
        // Nearest whole day without a libm call: truncation of a positive number is floor
        // (t lies within the table, far inside ±10⁶ days).
        let nearest = Int(x + 1_000_000.5) - 1_000_000
        let u = x - Double(nearest)
        let i = (nearest - firstDay) * 9
        return coefficients.withUnsafeBufferPointer { c in
            SolarTerms(
                u: u,
                tanDec: c[i] + u * (c[i + 1] + u * c[i + 2]), dTanDec: c[i + 1] + 2 * u * c[i + 2],
                secDec: c[i + 3] + u * (c[i + 4] + u * c[i + 5]), dSecDec: c[i + 4] + 2 * u * c[i + 5],
                eot: c[i + 6] + u * (c[i + 7] + u * c[i + 8]), dEot: c[i + 7] + 2 * u * c[i + 8])
        }
    }
}

extension SolarEphemerisTable {
    /// Second derivatives per day² of tan δ, sec δ and the equation of time at UTC instant `t`
    /// (constant over each UTC day's quadratic); the caller guarantees coverage.
    @inline(__always)
    func curvature(at t: Double) -> (tanDec: Double, secDec: Double, eot: Double) {
        let nearest = Int(t * (1 / 86_400) + 1_000_000.5) - 1_000_000
        let i = (nearest - firstDay) * 9
        return coefficients.withUnsafeBufferPointer { c in (2 * c[i + 2], 2 * c[i + 5], 2 * c[i + 8]) }
    }
}

/// tan δ, sec δ and the equation of time at one instant, with their derivatives per day.
struct SolarTerms {
    /// Fraction of the UTC day from the nearest 0 h UT, −½…½.
    var u: Double
    var tanDec: Double
    var dTanDec: Double
    var secDec: Double
    var dSecDec: Double
    /// Equation of time, radians (GAST − α + π at 0 h UT).
    var eot: Double
    var dEot: Double
}

extension SolarTerms {
    /// cos δ.
    var cosDec: Double { 1 / secDec }
    /// sin δ.
    var sinDec: Double { tanDec / secDec }
    /// d(cos δ)/d(day) = −sec′/sec².
    var dCosDec: Double { -dSecDec / (secDec * secDec) }
    /// d(sin δ)/d(day) = (tan′·sec − tan·sec′)/sec².
    var dSinDec: Double { (dTanDec * secDec - tanDec * dSecDec) / (secDec * secDec) }
}
