import FieldtestData
import Foundation

/// Sun events of one local calendar day. Times are UTC seconds since
/// 1970-01-01T00:00:00Z; nil when the event does not happen during that local date.
public struct SolarDay: Sendable, Equatable {
    /// Whether the Sun stays up or down all day, or the date does not exist in the zone.
    public enum Note: String, Sendable {
        /// No note: the Sun rises or sets during the date.
        case none = ""
        /// Neither sunrise nor sunset during the date, and the Sun is up all of it (centre
        /// never below −0.833°).
        case polarDay = "polar_day"
        /// Neither sunrise nor sunset during the date, and the Sun is down all of it.
        case polarNight = "polar_night"
        /// The zone skipped the whole date (e.g. Pacific/Apia 2011-12-30, when Samoa moved
        /// across the date line): it has no instants, so every event is nil.
        case dateSkipped = "date_skipped"
        /// The date lasts more than 26 hours because the zone moved back across the date line
        /// (e.g. Pacific/Kwajalein 1969-09-30, 47 hours): the Sun rises and sets about twice in
        /// it; the events are the date's first ones and the day length counts all its daylight.
        case dateRepeated = "date_repeated"
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
    /// Time the Sun's centre is above −0.833° within the local date, seconds: sunset − sunrise
    /// on an ordinary day; on a day that begins or ends with the Sun up (a sunset just after
    /// midnight, near the polar circles or at the date line) the spans before the first and
    /// after the last event count too. 86,400 on a polar day (the local day's length on a
    /// 23- or 25-hour day), 0 on a polar night; nil only on a skipped date.
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
/// altitude at the lower culmination is below the target and at the transit above it. The
/// crossing is then found on the hour angle: from the transit, one Newton step on
/// H_event(t) − H(t) (shared by the rising and setting crossing of an altitude) and one
/// chord step that must move under 0.5 s, leaving an error below a millisecond; the eight
/// crossings of a day are independent chains the processor overlaps. Near the polar circles,
/// where the event's hour angle moves almost as fast as the Sun's, a safeguarded Newton
/// method on sin(altitude) inside the bracket takes over (converged to 0.05 s); it also finds
/// the last sunset before a polar day, which lies almost twelve hours after its transit.
/// Accuracy against NREL SPA (Reda & Andreas 2008) is checked in the tests (goal: 30 s for
/// |latitude| ≤ 65°, 1950–2050). O(1) per day; no allocation.
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
    /// zone of `offsets`. The fast path for batches. A date the zone skipped (see
    /// `localDayBounds`) has no events and the note `dateSkipped`.
    public func day(date: CivilDate, latitude: Double, longitude: Double, offsets: ZoneOffsets) -> SolarDay {
        day(date: date, latitude: latitude, longitude: longitude, offsets: offsets, shortcuts: true)
    }

    /// `day(date:latitude:longitude:offsets:)`; with `shortcuts` false the day length always
    /// comes from the general rule (tests compare the two).
    func day(date: CivilDate, latitude: Double, longitude: Double, offsets: ZoneOffsets, shortcuts: Bool) -> SolarDay {
        let (start, end) = Self.localDayBounds(date, offsets: offsets)
        guard start < end else {
            return SolarDay(
                date: date, sunrise: nil, sunset: nil, solarNoon: nil, civilDawn: nil, civilDusk: nil,
                goldenMorning: (nil, nil), goldenEvening: (nil, nil), blueMorning: (nil, nil),
                blueEvening: (nil, nil), dayLengthSeconds: nil, note: .dateSkipped)
        }
        let startD = Double(start)
        let endD = Double(end)
        // Transits and culminations needed reach about 1.5 days either side of the date.
        let span = (startD - 2.5 * 86_400)...(endD + 2.5 * 86_400)
        if table.covers(span) {
            var builder = SolarDayBuilder(
                table: table, latitude: latitude, longitude: longitude, start: startD, end: endD)
            builder.usesShortcuts = shortcuts
            return builder.build(date: date)
        }
        let first = Int((span.lowerBound / 86_400).rounded(.down)) - 2
        let last = Int((span.upperBound / 86_400).rounded(.up)) + 2
        let local = SolarEphemerisTable(days: first...last)
        var builder = SolarDayBuilder(table: local, latitude: latitude, longitude: longitude, start: startD, end: endD)
        builder.usesShortcuts = shortcuts
        return builder.build(date: date)
    }

