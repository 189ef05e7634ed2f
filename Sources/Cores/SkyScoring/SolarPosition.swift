import Foundation

/// The Sun's apparent position for an instant and place.
///
/// Method: NOAA Solar Calculator equations, i.e. Jean Meeus, *Astronomical
/// Algorithms* (2nd ed., 1998), ch. 12 (sidereal time), ch. 22 (nutation,
/// low-accuracy terms) and ch. 25 (solar coordinates, low accuracy: 0.01° in
/// longitude). The hour angle uses apparent sidereal time. Atmospheric refraction
/// is not applied here; event altitudes carry it (see `SolarCalculator`).
/// O(1): about 15 trigonometric evaluations.
public struct SolarPosition: Sendable, Equatable {
    /// Geometric altitude of the Sun's centre above the horizon, degrees.
    public var altitudeDeg: Double
    /// Azimuth, degrees clockwise from north.
    public var azimuthDeg: Double
    /// Apparent declination, degrees.
    public var declinationDeg: Double
    /// Local hour angle, degrees in −180…180 (0 at transit, negative before).
    public var hourAngleDeg: Double

    /// The position at `utcSeconds` (seconds since 1970-01-01T00:00:00Z) seen from
    /// `latitude`/`longitude` (degrees, east positive).
    public init(utcSeconds: Double, latitude: Double, longitude: Double) {
        let e = SolarEphemeris(utcSeconds: utcSeconds)
        let rad = Double.pi / 180
        var h = (e.apparentSiderealDeg + longitude - e.rightAscensionDeg).truncatingRemainder(dividingBy: 360)
        if h > 180 { h -= 360 } else if h < -180 { h += 360 }
        let phi = latitude * rad
        let dec = e.declinationDeg * rad
        let ha = h * rad
        let sinAlt = sin(phi) * sin(dec) + cos(phi) * cos(dec) * cos(ha)
        let alt = asin(max(-1, min(1, sinAlt)))
        var az = atan2(sin(ha), cos(ha) * sin(phi) - tan(dec) * cos(phi)) / rad + 180
        if az >= 360 { az -= 360 }
        altitudeDeg = alt / rad
        azimuthDeg = az
        declinationDeg = e.declinationDeg
        hourAngleDeg = h
    }
}

/// Geocentric apparent solar coordinates and sidereal time (Meeus ch. 12, 22, 25).
struct SolarEphemeris: Sendable {
    /// Apparent right ascension, degrees 0…360.
    var rightAscensionDeg: Double
    /// Apparent declination, degrees.
    var declinationDeg: Double
    /// Greenwich apparent sidereal time, degrees.
    var apparentSiderealDeg: Double

    init(utcSeconds: Double) {
        let rad = Double.pi / 180
        // Julian day (UT); T in Julian centuries of TT (ΔT ≈ 69 s added: its effect is < 0.001°).
        let jdUT = utcSeconds / 86_400 + 2_440_587.5
        let d = jdUT - 2_451_545.0
        let t = (d + 69.0 / 86_400) / 36_525
        let l0 = 280.46646 + t * (36_000.76983 + t * 0.0003032)
        let m = (357.52911 + t * (35_999.05029 - t * 0.0001537)) * rad
        let c =
            sin(m) * (1.914602 - t * (0.004817 + t * 0.000014)) + sin(2 * m) * (0.019993 - t * 0.000101)
            + sin(3 * m) * 0.000289
        let omega = (125.04452 - 1934.136261 * t) * rad
        let lambda = (l0 + c - 0.00569 - 0.00478 * sin(omega)) * rad
        // Mean obliquity (Meeus 22.2) corrected for nutation in obliquity (low-accuracy term).
        let eps0 = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
        let eps = (eps0 + 0.00256 * cos(omega)) * rad
        declinationDeg = asin(sin(eps) * sin(lambda)) / rad
        var ra = atan2(cos(eps) * sin(lambda), cos(lambda)) / rad
        if ra < 0 { ra += 360 }
        rightAscensionDeg = ra
        // Mean sidereal time (Meeus 12.4) + equation of the equinoxes (Δψ cos ε, Δψ ≈ −17.2″ sin Ω).
        let gmst = 280.46061837 + 360.98564736629 * d + t * t * (0.000387933 - t / 38_710_000)
        let dPsi = -17.20 / 3600 * sin(omega) - 1.32 / 3600 * sin(2 * l0 * rad)
        var gast = (gmst + dPsi * cos(eps)).truncatingRemainder(dividingBy: 360)
        if gast < 0 { gast += 360 }
        apparentSiderealDeg = gast
    }
}
