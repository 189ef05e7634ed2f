/// The terms of one golden-hour quality score, so each can be reported and checked.
public struct QualityTerms: Sendable, Equatable {
    /// Baseline of a clear, clean sky, points.
    public var base: Double
    /// Added points for mid/high cloud that catches the low Sun's light ("canvas").
    public var canvasBonus: Double
    /// Multiplier 0.1…1 for low cloud blocking the Sun near the horizon.
    public var lowCloudFactor: Double
    /// Multiplier 0.15…1 for the chance of precipitation.
    public var rainFactor: Double
    /// Multiplier 0.8…1 for humidity (swollen haze particles wash colours out).
    public var humidityFactor: Double
    /// Multiplier 0.6…1 for poor horizontal visibility (fog, mist, haze).
    public var visibilityFactor: Double
    /// Multiplier 0.7…1 for PM2.5 aerosol.
    public var aerosolFactor: Double
    /// Upper bound applied when PM2.5 exceeds 75 µg/m³ (100 otherwise), points.
    public var aerosolCap: Double
    /// The quality, percent 0…100.
    public var qualityPct: Double

    /// Column names of the terms, in output order.
    public static let columnNames = [
        "base", "canvas_bonus", "low_cloud_factor", "rain_factor", "humidity_factor",
        "visibility_factor", "aerosol_factor", "aerosol_cap",
    ]
    /// Term values in `columnNames` order.
    public var columnValues: [Double] {
        [base, canvasBonus, lowCloudFactor, rainFactor, humidityFactor, visibilityFactor, aerosolFactor, aerosolCap]
    }
}

/// Golden-hour (sunrise/sunset) quality: a percentage predicting how colourful the sky will be.
///
/// quality = min(cap, (base + canvas) × low × rain × humidity × visibility × aerosol), clamped to 0…100.
///
/// Terms and what public predictors and atmospheric optics say about them:
/// - **base = 45** (a clear sky is middling): with no cloud there is no surface to reflect the
///   reddened light; the sky glows near the horizon only. S. F. Corfidi, "The Colors of Sunset and
///   Twilight" (NOAA Storm Prediction Center, 2014) notes that clean clear air gives a pleasant but
///   modest display; SunsetWx (Weather & Climate forecasting start-up, 2015) and Sunsethue rank
///   clear skies as "fair".
/// - **canvas** (up to +45): mid and high cloud (cirrus, altocumulus) above a clear low sky catch the
///   red/orange light after the Sun has set for the ground observer — the classic vivid sunset
///   (Corfidi 2014; SunsetWx and Sunsethue both favour 30–70 % mid/high cover). Cover c = the larger
///   of mid and high (%, METAR-style cumulative). The bonus rises linearly to its full value at c = 30 %,
///   stays full to 70 %, and falls to 30 % of it at full overcast (a solid deck is dull underneath).
/// - **low-cloud factor** 1 − 0.9·low: low cloud on the horizon blocks the Sun's light from reaching
///   the clouds above — a total low overcast gives the worst, grey result (all cited sources).
/// - **rain factor** 1 − 0.85·p (p = precipitation probability): rain means thick, low, wet cloud and
///   scattering that greys the sky; near-certain rain is among the worst cases.
/// - **humidity factor** 1 − 0.2·clamp((RH − 60)/40): above ~60 % RH hygroscopic aerosols swell and
///   scatter all wavelengths, muting colour (Corfidi 2014: humid summer haze gives pastel sunsets).
/// - **visibility factor** 0.6 + 0.4·clamp((V − 1 km)/9 km): fog, mist and haze (visibility under
///   10 km, the METAR threshold for reporting them) limit the light path.
/// - **aerosol factor and cap** (PM2.5): up to 35 µg/m³ no change; to 75 µg/m³ down to 0.85; above,
///   0.7 and the score is capped at 40. Heavy haze mutes and dims colour (Corfidi 2014; Zerefos et al.,
///   "Atmospheric effects of volcanic eruptions as seen by famous artists", Atmos. Chem. Phys. 7, 2007,
///   on how aerosol loading changes sunset colour ratios).
///
/// Unknown inputs are neutral (factor 1). When cloud layers are unknown but total cloud is given
/// (TMY files: total and opaque), the opaque part is taken as low cloud and the rest as high (thin)
/// cloud; with total only, half is taken as low and half as mid.
///
/// Properties (tested): more low cloud never raises the score; full low overcast < 15; near-certain
/// rain (≥ 95 %) < 20; a clear sky 30–60; 30–70 % mid/high cloud over a clear low sky ≥ 70 (visibility ≥ 10 km,
/// PM2.5 ≤ 35); PM2.5 > 75 µg/m³ caps the score at 40. O(1).
public struct GoldenHourQuality: Sendable {
    /// Clear-sky baseline, points.
    public var base = 45.0
    /// Full canvas bonus, points.
    public var canvasMax = 45.0
    /// Cap when PM2.5 exceeds `heavyPM25`, points.
    public var heavyAerosolCap = 40.0
    /// PM2.5 above which the cap applies, µg/m³.
    public var heavyPM25 = 75.0
    /// Quality below which a day counts as a poor chance of a visible sunrise/sunset, percent.
    public var lowQualityThreshold = 25.0