    /// The UTC instants [start, end) of the local calendar `date` in `zone`.
    /// Handles DST days (23/25 h), zones whose midnight is skipped by a transition, and dates
    /// a zone skipped entirely by moving across the date line (then start == end).
    public static func localDayBounds(_ date: CivilDate, zone: TimeZone) -> (start: Int, end: Int) {
        localDayBounds(date, offsets: ZoneOffsets.shared(for: zone))
    }

    /// The UTC instants [start, end) of the local calendar `date` in the zone of `offsets`.
    public static func localDayBounds(_ date: CivilDate, offsets: ZoneOffsets) -> (start: Int, end: Int) {
        // Fast path: one table look-up when a single offset holds from just before local
        // midnight to the end of the day (every day but the few with a transition).
        let wall = date.daysSinceEpoch * 86_400
        if let guess = offsets.interval(containing: wall) {
            let first = wall - guess.offset
            if let i = first >= guess.from && first < guess.until ? guess : offsets.interval(containing: first) {
                let start = wall - i.offset
                if start - 1 >= i.from && start + 86_400 < i.until { return (start, start + 86_400) }
            }
        }
        return (
            firstInstant(of: date.daysSinceEpoch, offsets: offsets),
            firstInstant(of: date.daysSinceEpoch + 1, offsets: offsets)
        )
    }

    /// The first UTC instant whose local wall time is at or after 00:00 of `day` (days since
    /// 1970-01-01): the start of that local date, or, when the zone skipped the date, the
    /// start of the next date that exists (so a skipped date is the empty range).
    static func firstInstant(of day: Int, offsets: ZoneOffsets) -> Int {
        let wall = day * 86_400
        // Each constant-offset interval [from, until) with offset o reaches wall times ≥ `wall`
        // from max(from, wall − o) on; the earliest such instant over the intervals around
        // `wall` (offsets stay within ±1 day) is the answer, whatever the size of the jump.
        let window = (wall - 2 * 86_400)..<(wall + 2 * 86_400)
        if var cursor = offsets.interval(containing: window.lowerBound),
            offsets.interval(containing: window.upperBound) != nil
        {
            var best = Int.max
            while true {
                let candidate = max(cursor.from, wall - cursor.offset)
                if candidate < cursor.until { best = min(best, candidate) }
                guard cursor.until < window.upperBound, let next = offsets.interval(containing: cursor.until) else {
                    break
                }
                cursor = next
            }
            if best != Int.max { return best }
        }
        // Outside the table's span (before 1900 or after 2100): the same rule over the zone's
        // own offsets around the date, whatever the size of a jump (e.g. Asia/Manila skipping
        // 1844-12-31 when the Philippines moved across the date line).
        var best = Int.max
        for cursor in zoneIntervals(offsets.zone, covering: window) {
            let candidate = max(cursor.from, wall - cursor.offset)
            if candidate < cursor.until { best = min(best, candidate) }
        }
        return best
    }

