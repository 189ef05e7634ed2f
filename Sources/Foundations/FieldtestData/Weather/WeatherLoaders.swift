import Foundation

/// Typed loaders of the weather and places datasets, and their record counts for `datasets verify`.
public enum WeatherLoaders {
    /// Loads `url` strictly with the typed loader of `format` and returns its record count
    /// (all data records, including NOAA summary rows that the LCD loader does not return).
    public static func countRecords(format: DatasetFormat, url: URL, displayName: String) throws(DataError) -> Int {
        switch format {
        case .noaaLCD:
            return try NOAALCDLoader.load(url: url, displayName: displayName, utcOffsetSeconds: 0).recordCount
        case .isdHistory:
            return try ISDHistoryLoader.load(url: url, displayName: displayName).records.count
        case .tmy3:
            return try TMY3Loader.load(url: url, displayName: displayName).hours.count
        case .tmy2:
            return try TMY2Loader.load(url: url, displayName: displayName).hours.count
        case .seattleDaily:
            return try SeattleDailyLoader.load(url: url, displayName: displayName).records.count
        case .beijingPM25:
            return try BeijingPM25Loader.load(url: url, displayName: displayName).records.count
        case .usCities:
            return try PlacesLoader.loadUSCities(url: url, displayName: displayName).records.count
        case .worldCities:
            return try PlacesLoader.loadWorldCities(url: url, displayName: displayName).records.count
        case .json:
            return try JSONTableLoader.load(url: url, displayName: displayName).keys.count
        default:
            throw .badLayout(file: displayName, line: 1, reason: "format '\(format)' is not a weather or places format")
        }
    }
}
