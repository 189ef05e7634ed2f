import FieldtestData
import Foundation
import ScenarioEngine
import SkyScoring

/// Weather served to miCity from a recorded station file (MIC-30), any format the weather
/// providers read (NOAA LCD of either layout, TMY3, TMY2): the scoring core's replay and
/// `WeatherReport` (OpenWeatherMap icon code, description, temperature), at the station.
struct RecordedWeatherProvider {
    let provider: any WeatherProvider
    let latitude: Double
    let longitude: Double

    /// Loads the recording `dataset` (a typical year replayed in `year`); its station must be
    /// placed (the file's coordinates, a TMY header, or NOAA's station history for an LCD id).
    static func load(
        _ dataset: String, store: DatasetStore, year: Int, options: WeatherLoadOptions = WeatherLoadOptions()
    ) throws -> RecordedWeatherProvider {
        let provider = try WeatherProviders.load(dataset, store: store, year: year, options: options)
        guard let c = provider.station else {
            throw EmulatedDevices.BuildError(
                description:
                    "\(dataset): error: the weather recording's station has no known position (no LATITUDE/LONGITUDE "
                    + "columns, and the station history has none for its id); use a file that carries them")
        }
        return RecordedWeatherProvider(provider: provider, latitude: c.latitude, longitude: c.longitude)
    }

    /// The weather shown at `time` (seconds since 1970 UTC); nil outside the recording.
    func weather(at time: Double) -> WeatherReport? {
        provider.report(latitude: latitude, longitude: longitude, at: time)
    }
}