    /// The constant-offset intervals of `zone` covering `window` (UTC seconds), in order; the
    /// first starts at `Int.min` and the last ends at `Int.max`. Offsets are sampled every hour
    /// and each change located to the second by bisection, so this relies on no
    /// transition list (the database's, or Foundation's, may omit old local-mean-time changes);
    /// changes less than an hour apart that cancel out would be missed.
    static func zoneIntervals(_ zone: TimeZone, covering window: Range<Int>) -> [(offset: Int, from: Int, until: Int)] {
        func offset(_ t: Int) -> Int { zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))) }
        let step = 3_600
        var out: [(offset: Int, from: Int, until: Int)] = []
        var from = Int.min
        var current = offset(window.lowerBound)
        var t = window.lowerBound
        while t < window.upperBound {
            let next = min(t + step, window.upperBound)
            let o = offset(next)
            if o != current {
                var lo = t
                var hi = next  // offset(lo) == current, offset(hi) != current
                while hi - lo > 1 {
                    let m = lo + (hi - lo) / 2
                    if offset(m) == current { lo = m } else { hi = m }
                }
                out.append((current, from, hi))
                from = hi
                current = offset(hi)
                t = hi
                continue
            }
            t = next
        }
        out.append((current, from, Int.max))
        return out
    }
}

/// The working state for one location-day: the observer, the local day's bounds and the
/// transits and lower culminations around it (UTC seconds).
struct SolarDayBuilder {
    let table: SolarEphemerisTable
    let sinPhi: Double
    let cosPhi: Double
    /// sec φ and tan φ (infinite at the poles, where every event test fails and the
    /// safeguarded solver takes over).
    let secPhi: Double
    let tanPhi: Double
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
    /// Whether `build` may take the common days' shortcuts to the day length (same result).
    var usesShortcuts = true

    static let secondsPerRadian = 86_400 / (2 * Double.pi)

    init(table: SolarEphemerisTable, latitude: Double, longitude: Double, start: Double, end: Double) {
        self.table = table
        let phi = latitude * .pi / 180
        sinPhi = sin(phi)
        cosPhi = cos(phi)
        secPhi = 1 / cosPhi
        tanPhi = sinPhi / cosPhi
        lambda = longitude * .pi / 180
        self.start = start
        self.end = end
    }

    /// Local hour angle at `terms`, radians (not wrapped).
    @inline(__always)
    func hourAngle(_ s: SolarTerms) -> Double { 2 * .pi * s.u - .pi + lambda + s.eot }

    /// The instant near `guess` when the hour angle equals `target` (0: upper transit,
    /// π: lower culmination), by `passes` fixed-point steps: the equation of time drifts
    /// < 30 s/day, so each step shrinks the error by a factor of about 3,000.
    func culmination(near guess: Double, target: Double, passes: Int) -> Double {
        var t = guess
        for _ in 0..<passes {
            let h = hourAngle(table.terms(at: t))
            t += Self.wrap(target - h) * Self.secondsPerRadian
        }
        return t
    }

    /// `x` wrapped into [−π, π] (either end at an exact odd multiple of π).
    @inline(__always)
    static func wrap(_ x: Double) -> Double {
        // x − 2π·round(x/2π), rounding by adding and subtracting 1.5·2⁵² (the sum's last bit
        // is the units place, so the FPU rounds to the nearest integer): no conversion, branch
        // or libm call. Exact for |x/2π| < 2⁵¹.
        let magic = 6_755_399_441_055_744.0
        let turns = (x * (1 / (2 * .pi)) + magic) - magic
        return x - 2 * .pi * turns
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
        let cosH = cos(h)
        let sinH = sin(h)
        let value = sinPhi * s.sinDec + cosPhi * s.cosDec * cosH
        let perDay = sinPhi * s.dSinDec + cosPhi * (s.dCosDec * cosH - s.cosDec * sinH * (2 * .pi + s.dEot))
        return (value, perDay / 86_400)
    }

    /// sin of the event altitudes (sunrise, civil, golden low, golden high).
    static let sinSunrise = sin(SolarCalculator.sunriseAltitudeDeg * .pi / 180)
    static let sinCivil = sin(SolarCalculator.civilAltitudeDeg * .pi / 180)
    static let sinGoldenLow = sin(SolarCalculator.goldenLowDeg * .pi / 180)
    static let sinGoldenHigh = sin(SolarCalculator.goldenHighDeg * .pi / 180)

