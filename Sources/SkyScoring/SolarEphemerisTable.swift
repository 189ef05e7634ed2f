import Foundation

/// Daily samples of the Sun's apparent declination and the equation of time, stored as
/// quadratic interpolation coefficients, so that the hour angle and altitude of the Sun at
/// any instant cost a handful of multiplications and one sine/cosine pair.
///
/// Each UTC day *n* (days since 1970-01-01) holds, for sin δ, cos δ and the equation of
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
    /// Nine coefficients per day: sin δ (c0, c1, c2), cos δ (c0, c1, c2), E (c0, c1, c2).
    let coefficients: [Double]

    /// The table for 1900-01-01…2100-12-31.
    public static let standard = SolarEphemerisTable(days: -25_567 ... 47_846)

    /// Builds coefficients for every UTC day in `days` (day numbers since 1970-01-01).
    /// O(days).
    public init(days: ClosedRange<Int>) {
        firstDay = days.lowerBound
        lastDay = days.upperBound
        var samples: [(sinDec: Double, cosDec: Double, eot: Double)] = []
        samples.reserveCapacity(days.count + 2)
        for n in (days.lowerBound - 1)...(days.upperBound + 1) { samples.append(Self.sample(day: n)) }
        var c: [Double] = []
        c.reserveCapacity(days.count * 9)
        for i in 1...(days.count) {
            let a = samples[i - 1], b = samples[i], d = samples[i + 1]
            for (y0, y1, y2) in [(a.sinDec, b.sinDec, d.sinDec), (a.cosDec, b.cosDec, d.cosDec), (a.eot, b.eot, d.eot)] {
                c.append(y1)
                c.append((y2 - y0) / 2)
                c.append((y2 - 2 * y1 + y0) / 2)
            }
        }
        coefficients = c
    }

    /// sin δ, cos δ and the equation of time (radians, within ±π) at 0 h UT of day `n`.
    static func sample(day n: Int) -> (sinDec: Double, cosDec: Double, eot: Double) {
        let e = SolarEphemeris(utcSeconds: Double(n) * 86_400)
        let rad = Double.pi / 180
        var eot = (e.apparentSiderealDeg - e.rightAscensionDeg + 180).truncatingRemainder(dividingBy: 360)
        if eot > 180 { eot -= 360 } else if eot < -180 { eot += 360 }
        let dec = e.declinationDeg * rad
        return (sin(dec), cos(dec), eot * rad)
    }

    /// Whether the table covers every instant in `range` (UTC seconds).
    func covers(_ range: ClosedRange<Double>) -> Bool {
        (range.lowerBound / 86_400).rounded(.down) - 1 >= Double(firstDay)
            && (range.upperBound / 86_400).rounded(.up) + 1 <= Double(lastDay)
    }

    /// Interpolated terms at UTC instant `t` (seconds); the caller guarantees coverage.
    @inline(__always)
    func terms(at t: Double) -> SolarTerms {
        let x = t / 86_400
        let nearest = (x).rounded()
        let u = x - nearest
        let i = (Int(nearest) - firstDay) * 9
        return coefficients.withUnsafeBufferPointer { c in
            SolarTerms(u: u,
                       sinDec: c[i] + u * (c[i + 1] + u * c[i + 2]), dSinDec: c[i + 1] + 2 * u * c[i + 2],
                       cosDec: c[i + 3] + u * (c[i + 4] + u * c[i + 5]), dCosDec: c[i + 4] + 2 * u * c[i + 5],
                       eot: c[i + 6] + u * (c[i + 7] + u * c[i + 8]), dEot: c[i + 7] + 2 * u * c[i + 8])
        }
    }
}

/// sin δ, cos δ and the equation of time at one instant, with their derivatives per day.
struct SolarTerms {
    /// Fraction of the UTC day from the nearest 0 h UT, −½…½.
    var u: Double
    var sinDec: Double
    var dSinDec: Double
    var cosDec: Double
    var dCosDec: Double
    /// Equation of time, radians (GAST − α + π at 0 h UT).
    var eot: Double
    var dEot: Double
}
