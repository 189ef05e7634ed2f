/// One replayed weather observation: sky conditions for the quality model plus the fields a
/// location's details and a city's weather view show (SKY-D2, WXC-W1, MIC-30).
public struct WeatherObservation: Sendable, Equatable {
    /// Time of the observation, seconds since 1970-01-01T00:00:00Z.
    public var timeUTC: Double
    /// Cloud by layer, humidity, rain, visibility, aerosols.
    public var sky: SkyConditions
    /// Air temperature, °C.
    public var temperatureC: Double?
    /// Wind speed, m/s.
    public var windSpeedMps: Double?
    /// Aerosol optical depth (TMY) when recorded, dimensionless.
    public var aerosolOpticalDepth: Double?
    /// METAR present-weather codes (e.g. `-RA BR`) when recorded.
    public var presentWeather: String?

    /// Creates an observation; omitted fields are unknown.
    public init(
        timeUTC: Double, sky: SkyConditions, temperatureC: Double? = nil, windSpeedMps: Double? = nil,
        aerosolOpticalDepth: Double? = nil, presentWeather: String? = nil
    ) {
        self.timeUTC = timeUTC
        self.sky = sky
        self.temperatureC = temperatureC
        self.windSpeedMps = windSpeedMps
        self.aerosolOpticalDepth = aerosolOpticalDepth
        self.presentWeather = presentWeather
    }

    /// Numeric fields that vary smoothly and are interpolated in time (cloud, humidity,
    /// visibility, PM2.5, temperature, wind, aerosol depth). Precipitation and present weather
    /// are events and are held from the last observation instead.
    static var continuousFields: [WritableKeyPath<WeatherObservation, Double?>] {
        [
            \.sky.cloudLowPct, \.sky.cloudMidPct, \.sky.cloudHighPct, \.sky.cloudTotalPct, \.sky.humidityPct,
            \.sky.visibilityKm, \.sky.pm25, \.temperatureC, \.windSpeedMps, \.aerosolOpticalDepth,
        ]
    }
}
