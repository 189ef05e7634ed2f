import FieldtestData
import Foundation

/// Sun events of one local calendar day. Times are UTC seconds since
/// 1970-01-01T00:00:00Z; nil when the event does not happen during that local date.
public struct SolarDay: Sendable, Equatable {
    /// Whether the Sun stays up or down all day.
    public enum Note: String, Sendable {
        /// Neither sunrise nor sunset on the date.
        case none = ""
        /// The Sun never sets (centre never below −0.833°).
        case polarDay = "polar_day"
        /// The Sun never rises.
        case polarNight = "polar_night"
    }

    /// The local date.
    public var date: CivilDate
    /// Sunrise: the Sun's centre rises through −0.833°.
    public var sunrise: Double?
    /// Sunset: the Sun's centre sets through −0.833°.
    public var sunset: Double?
    /// Solar noon (upper transit).
    public var solarNoon: Double?
    /// Civil dawn: the centre rises through −6°.
    public var civilDawn: Double?
    /// Civil dusk: the centre sets through −6°.
    public var civilDusk: Double?
    /// Morning golden hour: from −4° to +6° rising.
    public var goldenMorning: (start: Double?, end: Double?)
    /// Evening golden hour: from +6° to −4° setting.
    public var goldenEvening: (start: Double?, end: Double?)
    /// Morning blue hour: from −6° to −4° rising.
    public var blueMorning: (start: Double?, end: Double?)
    /// Evening blue hour: from −4° to −6° setting.
    public var blueEvening: (start: Double?, end: Double?)
    /// Time between sunrise and sunset when both happen on the date, seconds; 86,400 on a
    /// polar day, 0 on a polar night.
    public var dayLengthSeconds: Double?
    /// Polar day/night marker.
    public var note: Note

    public static func == (a: SolarDay, b: SolarDay) -> Bool {
        a.date == b.date && a.sunrise == b.sunrise && a.sunset == b.sunset && a.solarNoon == b.solarNoon
            && a.civilDawn == b.civilDawn && a.civilDusk == b.civilDusk
            && a.goldenMorning.start == b.goldenMorning.start && a.goldenMorning.end == b.goldenMorning.end
            && a.goldenEvening.start == b.goldenEvening.start && a.goldenEvening.end == b.goldenEvening.end
            && a.dayLengthSeconds == b.dayLengthSeconds && a.note == b.note
    }
}

/// Sunrise, sunset, solar noon, twilight, golden and blue hour for any place and local date.
///
/// Convention (NOAA and NREL SPA): sunrise/sunset is when the geometric centre of the Sun
/// is 0.833° below the horizon (34′ standard refraction + 16′ semidiameter: the upper limb
/// touches the apparent horizon), observer at sea level. Civil twilight uses −6°, golden
/// hour the band −4°…+6°, blue hour −6°…−4° (centre altitudes, no refraction).
/// The events reported for a date are those happening during that local calendar date in
/// the given IANA zone (a DST day is 23 or 25 hours long; across the date line the zone,
/// not the longitude, fixes the day). When an event happens twice in one local date (only
/// possible near the polar circles or on a 25-hour day) the one belonging to the solar day
/// nearest the middle of the local date is reported.
///
/// Method: the Sun's declination and equation of time come from `SolarEphemerisTable`
/// (Meeus ch. 25 positions sampled daily and interpolated quadratically, as NREL SPA's
/// A.2 does). Around each upper transit, the altitude is monotone between the lower
/// culminations before and after it, so a rising (setting) crossing exists exactly when the
/// altitude at the lower culmination is below the target and at the transit above it; it is
/// then found by Newton's method on sin(altitude) from the spherical-triangle estimate,
/// safeguarded by bisection inside that bracket (typically two or three steps, converged to
/// 0.05 s). This also finds the last sunset before a polar day, which lies almost twelve
/// hours after its transit. Accuracy against NREL SPA (Reda & Andreas 2008) is checked in
/// the tests (goal: 30 s for |latitude| ≤ 65°, 1950–2050). O(1) per day; no allocation.
public struct SolarCalculator: Sendable {
    /// Altitude of the Sun's centre at sunrise/sunset, degrees.
    public static let sunriseAltitudeDeg = -0.833
    /// Civil twilight altitude, degrees.
    public static let civilAltitudeDeg = -6.0
    /// Lower bound of golden hour and upper bound of blue hour, degrees.
    public static let goldenLowDeg = -4.0
    /// Upper bound of golden hour, degrees.
    public static let goldenHighDeg = 6.0

    /// Daily solar terms used for the events.
    public let table: SolarEphemerisTable