    /// Seconds: a local date longer than this (a daylight-saving day lasts 25 hours) holds
    /// parts of two solar days (`SolarDay.Note.dateRepeated`).
    static let repeatedDateSeconds = 26 * 3600.0

    mutating func build(date: CivilDate) -> SolarDay {
        end - start > Self.repeatedDateSeconds ? buildRepeated(date: date) : buildSolarDay(date: date)
    }

    /// The events of the solar day whose transit is nearest the middle of the date (each
    /// replaced by a neighbour's when outside the date), the note and the day length.
    mutating func buildSolarDay(date: CivilDate) -> SolarDay {
        let mid = (start + end) / 2
        // Two passes reach the transit to ~0.005 s (each pass shrinks the error by the
        // equation of time's drift, < 3.5·10⁻⁴ s/s). The lower culminations lie half a turn
        // of the hour angle away at the Sun's rate at the transit (the rate's own drift moves
        // them by under 0.1 s, where the altitude is stationary).
        transit1 = culmination(near: mid, target: 0, passes: 2)
        let atTransit = table.terms(at: transit1)
        let halfTurn = 43_200 * (2 * .pi) / (2 * .pi + atTransit.dEot)
        lower1 = transit1 - halfTurn
        lower2 = transit1 + halfTurn
        sinAltTransit1 = sinPhi * atTransit.sinDec + cosPhi * atTransit.cosDec
        sinAltLower1 = sinAltitude(culminationAt: lower1, upper: false)
        sinAltLower2 = sinAltitude(culminationAt: lower2, upper: false)

        let found = dateCrossings()
        func event(_ j: Int) -> Double? { found[j].isNaN ? nil : found[j] }
        let sunrise = event(0)
        let sunset = event(1)
        let dawn = event(2)
        let dusk = event(3)
        let lowRise = event(4)
        let lowSet = event(5)
        let highRise = event(6)
        let highSet = event(7)
        var day = SolarDay(
            date: date, sunrise: sunrise, sunset: sunset, solarNoon: nil, civilDawn: dawn, civilDusk: dusk,
            goldenMorning: (lowRise, highRise), goldenEvening: (highSet, lowSet),
            blueMorning: (dawn, lowRise), blueEvening: (lowSet, dusk), dayLengthSeconds: nil, note: .none)
        if transit1 >= start && transit1 < end {
            day.solarNoon = transit1
        } else {
            prepareNeighbours()
            day.solarNoon =
                transit0 >= start && transit0 < end ? transit0 : transit2 >= start && transit2 < end ? transit2 : nil
        }
        // The common day needs no more: a sunrise before a sunset, the Sun well below the horizon
        // at both lower culminations (so sunrise and sunset move by minutes a day), and the
        // previous sunset and the next sunrise, about a day away, outside the date.
        if usesShortcuts, let r = sunrise, let s = sunset, r < s, sinAltLower1 < Self.sinFarBelow,
            sinAltLower2 < Self.sinFarBelow,
            s - 86_400 + Self.dailyDriftMargin < start, r + 86_400 - Self.dailyDriftMargin >= end
        {
            day.dayLengthSeconds = s - r
            return day
        }
        // Its mirror, a date that begins and ends with the Sun up (a zone far from the meridian
        // of its clock, or the date line): it sets, then rises, and both neighbours are outside.
        if usesShortcuts, let r = sunrise, let s = sunset, s < r, sinAltLower1 < Self.sinFarBelow,
            sinAltLower2 < Self.sinFarBelow,
            r - 86_400 + Self.dailyDriftMargin < start, s + 86_400 - Self.dailyDriftMargin >= end
        {
            day.dayLengthSeconds = (s - start) + (end - r)
            return day
        }
        // Otherwise the note and day length follow the Sun within the local date: with no sunrise
        // or sunset in it, the Sun is up (or down) from its first instant to its last.
        let upAtStart = isUp(at: start)
        if sunrise == nil && sunset == nil {
            day.note = upAtStart ? .polarDay : .polarNight
            day.dayLengthSeconds = upAtStart ? end - start : 0
        } else if let r = sunrise, let s = sunset, r < s, !upAtStart, !isUp(at: end) {
            day.dayLengthSeconds = s - r
        } else {
            day.dayLengthSeconds = timeUp(upAtStart: upAtStart)
        }
        return day
    }

