import Foundation
import SkyScoring

/// The NREL Solar Position Algorithm (SPA; Reda & Andreas 2004, "Solar position algorithm for
/// solar radiation applications", Solar Energy 76(5), NREL/TP-560-34302), written from the
/// paper's method: the Earth's heliocentric position from the truncated VSOP87 periodic terms,
/// nutation, aberration, apparent sidereal time, topocentric parallax and atmospheric
/// refraction (§3.1–3.15), and sunrise, transit and sunset by the three-day interpolation of
/// appendix A.2. Its stated uncertainty is ±0.0003° for years −2000…6000.
///
/// It is the harness's *reference* for sun times: independent of `SkyScoring.SolarCalculator`
/// (the app's algorithm under test), and computed for any place and date.
public enum SolarPositionAlgorithm {
    /// Where and in what air the Sun is observed.
    public struct Observer: Sendable, Equatable {
        /// Geographic latitude, degrees (north positive).
        public var latitude: Double
        /// Geographic longitude, degrees (east positive).
        public var longitude: Double
        /// Elevation above sea level, metres.
        public var elevationMetres: Double
        /// Annual mean local air pressure, millibars (hPa).
        public var pressureMillibars: Double
        /// Annual mean local temperature, °C.
        public var temperatureC: Double
        /// Atmospheric refraction at sunrise and sunset, degrees (0.5667 in the paper).
        public var refractionAtHorizonDeg: Double

        /// An observer; the air defaults to the standard atmosphere at sea level.
        public init(
            latitude: Double, longitude: Double, elevationMetres: Double = 0, pressureMillibars: Double = 1013.25,
            temperatureC: Double = 12, refractionAtHorizonDeg: Double = 0.5667
        ) {
            self.latitude = latitude
            self.longitude = longitude
            self.elevationMetres = elevationMetres
            self.pressureMillibars = pressureMillibars
            self.temperatureC = temperatureC
            self.refractionAtHorizonDeg = refractionAtHorizonDeg
        }
    }

    /// The Sun's position for one instant, and the intermediate quantities the paper tabulates
    /// for its test case.
    public struct Position: Sendable, Equatable {
        /// Earth heliocentric longitude L, degrees in [0, 360).
        public var heliocentricLongitude: Double
        /// Earth heliocentric latitude B, degrees.
        public var heliocentricLatitude: Double
        /// Earth–Sun distance R, astronomical units.
        public var radiusAU: Double
        /// Nutation in longitude Δψ, degrees.
        public var nutationLongitude: Double
        /// Nutation in obliquity Δε, degrees.
        public var nutationObliquity: Double
        /// True obliquity of the ecliptic ε, degrees.
        public var obliquity: Double
        /// Apparent sidereal time at Greenwich ν, degrees in [0, 360).
        public var siderealTime: Double
        /// Geocentric right ascension α, degrees in [0, 360).
        public var rightAscension: Double
        /// Geocentric declination δ, degrees.
        public var declination: Double
        /// Observer local hour angle H, degrees in [0, 360).
        public var hourAngle: Double
        /// Topocentric elevation angle without refraction e0, degrees.
        public var elevationWithoutRefraction: Double
        /// Topocentric zenith angle with refraction θ, degrees.
        public var zenith: Double
        /// Topocentric azimuth angle Φ, eastward from north, degrees in [0, 360).
        public var azimuth: Double

        /// The incidence angle on a surface of `slope` degrees from horizontal whose normal faces
        /// `surfaceAzimuthRotation` degrees east of south (the paper's γ), degrees (§3.16).
        public func incidence(slope: Double, surfaceAzimuthRotation: Double) -> Double {
            let astronomers = azimuth - 180  // Γ: westward from south
            let z = radians(zenith)
            let w = radians(slope)
            return degrees(
                acos(cos(z) * cos(w) + sin(w) * sin(z) * cos(radians(astronomers - surfaceAzimuthRotation))))
        }
    }

    /// The Sun's position at `unixSeconds` (UTC) for `observer`; `deltaT` is TT − UT, seconds.
    public static func position(unixSeconds: Double, deltaT: Double, observer: Observer) -> Position {
        position(julianDay: julianDay(unixSeconds: unixSeconds), deltaT: deltaT, observer: observer)
    }

