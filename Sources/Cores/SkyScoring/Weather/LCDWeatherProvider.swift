import FieldtestData
import Foundation

/// NOAA LCD hourly observations (routine and special reports) replayed as recorded: cloud
/// layers from the METAR sky condition, rain from present weather.
public struct LCDWeatherProvider: WeatherProvider {
    /// `noaa-lcd`.
    public let name = "noaa-lcd"
    /// Observations sorted by time.
    public let observations: [WeatherObservation]
    /// Station position when the file has LATITUDE/LONGITUDE columns, or when `located(in:)`
    /// found it in NOAA's station history.
    public private(set) var station: (latitude: Double, longitude: Double)?
    /// LCD station id of the file (e.g. `08449013025`: USAF 084490 + WBAN 13025).
    public let stationID: String
    /// Rows used and skipped (with the first reasons) when the file was read.
    public let loadReport: LoadReport
    /// The standard-time offset the file's local dates were read with, seconds east of UTC.
    public let utcOffsetSeconds: Int

    /// Wraps a loaded LCD file (`NOAALCDLoader.load(url:displayName:utcOffsetSeconds:policy:)` reads
    /// one; LCD local times are local standard time all year).
    public init(file: LCDFile) {
        station = file.coordinate
        stationID = file.station
        loadReport = file.report
        utcOffsetSeconds = file.utcOffsetSeconds
        observations = file.observations.map { o in
            let cover = o.sky?.cover
            return WeatherObservation(
                timeUTC: Double(o.timeUTC),
                sky: SkyConditions(
                    cloudLowPct: cover?.lowPct, cloudMidPct: cover?.midPct, cloudHighPct: cover?.highPct,
                    cloudTotalPct: cover?.totalPct, humidityPct: o.relativeHumidityPct,
                    precipProbabilityPct: o.reportsPrecipitation ? 100 : 0, visibilityKm: o.visibilityKm),
                temperatureC: o.temperatureC, windSpeedMps: o.windSpeedMps, aerosolOpticalDepth: nil,
                presentWeather: o.presentWeather)
        }.sorted { $0.timeUTC < $1.timeUTC }
    }

    /// This recording with its station position looked up in NOAA's station history
    /// (`isd-history.csv`) by `stationID` when the file does not carry one (LCD layout v1 has
    /// no LATITUDE/LONGITUDE columns); unchanged when it does, or when the history has no
    /// position for the station. O(n) in stations.
    public func located(in stations: [ISDStation]) -> LCDWeatherProvider {
        guard station == nil, let match = ISDHistoryLoader.station(forLCD: stationID, in: stations),
            let latitude = match.latitude, let longitude = match.longitude
        else { return self }
        var located = self
        located.station = (latitude, longitude)
        return located
    }
}