    /// A date longer than `repeatedDateSeconds`: the date's first event of each kind (the
    /// previous solar day's when it falls in the date), its first solar noon, the note
    /// `dateRepeated` (unless the Sun never rises or sets in it) and the time up within it.
    mutating func buildRepeated(date: CivilDate) -> SolarDay {
        usesShortcuts = false
        var day = buildSolarDay(date: date)
        prepareNeighbours()
        let previous = crossings(solarDay: 0, wanted: 0xFF)
        func first(_ current: Double?, _ j: Int) -> Double? {
            let t = previous[j]
            guard !t.isNaN, t >= start, t < end else { return current }
            return current.map { min($0, t) } ?? t
        }
        day.sunrise = first(day.sunrise, 0)
        day.sunset = first(day.sunset, 1)
        day.civilDawn = first(day.civilDawn, 2)
        day.civilDusk = first(day.civilDusk, 3)
        day.goldenMorning = (first(day.goldenMorning.start, 4), first(day.goldenMorning.end, 6))
        day.goldenEvening = (first(day.goldenEvening.start, 7), first(day.goldenEvening.end, 5))
        day.blueMorning = (day.civilDawn, day.goldenMorning.start)
        day.blueEvening = (day.goldenEvening.end, day.civilDusk)
        if transit0 >= start && transit0 < end { day.solarNoon = transit0 }
        if day.sunrise != nil || day.sunset != nil {
            day.note = .dateRepeated
            day.dayLengthSeconds = timeUp(upAtStart: isUp(at: start))
        }
        return day
    }

    /// Sine of −5°: with both lower culminations below it, sunrise and sunset drift by far less
    /// than `dailyDriftMargin` from one day to the next.
    static let sinFarBelow = sin(-5 * Double.pi / 180)
    /// Seconds: more than sunrise or sunset times move between consecutive days away from the
    /// polar circles' edge days (the equation of time moves them by under a minute a day).
    static let dailyDriftMargin = 1_800.0

    /// Whether the Sun's centre is above the sunrise altitude (−0.833°) at `t` (UTC seconds).
    func isUp(at t: Double) -> Bool {
        sinAltitudeAndRate(at: t).value > Self.sinSunrise
    }

    /// Seconds the Sun's centre spends above −0.833° within [start, end): every sunrise and
    /// sunset of the three solar days around the date that falls inside it, in order, starting
    /// from the state at `start`.
    mutating func timeUp(upAtStart: Bool) -> Double {
        prepareNeighbours()
        var events: [(t: Double, rising: Bool)] = []
        for k in 0..<3 {
            let times = crossings(solarDay: k, wanted: 0b11)
            for j in 0..<2 where times[j] >= start && times[j] < end { events.append((times[j], j == 0)) }
        }
        events.sort { $0.t < $1.t }
        var up = upAtStart
        var last = start
        var total = 0.0
        for e in events {
            if up { total += e.t - last }
            up = e.rising
            last = e.t
        }
        if up { total += end - last }
        return total
    }

    /// Times of the eight events of `dateCrossings` (UTC seconds; NaN: none).
    typealias EventTimes = InlineArray<8, Double>

    /// sin(altitude) of the events, in the order of `dateCrossings`: sunrise, civil
    /// twilight, golden-hour low, golden-hour high.
    static let targets: InlineArray<4, Double> = [sinSunrise, sinCivil, sinGoldenLow, sinGoldenHigh]