    /// Creates a calculator over `table` (default: 1900–2100; dates outside it are computed
    /// with a small table built for the call).
    public init(table: SolarEphemerisTable = .standard) {
        self.table = table
    }

    /// Solar events of `date` (local) at `latitude`/`longitude` (degrees, east positive) in `zone`.
    public func day(date: CivilDate, latitude: Double, longitude: Double, zone: TimeZone) -> SolarDay {
        day(date: date, latitude: latitude, longitude: longitude, offsets: ZoneOffsets.shared(for: zone))
    }

    /// Solar events of `date` (local) at `latitude`/`longitude` (degrees, east positive) in the
    /// zone of `offsets`. The fast path for batches.
    public func day(date: CivilDate, latitude: Double, longitude: Double, offsets: ZoneOffsets) -> SolarDay {
        let (start, end) = Self.localDayBounds(date, offsets: offsets)
        let startD = Double(start), endD = Double(end)
        // Transits and culminations needed reach about 1.5 days either side of the date.
        let span = (startD - 2.5 * 86_400)...(endD + 2.5 * 86_400)
        if table.covers(span) {
            var builder = SolarDayBuilder(table: table, latitude: latitude, longitude: longitude, start: startD, end: endD)
            return builder.build(date: date)
        }
        let first = Int((span.lowerBound / 86_400).rounded(.down)) - 2
        let last = Int((span.upperBound / 86_400).rounded(.up)) + 2
        let local = SolarEphemerisTable(days: first...last)
        var builder = SolarDayBuilder(table: local, latitude: latitude, longitude: longitude, start: startD, end: endD)
        return builder.build(date: date)
    }

    /// The UTC instants [start, end) of the local calendar `date` in `zone`.
    /// Handles DST days (23/25 h) and zones whose midnight is skipped by a transition.
    public static func localDayBounds(_ date: CivilDate, zone: TimeZone) -> (start: Int, end: Int) {
        localDayBounds(date, offsets: ZoneOffsets.shared(for: zone))
    }

    /// The UTC instants [start, end) of the local calendar `date` in the zone of `offsets`.
    public static func localDayBounds(_ date: CivilDate, offsets: ZoneOffsets) -> (start: Int, end: Int) {
        (firstInstant(of: date.daysSinceEpoch, offsets: offsets), firstInstant(of: date.daysSinceEpoch + 1, offsets: offsets))
    }

    static func firstInstant(of day: Int, offsets: ZoneOffsets) -> Int {
        let wall = day * 86_400
        func offset(_ t: Int) -> Int { offsets.secondsFromGMT(at: t) }
        var s = wall - offset(wall)
        s = wall - offset(s)
        // If local midnight was skipped (spring-forward at 00:00), the day starts at the transition.
        if s + offset(s) < wall {
            var lo = s, hi = s + 7200
            while hi - lo > 1 {
                let m = (lo + hi) / 2
                if m + offset(m) >= wall { hi = m } else { lo = m }
            }
            s = hi
        } else if s - 1 + offset(s - 1) >= wall {
            // Repeated midnight (fall-back at 00:00): take the earlier one.
            s -= 3600
            s = s + offset(s) >= wall ? s : s + 3600
        }
        return s
    }
}

/// The working state for one location-day: the observer, the local day's bounds and the
/// transits and lower culminations around it (UTC seconds).
struct SolarDayBuilder {
    let table: SolarEphemerisTable
    let sinPhi: Double
    let cosPhi: Double
    /// Longitude, radians east.
    let lambda: Double
    let start: Double
    let end: Double
    /// Upper transits: the one nearest the middle of the day (index 1), the ones before (0)
    /// and after (2). Lower culminations: index i lies between transits i−1 and i.
    /// Neighbours (transits 0, 2; lowers 0, 3) are computed only when an event needs them.
    var transit0 = 0.0, transit1 = 0.0, transit2 = 0.0
    var lower0 = 0.0, lower1 = 0.0, lower2 = 0.0, lower3 = 0.0
    /// sin(altitude) at the transits and lower culminations.
    var sinAltTransit0 = 0.0, sinAltTransit1 = 0.0, sinAltTransit2 = 0.0
    var sinAltLower0 = 0.0, sinAltLower1 = 0.0, sinAltLower2 = 0.0, sinAltLower3 = 0.0
    var neighboursReady = false

    static let secondsPerRadian = 86_400 / (2 * Double.pi)