    /// The Sun's position at Julian day `jd` (UT).
    public static func position(julianDay jd: Double, deltaT: Double, observer o: Observer) -> Position {
        let g = geocentric(julianDay: jd, deltaT: deltaT)
        let h = normalized(g.siderealTime + o.longitude - g.rightAscension)  // §3.11
        // §3.12 parallax: ξ equatorial horizontal parallax; u, x, y the observer's geocentric terms.
        let xi = radians(8.794 / (3600 * g.radius))
        let phi = radians(o.latitude)
        let u = atan(0.99664719 * tan(phi))
        let x = cos(u) + o.elevationMetres / 6_378_140 * cos(phi)
        let y = 0.99664719 * sin(u) + o.elevationMetres / 6_378_140 * sin(phi)
        let hr = radians(h)
        let delta = radians(g.declination)
        let deltaAlpha = atan2(-x * sin(xi) * sin(hr), cos(delta) - x * sin(xi) * cos(hr))
        let deltaPrime = atan2((sin(delta) - y * sin(xi)) * cos(deltaAlpha), cos(delta) - x * sin(xi) * cos(hr))
        let hPrime = hr - deltaAlpha  // §3.13
        // §3.14: elevation, then refraction while the Sun is not below the refracted horizon.
        let e0 = degrees(asin(sin(phi) * sin(deltaPrime) + cos(phi) * cos(deltaPrime) * cos(hPrime)))
        var de = 0.0
        if e0 >= -(sunRadiusDeg + o.refractionAtHorizonDeg) {
            de =
                o.pressureMillibars / 1010 * 283 / (273 + o.temperatureC) * 1.02
                / (60 * tan(radians(e0 + 10.3 / (e0 + 5.11))))
        }
        // §3.15 azimuth: Γ westward from south, Φ eastward from north.
        let gamma = degrees(atan2(sin(hPrime), cos(hPrime) * sin(phi) - tan(deltaPrime) * cos(phi)))
        return Position(
            heliocentricLongitude: g.heliocentricLongitude, heliocentricLatitude: g.heliocentricLatitude,
            radiusAU: g.radius, nutationLongitude: g.nutationLongitude, nutationObliquity: g.nutationObliquity,
            obliquity: g.obliquity, siderealTime: g.siderealTime, rightAscension: g.rightAscension,
            declination: g.declination, hourAngle: h, elevationWithoutRefraction: e0, zenith: 90 - (e0 + de),
            azimuth: normalized(gamma + 180))
    }

    /// Sunrise, transit and sunset of one UTC day by appendix A.2, Unix seconds; sunrise and
    /// sunset are nil when the Sun's centre does not reach `horizonDeg` that day (polar day or
    /// night). The events are the day's (the A.2 fractions of the day are kept in [0, 1)).
    ///
    /// - Parameters:
    ///   - utcDay: days since 1970-01-01 of the UTC date.
    ///   - horizonDeg: the geometric elevation of the Sun's centre at rise and set, h0′ (−0.8333°:
    ///     34′ of refraction and 16′ of semi-diameter).
    public static func sunTimes(
        utcDay: Int, deltaT: Double, observer o: Observer, horizonDeg: Double = -0.8333
    ) -> (sunrise: Double?, transit: Double, sunset: Double?) {
        let jd0 = julianDay(unixSeconds: Double(utcDay) * 86_400)
        let nu = geocentric(julianDay: jd0, deltaT: 0).siderealTime  // A.2.1, at 0 UT
        // A.2.2: α, δ at 0 TT of the day before, the day, and the day after.
        let days = [-1.0, 0, 1].map { geocentric(julianDay: jd0 + $0, deltaT: 0) }
        let alpha = days.map(\.rightAscension)
        let delta = days.map(\.declination)
        let phi = radians(o.latitude)
        let m0 = fraction((alpha[1] - o.longitude - nu) / 360)  // A.2.3
        let cosH0 =
            (sin(radians(horizonDeg)) - sin(phi) * sin(radians(delta[1]))) / (cos(phi) * cos(radians(delta[1])))
        let rises = abs(cosH0) <= 1
        let h0 = rises ? degrees(acos(cosH0)) : 0  // A.2.4, in [0, 180]
        let m = [m0, fraction(m0 - h0 / 360), fraction(m0 + h0 / 360)]  // A.2.5
        // A.2.8 interpolation terms; a daily change above 2 means the 360° wrap of α.
        func interpolate(_ v: [Double], _ n: Double) -> Double {
            var a = v[1] - v[0]
            var b = v[2] - v[1]
            if abs(a) > 2 { a = fraction(a) }
            if abs(b) > 2 { b = fraction(b) }
            return v[1] + n * (a + b + (b - a) * n) / 2
        }
        var hour = [Double](repeating: 0, count: 3)
        var elevation = [Double](repeating: 0, count: 3)
        var declination = [Double](repeating: 0, count: 3)
        for i in 0..<3 {
            let nuI = nu + 360.985647 * m[i]  // A.2.6
            let n = m[i] + deltaT / 86_400  // A.2.7
            let a = interpolate(alpha, n)
            declination[i] = interpolate(delta, n)
            var hI = normalized(nuI + o.longitude - a)  // A.2.9, limited to [−180, 180]
            if hI > 180 { hI -= 360 }
            hour[i] = hI
            let d = radians(declination[i])
            elevation[i] = degrees(asin(sin(phi) * sin(d) + cos(phi) * cos(d) * cos(radians(hI))))  // A.2.10
        }
        let start = Double(utcDay) * 86_400
        let transit = start + (m[0] - hour[0] / 360) * 86_400  // A.2.11
        guard rises else { return (nil, transit, nil) }
        // A.2.12: one correction step towards h0′.
        func event(_ i: Int) -> Double {
            let r =
                m[i] + (elevation[i] - horizonDeg)
                / (360 * cos(radians(declination[i])) * cos(phi) * sin(radians(hour[i])))
            return start + r * 86_400
        }
        return (event(1), transit, event(2))
    }