    /// The eight crossings inside the local date (index 2i rising, 2i + 1 setting, for
    /// `targets[i]`; NaN when none). Each is the middle solar day's when it falls in the
    /// date; otherwise the next solar day's (when the middle one came before the date) or the
    /// previous one's (after it); with no middle crossing, the earlier of the neighbours'.
    mutating func dateCrossings() -> EventTimes {
        let middle = crossings(solarDay: 1, wanted: 0xFF)
        var result = EventTimes(repeating: .nan)
        var wantsPrevious: UInt8 = 0
        var wantsNext: UInt8 = 0
        for j in 0..<8 {
            let t = middle[j]
            if t.isNaN {
                wantsPrevious |= 1 << j
                wantsNext |= 1 << j
            } else if t < start {
                wantsNext |= 1 << j
            } else if t >= end {
                wantsPrevious |= 1 << j
            } else {
                result[j] = t
            }
        }
        guard wantsPrevious | wantsNext != 0 else { return result }
        prepareNeighbours()
        let previous = wantsPrevious != 0 ? crossings(solarDay: 0, wanted: wantsPrevious) : result
        let next = wantsNext != 0 ? crossings(solarDay: 2, wanted: wantsNext) : result
        for j in 0..<8 {
            // The previous solar day's crossing, when wanted and inside the date, is the earlier.
            let t0 = previous[j]
            let t2 = next[j]
            if wantsPrevious & (1 << j) != 0, !t0.isNaN, t0 >= start, t0 < end {
                result[j] = t0
            } else if wantsNext & (1 << j) != 0, !t2.isNaN, t2 >= start, t2 < end {
                result[j] = t2
            }
        }
        return result
    }

    /// The crossings of solar day `k` (0, 1, 2) for the events whose bit is set in `wanted`,
    /// NaN where the altitude is not crossed, on the hour angle: a second-order step from the
    /// transit (H₀ and its derivatives there are shared by each rising/setting pair), accepted
    /// when its second-order term is under 0.5 s in a well-conditioned case; otherwise a chord
    /// step that must move under 0.5 s (the chains are independent, so the processor overlaps
    /// them). An event whose step was ill-conditioned, left the bracket or did not settle is
    /// finished by `crossing`. A time more than 10 minutes outside the local date may be left at
    /// the first step's estimate (within seconds).
    func crossings(solarDay k: Int, wanted: UInt8) -> EventTimes {
        var (times, slow) = fastCrossings(solarDay: k, wanted: wanted)
        if slow != 0 {
            for j in 0..<8 where slow & (1 << j) != 0 {
                times[j] = crossing(target: Self.targets[j >> 1], rising: j & 1 == 0, solarDay: k) ?? .nan
            }
        }
        return times
    }

