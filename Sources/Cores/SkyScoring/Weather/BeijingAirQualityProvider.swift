import FieldtestData

/// The UCI Beijing PM2.5 hours (US Embassy, 2010–2014) replayed as recorded: PM2.5, humidity
/// (from dew point), temperature and rain, but no cloud — the quality model's haze cap and
/// rain terms on a real aerosol record, with cloud unknown (neutral).
///
/// Rain: an hour with cumulated rain or snow hours above zero reads as certain precipitation.
/// Station position: US Embassy, approximately 39.95° N, 116.47° E (not in the file; from the
/// dataset's documentation).
public struct BeijingAirQualityProvider: WeatherProvider {
    /// `beijing-pm25`.
    public let name = "beijing-pm25"
    /// Observations sorted by time.
    public let observations: [WeatherObservation]
    /// The US Embassy, Beijing.
    public let station: (latitude: Double, longitude: Double)? = (39.95, 116.47)

    /// Wraps the loaded hours.
    public init(hours: [BeijingHour]) {
        observations = hours.map { h in
            WeatherObservation(
                timeUTC: Double(h.startUTC),
                sky: SkyConditions(
                    humidityPct: h.relativeHumidityPct,
                    precipProbabilityPct: h.rainHours > 0 || h.snowHours > 0 ? 100 : 0,
                    pm25: h.pm25),
                temperatureC: h.temperatureC)
        }.sorted { $0.timeUTC < $1.timeUTC }
    }
}