    /// ΔT = TT − UT, seconds, for a decimal year, from the polynomial fits of Espenak and
    /// Meeus (NASA's "Five Millennium Canon of Solar Eclipses", 2006). Rise and set times
    /// hardly depend on it (a second of ΔT moves the Sun by 0.00001°).
    public static func estimatedDeltaT(year y: Double) -> Double {
        switch y {
        case 1860..<1900:
            let t = y - 1860
            return 7.62 + 0.5737 * t - 0.251754 * t * t + 0.01680668 * pow(t, 3) - 0.0004473624 * pow(t, 4)
                + pow(t, 5) / 233_174
        case 1900..<1920:
            let t = y - 1900
            return -2.79 + 1.494119 * t - 0.0598939 * t * t + 0.0061966 * pow(t, 3) - 0.000197 * pow(t, 4)
        case 1920..<1941:
            let t = y - 1920
            return 21.20 + 0.84493 * t - 0.076100 * t * t + 0.0020936 * pow(t, 3)
        case 1941..<1961:
            let t = y - 1950
            return 29.07 + 0.407 * t - t * t / 233 + pow(t, 3) / 2547
        case 1961..<1986:
            let t = y - 1975
            return 45.45 + 1.067 * t - t * t / 260 - pow(t, 3) / 718
        case 1986..<2005:
            let t = y - 2000
            return 63.86 + 0.3345 * t - 0.060374 * t * t + 0.0017275 * pow(t, 3) + 0.000651814 * pow(t, 4)
                + 0.00002373599 * pow(t, 5)
        case 2005..<2050:
            let t = y - 2000
            return 62.92 + 0.32217 * t + 0.005589 * t * t
        case 2050..<2150:
            let u = (y - 1820) / 100
            return -20 + 32 * u * u - 0.5628 * (2150 - y)
        default:
            let u = (y - 1820) / 100
            return -20 + 32 * u * u
        }
    }

    /// ΔT for the instant `unixSeconds`, seconds (`estimatedDeltaT(year:)`).
    public static func estimatedDeltaT(unixSeconds: Double) -> Double {
        estimatedDeltaT(year: 1970 + unixSeconds / (365.2425 * 86_400))
    }

    /// Julian day (UT) of a Unix time.
    public static func julianDay(unixSeconds: Double) -> Double { unixSeconds / 86_400 + 2_440_587.5 }

    // MARK: The geocentric steps (§3.1–3.10)

    struct Geocentric {
        var heliocentricLongitude: Double
        var heliocentricLatitude: Double
        var radius: Double
        var nutationLongitude: Double
        var nutationObliquity: Double
        var obliquity: Double
        var siderealTime: Double
        var rightAscension: Double
        var declination: Double
    }

