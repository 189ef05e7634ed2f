import FieldtestData
import Foundation
import SkyScoring

/// Weather served to miCity from a recorded NOAA LCD station file (MIC-30): the scoring core's
/// `LCDWeatherProvider` replay and `WeatherReport` (OpenWeatherMap icon code, description,
/// temperature). The file must carry its station coordinates (layout v2).
struct RecordedWeatherProvider {
    let provider: LCDWeatherProvider
    let latitude: Double
    let longitude: Double

    /// Loads an LCD file that carries its station coordinates.
    static func load(url: URL, name: String, utcOffsetSeconds: Int) throws -> RecordedWeatherProvider {
        let file = try NOAALCDLoader.load(
            url: url, displayName: DatasetManifest.display(url), utcOffsetSeconds: utcOffsetSeconds)
        guard let c = file.coordinate else {
            throw EmulatedDevices.BuildError(
                description:
                    "\(name): error: the weather dataset has no station coordinates; use an LCD file with LATITUDE/LONGITUDE columns"
            )
        }
        return RecordedWeatherProvider(
            provider: LCDWeatherProvider(file: file), latitude: c.latitude, longitude: c.longitude)
    }

    /// The weather shown at `time` (seconds since 1970 UTC); nil outside the recording.
    func weather(at time: Double) -> WeatherReport? {
        provider.report(latitude: latitude, longitude: longitude, at: time)
    }
}