    func fastCrossings(solarDay k: Int, wanted: UInt8) -> (times: EventTimes, slow: UInt8) {
        var times = EventTimes(repeating: .nan)
        var inverseSlopes = EventTimes(repeating: 0)
        var slow: UInt8 = 0
        var settled: UInt8 = 0
        let targets = Self.targets
        let (tr, trAlt) = transit(k)
        let (lowerBefore, sinAltBefore) = lower(k)
        let (lowerAfter, sinAltAfter) = lower(k + 1)
        let s = table.terms(at: tr)
        let hTransit = hourAngle(s)
        let sunRate = (2 * .pi + s.dEot) * (1 / 86_400)
        let curvature = table.curvature(at: tr)
        for i in 0..<4 {
            let target = targets[i]
            guard trAlt > target else { continue }
            let canRise = sinAltBefore < target && wanted & (1 << (2 * i)) != 0
            let canSet = sinAltAfter < target && wanted & (2 << (2 * i)) != 0
            guard canRise || canSet else { continue }
            // The event hour angle H₀ = acos c and its first two derivatives (per day) at the transit.
            let c = cosineOfEventHourAngle(terms: s, target: target)
            guard c > -1, c < 1 else {
                slow |= (canRise ? 1 << (2 * i) : 0) | (canSet ? 2 << (2 * i) : 0)
                continue
            }
            let inverseRoot = 1 / (1 - c * c).squareRoot()  // 1 / sin H₀
            let dc = target * secPhi * s.dSecDec - tanPhi * s.dTanDec
            let d2c = target * secPhi * curvature.secDec - tanPhi * curvature.tanDec
            let h0 = acos(c)
            let dh0 = -dc * inverseRoot
            let d2h0 = -(d2c + c * dc * dc * inverseRoot * inverseRoot) * inverseRoot
            let rate = dh0 * (1 / 86_400)  // radians per second
            for side in 0..<2 where side == 0 ? canRise : canSet {
                let sign: Double = side == 0 ? 1 : -1
                let j = 2 * i + side
                // A second-order step from the transit on F(τ) = ∓H₀(τ) − H(τ) (τ in days):
                // Newton's step δ₁ = −F/F′, then δ = −F/(F′ + F″·δ₁/2). The event's hour angle must
                // move at under half the Sun's rate, else (near the polar circles) the general
                // solver takes over.
                let f0 = Self.wrap(-sign * h0 - hTransit)
                let f1 = -sign * dh0 - (2 * .pi + s.dEot)
                let f2 = -sign * d2h0 - curvature.eot
                let inverseF1 = 1 / f1
                let newton = -f0 * inverseF1
                let step = -f0 / (f1 + 0.5 * f2 * newton)
                let t = tr + step * 86_400
                let slope = sunRate + sign * rate  // = −f1 / 86 400
                if slope > 0.5 * sunRate, side == 0 ? (t > lowerBefore && t < tr) : (t > tr && t < lowerAfter) {
                    times[j] = t
                    inverseSlopes[j] = -86_400 * inverseF1
                    // Well-conditioned (the event's hour angle drifts at under 5 % of the Sun's rate):
                    // a time 10 minutes clear of the date only needs its side of the date, and when
                    // the second-order term moved the step by under 0.5 s the remainder is a small
                    // fraction of that (checked against the fully converged solver: within 0.12 s at
                    // any latitude, typically under 0.01 s); neither is refined.
                    let drift = abs(rate) / sunRate
                    if drift < 0.05, t < start - 600 || t > end + 600 || abs(step - newton) * 86_400 < 0.5 {
                        settled |= 1 << j
                    }
                } else {
                    slow |= 1 << j
                }
            }
        }
        // The second step reuses the first step's slope (a chord step: no square root or
        // division); it must move under 0.5 s, which leaves an error below a millisecond (the
        // slope changes by well under 1 % over the step's reach).
        for j in 0..<8 where settled & (1 << j) == 0 {
            let t = times[j]
            guard !t.isNaN else { continue }
            let sign: Double = j & 1 == 0 ? 1 : -1
            let s = table.terms(at: t)
            let c = cosineOfEventHourAngle(terms: s, target: targets[j >> 1])
            if c > -1, c < 1 {
                let step = Self.wrap(-sign * acos(c) - hourAngle(s)) * inverseSlopes[j]
                let next = t + step
                if abs(step) < 0.5, j & 1 == 0 ? (next > lowerBefore && next < tr) : (next > tr && next < lowerAfter) {
                    times[j] = next
                    continue
                }
            }
            times[j] = .nan
            slow |= 1 << j
        }
        return (times, slow)
    }

