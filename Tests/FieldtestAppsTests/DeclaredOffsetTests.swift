import FieldtestData
import FieldtestTestSupport
import Foundation
import ScenarioEngine
import SkyScoring
import Testing

@testable import FieldtestApps

/// `utc_offset:` and `timezone:` on a dataset entry set the LCD station's offset; without them it
/// comes from the station's position.
@Suite("Declared station offsets")
struct DeclaredOffsetTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func firstObservation(_ entry: String, in dir: URL) throws -> Double {
        let text = """
            version: 1
            name: offsets
            app: skyscape
            seed: 1
            time: {start: 2023-01-24T06:00:00Z, duration: 1h, timezone: America/Chicago}
            datasets:
              - \(entry)
              - world-cities
              - us-cities
            devices:
              - {name: phone, gps: urban, network: lte}
            feeds:
              - {kind: weather-refresh, every: 5m, dataset: home-weather}
            requirements: [SKY-D1]
            """
        let file = dir.appendingPathComponent("s.yaml")
        try text.write(to: file, atomically: false, encoding: .utf8)
        let manifest = try DatasetManifest(root: Self.repo.appendingPathComponent("Datasets"))
        let scenario = try ScenarioLoader(manifest: manifest, registry: .bundled).load(file)
        let store = DatasetStore(manifest: manifest).session(adding: scenario.datasetEntries)
        let weather = try #require(try WeatherProviders.replayed(by: scenario, store))
        return try #require(weather.observations.first?.timeUTC)
    }

    @Test func theDeclaredOffsetOrZoneIsUsed() throws {
        let dir = TemporaryFiles.url("offsets")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("data"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(
            at: Self.repo.appendingPathComponent("Datasets/weather/LCD_USW00014939_Lincoln_2023JanFeb.csv"),
            to: dir.appendingPathComponent("data/lcd.csv"))
        let byPosition = try firstObservation("{name: home-weather, path: data/lcd.csv}", in: dir)
        let declared = try firstObservation("{name: home-weather, path: data/lcd.csv, utc_offset: -6}", in: dir)
        let zone = try firstObservation("{name: home-weather, path: data/lcd.csv, timezone: America/Chicago}", in: dir)
        let east = try firstObservation("{name: home-weather, path: data/lcd.csv, utc_offset: 3}", in: dir)
        // Lincoln keeps Central Standard Time, six hours behind UTC: all three agree.
        #expect(declared == byPosition && zone == byPosition)
        // Local times read as UTC+3 are nine hours earlier in UTC.
        #expect(east == byPosition - 9 * 3600)
        // A zone that does not exist is an error at its line, with the closest name.
        #expect {
            _ = try firstObservation("{name: home-weather, path: data/lcd.csv, timezone: America/Chikago}", in: dir)
        } throws: { error in
            "\(error)".contains("s.yaml:7:") && "\(error)".contains("did you mean 'America/Chicago'")
        }
    }
}
