/// The location details screen (SKY-D2): every field SkyScape shows for a saved location,
/// sourced from the solar calculator, the replayed weather and the quality model.
///
/// On a polar day or night there is no sunrise, sunset or golden hour; the screen shows the
/// polar note instead, which counts as those fields being present.
public struct LocationDetails: Sendable, Equatable, Codable {
    /// Sunrise, UTC seconds; nil when it does not happen that day.
    public var sunrise: Double?
    /// Sunset, UTC seconds; nil when it does not happen that day.
    public var sunset: Double?
    /// `polar_day`, `polar_night` or empty.
    public var polarNote: String
    /// Low, mid and high cloud, % of sky.
    public var cloudLowPct: Double?
    public var cloudMidPct: Double?
    public var cloudHighPct: Double?
    /// Probability of precipitation, %.
    public var rainProbabilityPct: Double?
    /// Relative humidity, %.
    public var humidityPct: Double?
    /// Air quality: PM2.5 (µg/m³) where recorded, else aerosol optical depth, else a haze index
    /// from visibility (100 − 10 × km, clamped to 0…100).
    public var airQuality: Double?
    /// Wind speed, m/s.
    public var windSpeedMps: Double?
    /// Golden-hour quality of the day's sunset, %.
    public var qualityPct: Double?

    /// Assembles the details from the day's solar events, the weather then and the quality.
    public init(day: SolarDay, weather: WeatherObservation?, qualityPct: Double?) {
        sunrise = day.sunrise
        sunset = day.sunset
        polarNote = day.note.rawValue
        let sky = weather?.sky
        cloudLowPct = sky?.cloudLowPct
        cloudMidPct = sky?.cloudMidPct
        cloudHighPct = sky?.cloudHighPct
        rainProbabilityPct = sky?.precipProbabilityPct
        humidityPct = sky?.humidityPct
        airQuality =
            sky?.pm25 ?? weather?.aerosolOpticalDepth ?? sky?.visibilityKm.map { min(100, max(0, 100 - 10 * $0)) }
        windSpeedMps = weather?.windSpeedMps
        self.qualityPct = qualityPct
    }

    /// Names of the SKY-D2 fields that are missing (empty when the screen is complete).
    public var missingFields: [String] {
        let polar = !polarNote.isEmpty
        let fields: [(String, Bool)] = [
            ("sunrise", sunrise != nil || polar), ("sunset", sunset != nil || polar),
            ("cloud_low", cloudLowPct != nil), ("cloud_mid", cloudMidPct != nil), ("cloud_high", cloudHighPct != nil),
            ("rain_probability", rainProbabilityPct != nil), ("humidity", humidityPct != nil),
            ("air_quality", airQuality != nil), ("wind", windSpeedMps != nil), ("quality", qualityPct != nil || polar),
        ]
        return fields.filter { !$0.1 }.map(\.0)
    }
}