    init(table: SolarEphemerisTable, latitude: Double, longitude: Double, start: Double, end: Double) {
        self.table = table
        let phi = latitude * .pi / 180
        sinPhi = sin(phi)
        cosPhi = cos(phi)
        lambda = longitude * .pi / 180
        self.start = start
        self.end = end
    }

    /// Local hour angle at `terms`, radians (not wrapped).
    @inline(__always)
    func hourAngle(_ s: SolarTerms) -> Double { 2 * .pi * s.u - .pi + lambda + s.eot }

    /// The instant near `guess` when the hour angle equals `target` (0: upper transit,
    /// π: lower culmination). Three fixed-point steps: the equation of time drifts < 30 s/day.
    func culmination(near guess: Double, target: Double) -> Double {
        var t = guess
        for _ in 0..<3 {
            let h = hourAngle(table.terms(at: t))
            t += Self.wrap(target - h) * Self.secondsPerRadian
        }
        return t
    }

    /// `x` wrapped into (−π, π].
    @inline(__always)
    static func wrap(_ x: Double) -> Double {
        x - 2 * .pi * ((x + .pi) / (2 * .pi)).rounded(.up) + 2 * .pi
    }

    /// sin(altitude) at an upper (`upper`) or lower culmination at `t`, where cos H = ±1.
    @inline(__always)
    func sinAltitude(culminationAt t: Double, upper: Bool) -> Double {
        let s = table.terms(at: t)
        return sinPhi * s.sinDec + (upper ? 1 : -1) * cosPhi * s.cosDec
    }

    /// sin(altitude) at `t` and its derivative per second.
    @inline(__always)
    func sinAltitudeAndRate(at t: Double) -> (value: Double, rate: Double) {
        let s = table.terms(at: t)
        let h = hourAngle(s)
        let cosH = cos(h), sinH = sin(h)
        let value = sinPhi * s.sinDec + cosPhi * s.cosDec * cosH
        let perDay = sinPhi * s.dSinDec + cosPhi * (s.dCosDec * cosH - s.cosDec * sinH * (2 * .pi + s.dEot))
        return (value, perDay / 86_400)
    }

    mutating func build(date: CivilDate) -> SolarDay {
        let mid = (start + end) / 2
        transit1 = culmination(near: mid, target: 0)
        lower1 = culmination(near: transit1 - 43_200, target: .pi)
        lower2 = culmination(near: transit1 + 43_200, target: .pi)
        sinAltTransit1 = sinAltitude(culminationAt: transit1, upper: true)
        sinAltLower1 = sinAltitude(culminationAt: lower1, upper: false)
        sinAltLower2 = sinAltitude(culminationAt: lower2, upper: false)

        let sunrise = event(altitudeDeg: SolarCalculator.sunriseAltitudeDeg, rising: true)
        let sunset = event(altitudeDeg: SolarCalculator.sunriseAltitudeDeg, rising: false)
        let dawn = event(altitudeDeg: SolarCalculator.civilAltitudeDeg, rising: true)
        let dusk = event(altitudeDeg: SolarCalculator.civilAltitudeDeg, rising: false)
        let lowRise = event(altitudeDeg: SolarCalculator.goldenLowDeg, rising: true)
        let highRise = event(altitudeDeg: SolarCalculator.goldenHighDeg, rising: true)
        let highSet = event(altitudeDeg: SolarCalculator.goldenHighDeg, rising: false)
        let lowSet = event(altitudeDeg: SolarCalculator.goldenLowDeg, rising: false)
        var day = SolarDay(date: date, sunrise: sunrise, sunset: sunset, solarNoon: nil, civilDawn: dawn, civilDusk: dusk,
                           goldenMorning: (lowRise, highRise), goldenEvening: (highSet, lowSet),
                           blueMorning: (dawn, lowRise), blueEvening: (lowSet, dusk), dayLengthSeconds: nil, note: .none)
        if transit1 >= start && transit1 < end {
            day.solarNoon = transit1
        } else {
            prepareNeighbours()
            day.solarNoon = [transit0, transit2].first { $0 >= start && $0 < end }
        }
        let s0 = sin(SolarCalculator.sunriseAltitudeDeg * .pi / 180)
        if sunrise == nil && sunset == nil {
            if sinAltLower2 > s0 && sinAltLower1 > s0 {
                day.note = .polarDay
                day.dayLengthSeconds = 86_400
            } else if sinAltTransit1 < s0 {
                day.note = .polarNight
                day.dayLengthSeconds = 0
            }
        } else if let r = sunrise, let s = sunset {
            day.dayLengthSeconds = s > r ? s - r : nil
        }
        return day
    }