    mutating func prepareNeighbours() {
        guard !neighboursReady else { return }
        neighboursReady = true
        transit0 = culmination(near: transit1 - 86_400, target: 0, passes: 1)
        transit2 = culmination(near: transit1 + 86_400, target: 0, passes: 1)
        let at0 = table.terms(at: transit0)
        let at2 = table.terms(at: transit2)
        lower0 = transit0 - 43_200 * (2 * .pi) / (2 * .pi + at0.dEot)
        lower3 = transit2 + 43_200 * (2 * .pi) / (2 * .pi + at2.dEot)
        sinAltTransit0 = sinPhi * at0.sinDec + cosPhi * at0.cosDec
        sinAltTransit2 = sinPhi * at2.sinDec + cosPhi * at2.cosDec
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

    /// cos H₀ = (sin h − sin φ sin δ) / (cos φ cos δ) = sin h·sec φ·sec δ − tan φ·tan δ for
    /// the altitude with sine `target` at `terms` (outside [−1, 1]: the altitude is not reached).
    @inline(__always)
    func cosineOfEventHourAngle(terms s: SolarTerms, target: Double) -> Double {
        target * secPhi * s.secDec - tanPhi * s.tanDec
    }

    /// The event hour angle H₀ = acos((sin h − sin φ sin δ) / (cos φ cos δ)) at `terms`
    /// (radians, 0…π) and its rate of change (radians per second); nil when the Sun does
    /// not reach the altitude on that declination.
    @inline(__always)
    func eventHourAngle(terms s: SolarTerms, target: Double) -> (h0: Double, rate: Double)? {
        let c = cosineOfEventHourAngle(terms: s, target: target)
        guard c > -1, c < 1 else { return nil }  // also false for NaN
        let dc = target * secPhi * s.dSecDec - tanPhi * s.dTanDec  // per day
        return (acos(c), -dc / ((1 - c * c).squareRoot() * 86_400))
    }

    /// The crossing of sin(altitude) = `target` in solar day `k` (0, 1, 2): rising between
    /// lower culmination k and transit k, setting between transit k and lower culmination k+1.
    /// The general solver behind `fastCrossings`, for any conditioning.
    func crossing(target: Double, rising: Bool, solarDay k: Int) -> Double? {
        var lo: Double
        var hi: Double  // g(lo) < 0 < g(hi), g = ±(sin alt − target)
        let sign: Double = rising ? 1 : -1
        let tr = transit(k)
        let low = lower(rising ? k : k + 1)
        guard low.sinAlt < target, tr.sinAlt > target else { return nil }
        (lo, hi) = rising ? (low.t, tr.t) : (tr.t, low.t)
        // Newton's method on F(t) = H_event(t) − H(t), where the event's hour angle is
        // ∓H₀(δ(t)) and the Sun's H(t) advances by 2π per day plus the equation of time's
        // drift. Started from the transit, the first step lands within a fraction of a
        // second (H₀ varies slowly and almost linearly), and a second step under 1 s leaves
        // an error far below 0.01 s. Only acos and a square root per step, no sine or cosine.
        // Near the polar circles, where H₀ changes nearly as fast as the Sun's hour angle,
        // the safeguarded Newton method on sin(altitude) below finishes inside the bracket.
        let left = min(lo, hi)
        let right = max(lo, hi)
        var t = tr.t
        var s = table.terms(at: t)
        for pass in 0..<5 {
            guard let (h0, rate) = eventHourAngle(terms: s, target: target)
            else {
                t = pass == 0 ? (lo + hi) / 2 : t
                break
            }
            let sunRate = (2 * .pi + s.dEot) * (1 / 86_400)
            let slope = sunRate + sign * rate
            guard slope > 0.2 * sunRate else {
                t = pass == 0 ? (lo + hi) / 2 : t
                break
            }
            let step = Self.wrap(-sign * h0 - hourAngle(s)) / slope
            let next = t + step
            guard next > left && next < right else {
                t = pass == 0 ? (lo + hi) / 2 : t
                break
            }
            t = next
            if pass > 0 && abs(step) < 1 { return t }
            s = table.terms(at: t)
        }
        for _ in 0..<60 {
            let (value, rate) = sinAltitudeAndRate(at: t)
            let g = sign * (value - target)
            if g < 0 { lo = t } else { hi = t }
            var next = t - (value - target) / rate
            let l = min(lo, hi)
            let r = max(lo, hi)
            if !(next > l && next < r) { next = (lo + hi) / 2 }
            let step = abs(next - t)
            t = next
            // Newton converges quadratically: after a step under 1 s the error is far below 0.01 s.
            if step < 1 || r - l < 0.05 { break }
        }
        return t
    }
}
