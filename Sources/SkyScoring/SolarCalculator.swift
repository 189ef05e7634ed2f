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
/// not the longitude, fixes the day).
///
/// Method: the Sun's position from `SolarPosition` (Meeus ch. 25); each event is found by
/// Newton-style iteration on the hour angle, recomputing the declination and right
/// ascension at the event time (4 iterations, converging to well under 1 s), starting from
/// the transit nearest the event. Accuracy against NREL SPA (Reda & Andreas 2008) is
/// checked in the tests. Complexity O(1) per day (about 100 solar positions).
public struct SolarCalculator: Sendable {
    /// Altitude of the Sun's centre at sunrise/sunset, degrees.
    public static let sunriseAltitudeDeg = -0.833
    /// Civil twilight altitude, degrees.
    public static let civilAltitudeDeg = -6.0
    /// Lower bound of golden hour and upper bound of blue hour, degrees.
    public static let goldenLowDeg = -4.0
    /// Upper bound of golden hour, degrees.
    public static let goldenHighDeg = 6.0

    /// Creates a calculator.
    public init() {}

    /// Solar events of `date` (local) at `latitude`/`longitude` (degrees, east positive) in `zone`.
    public func day(date: CivilDate, latitude: Double, longitude: Double, zone: TimeZone) -> SolarDay {
        let (start, end) = SolarCalculator.localDayBounds(date, zone: zone)
        let startD = Double(start), endD = Double(end)
        let mid = (startD + endD) / 2
        let noon = transit(near: mid, longitude: longitude)
        func pick(_ altitude: Double, rising: Bool) -> Double? {
            event(altitude: altitude, rising: rising, latitude: latitude, longitude: longitude, start: startD, end: endD,
                  transitNearMid: noon)
        }
        var day = SolarDay(date: date, sunrise: pick(Self.sunriseAltitudeDeg, rising: true),
                           sunset: pick(Self.sunriseAltitudeDeg, rising: false), solarNoon: nil,
                           civilDawn: pick(Self.civilAltitudeDeg, rising: true),
                           civilDusk: pick(Self.civilAltitudeDeg, rising: false),
                           goldenMorning: (nil, nil), goldenEvening: (nil, nil), blueMorning: (nil, nil),
                           blueEvening: (nil, nil), dayLengthSeconds: nil, note: .none)
        let low = pick(Self.goldenLowDeg, rising: true), high = pick(Self.goldenHighDeg, rising: true)
        day.goldenMorning = (low, high)
        day.blueMorning = (day.civilDawn, low)
        let highSet = pick(Self.goldenHighDeg, rising: false), lowSet = pick(Self.goldenLowDeg, rising: false)
        day.goldenEvening = (highSet, lowSet)
        day.blueEvening = (lowSet, day.civilDusk)
        for t in [noon - 86_400, noon, noon + 86_400] where t >= startD && t < endD {
            let n = transit(near: t, longitude: longitude)
            if n >= startD && n < endD { day.solarNoon = n; break }
        }
        if day.sunrise == nil && day.sunset == nil {
            let alt = SolarPosition(utcSeconds: day.solarNoon ?? noon, latitude: latitude, longitude: longitude).altitudeDeg
            let lowerAlt = SolarPosition(utcSeconds: (day.solarNoon ?? noon) + 43_082, latitude: latitude,
                                         longitude: longitude).altitudeDeg
            if lowerAlt > Self.sunriseAltitudeDeg { day.note = .polarDay; day.dayLengthSeconds = 86_400 }
            else if alt < Self.sunriseAltitudeDeg { day.note = .polarNight; day.dayLengthSeconds = 0 }
        } else if let r = day.sunrise, let s = day.sunset {
            day.dayLengthSeconds = s > r ? s - r : nil
        }
        return day
    }

    /// UTC seconds of the upper transit nearest to `t`.
    func transit(near t: Double, longitude: Double) -> Double {
        var x = t
        for _ in 0..<4 {
            let e = SolarEphemeris(utcSeconds: x)
            var h = (e.apparentSiderealDeg + longitude - e.rightAscensionDeg).truncatingRemainder(dividingBy: 360)
            if h > 180 { h -= 360 } else if h < -180 { h += 360 }
            let step = h / 360.98564736629 * 86_400
            x -= step
            if abs(step) < 0.05 { break }
        }
        return x
    }

    /// The crossing of `altitude` (rising or setting) in [start, end), searching the transits
    /// around the day. Returns the earliest such crossing.
    func event(altitude: Double, rising: Bool, latitude: Double, longitude: Double, start: Double, end: Double,
               transitNearMid: Double) -> Double? {
        var found: Double?
        for k in [0, -1, 1] {
            let tr = k == 0 ? transitNearMid : transit(near: transitNearMid + Double(k) * 86_400, longitude: longitude)
            guard let t = crossing(altitude: altitude, rising: rising, transit: tr, latitude: latitude, longitude: longitude),
                  t >= start, t < end else { continue }
            if found.map({ t < $0 }) ?? true { found = t }
            if k == 0 { break }
        }
        return found
    }

    /// The crossing of `altitude` belonging to the day of `transit`, or nil when the Sun
    /// does not cross it then.
    func crossing(altitude: Double, rising: Bool, transit: Double, latitude: Double, longitude: Double) -> Double? {
        let rad = Double.pi / 180
        let sinH0 = sin(altitude * rad), sinPhi = sin(latitude * rad), cosPhi = cos(latitude * rad)
        var t = transit
        var target = 0.0
        for i in 0..<6 {
            let e = SolarEphemeris(utcSeconds: t)
            let dec = e.declinationDeg * rad
            let cosH = (sinH0 - sinPhi * sin(dec)) / (cosPhi * cos(dec))
            guard cosH >= -1, cosH <= 1 else { return nil }
            target = (rising ? -1 : 1) * acos(cosH) / rad
            var h = (e.apparentSiderealDeg + longitude - e.rightAscensionDeg).truncatingRemainder(dividingBy: 360)
            if h > 180 { h -= 360 } else if h < -180 { h += 360 }
            var diff = target - h
            if diff > 180 { diff -= 360 } else if diff < -180 { diff += 360 }
            let step = diff / 360.98564736629 * 86_400
            t += step
            if i > 0 && abs(step) < 0.05 { break }
        }
        // Stay with the day of this transit (half a day either side).
        guard abs(t - transit) < 43_200 else { return nil }
        return t
    }

    /// The UTC instants [start, end) of the local calendar `date` in `zone`.
    /// Handles DST days (23/25 h) and zones whose midnight is skipped by a transition.
    public static func localDayBounds(_ date: CivilDate, zone: TimeZone) -> (start: Int, end: Int) {
        (firstInstant(of: date, zone: zone), firstInstant(of: date.adding(days: 1), zone: zone))
    }

    static func firstInstant(of date: CivilDate, zone: TimeZone) -> Int {
        let wall = date.daysSinceEpoch * 86_400
        func offset(_ t: Int) -> Int { zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))) }
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