    /// The crossing of `altitudeDeg` (rising or setting) inside [start, end): the one of the
    /// middle solar day when it falls in the date, else the earlier of the neighbours'.
    mutating func event(altitudeDeg: Double, rising: Bool) -> Double? {
        let target = sin(altitudeDeg * .pi / 180)
        let middle = crossing(target: target, rising: rising, solarDay: 1)
        if let t = middle, t >= start, t < end { return t }
        prepareNeighbours()
        // Same-kind events are about a day apart: when the middle one falls before the date only
        // the next solar day's can fall in it, when after only the previous one's.
        let candidates = middle.map { $0 < start ? [2] : [0] } ?? [0, 2]
        var found: Double?
        for k in candidates {
            if let t = crossing(target: target, rising: rising, solarDay: k), t >= start, t < end,
               found.map({ t < $0 }) ?? true {
                found = t
            }
        }
        return found
    }

    mutating func prepareNeighbours() {
        guard !neighboursReady else { return }
        neighboursReady = true
        transit0 = culmination(near: transit1 - 86_400, target: 0)
        transit2 = culmination(near: transit1 + 86_400, target: 0)
        lower0 = culmination(near: transit0 - 43_200, target: .pi)
        lower3 = culmination(near: transit2 + 43_200, target: .pi)
        sinAltTransit0 = sinAltitude(culminationAt: transit0, upper: true)
        sinAltTransit2 = sinAltitude(culminationAt: transit2, upper: true)
        sinAltLower0 = sinAltitude(culminationAt: lower0, upper: false)
        sinAltLower3 = sinAltitude(culminationAt: lower3, upper: false)
    }

    @inline(__always)
    func transit(_ k: Int) -> (t: Double, sinAlt: Double) {
        k == 1 ? (transit1, sinAltTransit1) : k == 0 ? (transit0, sinAltTransit0) : (transit2, sinAltTransit2)
    }

    @inline(__always)
    func lower(_ i: Int) -> (t: Double, sinAlt: Double) {
        switch i {
        case 0: (lower0, sinAltLower0)
        case 1: (lower1, sinAltLower1)
        case 2: (lower2, sinAltLower2)
        default: (lower3, sinAltLower3)
        }
    }

    /// The crossing of sin(altitude) = `target` in solar day `k` (0, 1, 2): rising between
    /// lower culmination k and transit k, setting between transit k and lower culmination k+1.
    func crossing(target: Double, rising: Bool, solarDay k: Int) -> Double? {
        var lo: Double, hi: Double  // g(lo) < 0 < g(hi), g = ±(sin alt − target)
        let sign: Double = rising ? 1 : -1
        let tr = transit(k), low = lower(rising ? k : k + 1)
        guard low.sinAlt < target, tr.sinAlt > target else { return nil }
        (lo, hi) = rising ? (low.t, tr.t) : (tr.t, low.t)
        // Fixed-point iteration on the hour angle: at t the event's hour angle is ∓acos(c(δ(t)))
        // and the Sun's is H(t); step by their difference at the Sun's rate (2π per day). The
        // declination drifts slowly, so each pass gains about three digits; no sine or cosine
        // is needed. Accepted when a pass moves t by under 0.05 s inside the bracket; otherwise
        // (near the polar circles, where acos is ill-conditioned) safeguarded Newton on
        // sin(altitude) below finishes from the best estimate.
        let left = min(lo, hi), right = max(lo, hi)
        var t = tr.t
        for pass in 0..<4 {
            let s = table.terms(at: t)
            let cosH0 = (target - sinPhi * s.sinDec) / (cosPhi * s.cosDec)
            guard cosH0.isFinite, cosH0 > -1, cosH0 < 1 else { t = (lo + hi) / 2; break }
            let step = Self.wrap(-sign * acos(cosH0) - hourAngle(s)) * Self.secondsPerRadian
            let next = t + step
            guard next > left && next < right else { t = pass == 0 ? (lo + hi) / 2 : t; break }
            t = next
            if pass > 0 && abs(step) < 0.05 { return t }
        }
        for _ in 0..<60 {
            let (value, rate) = sinAltitudeAndRate(at: t)
            let g = sign * (value - target)
            if g < 0 { lo = t } else { hi = t }
            var next = t - (value - target) / rate
            let l = min(lo, hi), r = max(lo, hi)
            if !(next > l && next < r) { next = (lo + hi) / 2 }
            let step = abs(next - t)
            t = next
            // Newton converges quadratically: after a step under 1 s the error is far below 0.01 s.
            if step < 1 || r - l < 0.05 { break }
        }
        return t
    }
}