    /// Creates the model with its documented coefficients.
    public init() {}

    /// Scores `conditions` (typically `SkyConditions.window` around the event).
    public func score(_ conditions: SkyConditions) -> QualityTerms {
        func frac(_ v: Double?) -> Double? { v.map { min(1, max(0, $0 / 100)) } }
        var low = frac(conditions.cloudLowPct)
        var mid = frac(conditions.cloudMidPct)
        let high = frac(conditions.cloudHighPct)
        if low == nil && mid == nil && high == nil, let total = frac(conditions.cloudTotalPct) {
            low = total / 2
            mid = total / 2
        }
        let canvasCover = max(mid ?? 0, high ?? 0)
        let shape: Double
        switch canvasCover {
        case ..<0.3: shape = canvasCover / 0.3
        case ...0.7: shape = 1
        default: shape = 1 - 0.7 * (canvasCover - 0.7) / 0.3
        }
        let canvas = canvasMax * shape
        let lowFactor = 1 - 0.9 * (low ?? 0)
        let rain = 1 - 0.85 * (frac(conditions.precipProbabilityPct) ?? 0)
        let rh = conditions.humidityPct.map { min(1, max(0, ($0 - 60) / 40)) } ?? 0
        let humidity = 1 - 0.2 * rh
        let visibility = conditions.visibilityKm.map { 0.6 + 0.4 * min(1, max(0, ($0 - 1) / 9)) } ?? 1
        var aerosol = 1.0
        var cap = 100.0
        if let pm = conditions.pm25 {
            if pm > heavyPM25 {
                aerosol = 0.7
                cap = heavyAerosolCap
            } else if pm > 35 {
                aerosol = 1 - 0.15 * (pm - 35) / (heavyPM25 - 35)
            }
        }
        let raw = (base + canvas) * lowFactor * rain * humidity * visibility * aerosol
        return QualityTerms(
            base: base, canvasBonus: canvas, lowCloudFactor: lowFactor, rainFactor: rain,
            humidityFactor: humidity, visibilityFactor: visibility, aerosolFactor: aerosol,
            aerosolCap: cap, qualityPct: min(cap, max(0, min(100, raw))))
    }
}

extension SkyConditions {
    /// Conditions from TMY total and opaque sky cover (tenths): opaque → low, the rest → high (thin).
    public static func fromTMY(totalTenths: Double?, opaqueTenths: Double?) -> SkyConditions {
        guard let total = totalTenths else { return SkyConditions() }
        let opaque = min(total, opaqueTenths ?? total)
        return SkyConditions(
            cloudLowPct: opaque * 10, cloudMidPct: 0, cloudHighPct: (total - opaque) * 10,
            cloudTotalPct: total * 10)
    }
}

extension GoldenHourQuality {
    /// Same as `SkyConditions.fromTMY(totalTenths:opaqueTenths:)`: TMY total/opaque cover (tenths)
    /// mapped to layered cover the model reads (opaque → low, the rest → high).
    public static func fromTMY(totalTenths: Double?, opaqueTenths: Double?) -> SkyConditions {
        SkyConditions.fromTMY(totalTenths: totalTenths, opaqueTenths: opaqueTenths)
    }
}