    static func geocentric(julianDay jd: Double, deltaT: Double) -> Geocentric {
        // §3.1 time scales.
        let jde = jd + deltaT / 86_400
        let jc = (jd - 2_451_545) / 36_525
        let jce = (jde - 2_451_545) / 36_525
        let jme = jce / 10
        // §3.2 heliocentric position.
        let l = normalized(degrees(series(SPATerms.longitude, jme)))
        let b = degrees(series(SPATerms.latitude, jme))
        let r = series(SPATerms.radius, jme)
        // §3.3 geocentric.
        let theta = normalized(l + 180)
        let beta = -b
        // §3.4 nutation.
        let x: [Double] = [
            297.85036 + 445_267.111480 * jce - 0.0019142 * jce * jce + pow(jce, 3) / 189_474,
            357.52772 + 35_999.050340 * jce - 0.0001603 * jce * jce - pow(jce, 3) / 300_000,
            134.96298 + 477_198.867398 * jce + 0.0086972 * jce * jce + pow(jce, 3) / 56_250,
            93.27191 + 483_202.017538 * jce - 0.0036825 * jce * jce + pow(jce, 3) / 327_270,
            125.04452 - 1934.136261 * jce + 0.0020708 * jce * jce + pow(jce, 3) / 450_000,
        ]
        var psi = 0.0
        var eps = 0.0
        let terms = SPATerms.nutation
        for row in stride(from: 0, to: terms.count, by: 9) {
            var argument = 0.0
            for j in 0..<5 { argument += terms[row + j] * x[j] }
            let a = radians(argument)
            psi += (terms[row + 5] + terms[row + 6] * jce) * sin(a)
            eps += (terms[row + 7] + terms[row + 8] * jce) * cos(a)
        }
        let deltaPsi = psi / 36_000_000
        let deltaEps = eps / 36_000_000
        // §3.5 obliquity (U in units of 10,000 years; arcseconds).
        let u = jme / 10
        var e0 = 0.0
        for c in [2.45, 5.79, 27.87, 7.12, -39.05, -249.67, -51.38, 1999.25, -1.55, -4680.93, 84381.448] {
            e0 = e0 * u + c
        }
        let epsilon = e0 / 3600 + deltaEps
        // §3.6 aberration, §3.7 apparent longitude.
        let lambda = theta + deltaPsi - 20.4898 / (3600 * r)
        // §3.8 sidereal time.
        let nu0 = normalized(
            280.46061837 + 360.98564736629 * (jd - 2_451_545) + 0.000387933 * jc * jc - pow(jc, 3) / 38_710_000)
        let nu = nu0 + deltaPsi * cos(radians(epsilon))
        // §3.9–3.10 right ascension and declination.
        let lr = radians(lambda)
        let er = radians(epsilon)
        let br = radians(beta)
        let alpha = normalized(degrees(atan2(sin(lr) * cos(er) - tan(br) * sin(er), cos(lr))))
        let delta = degrees(asin(sin(br) * cos(er) + cos(br) * sin(er) * sin(lr)))
        return Geocentric(
            heliocentricLongitude: l, heliocentricLatitude: b, radius: r, nutationLongitude: deltaPsi,
            nutationObliquity: deltaEps, obliquity: epsilon, siderealTime: normalized(nu), rightAscension: alpha,
            declination: delta)
    }

    /// Σᵢ τⁱ Σⱼ Aⱼ cos(Bⱼ + Cⱼ τ) / 10⁸ over the series of one quantity.
    static func series(_ table: [[Double]], _ tau: Double) -> Double {
        var total = 0.0
        var power = 1.0
        for terms in table {
            var sum = 0.0
            for k in stride(from: 0, to: terms.count, by: 3) {
                sum += terms[k] * cos(terms[k + 1] + terms[k + 2] * tau)
            }
            total += sum * power
            power *= tau
        }
        return total / 100_000_000
    }

    /// The Sun's apparent radius used by the refraction switch, degrees.
    static let sunRadiusDeg = 0.26667

    static func normalized(_ degrees: Double) -> Double {
        let r = degrees.truncatingRemainder(dividingBy: 360)
        return r < 0 ? r + 360 : r
    }

    static func fraction(_ x: Double) -> Double { x - x.rounded(.down) }
}

@inline(__always) private func radians(_ d: Double) -> Double { d * .pi / 180 }
@inline(__always) private func degrees(_ r: Double) -> Double { r * 180 / .pi }
