import Foundation
import ScenarioEngine

/// Picks the driver of a scenario's app.
public enum AppDrivers {
    /// Errors of driver construction.
    public enum DriverError: Error, CustomStringConvertible {
        case noDriver(app: String, file: String)
        public var description: String {
            switch self {
            case .noDriver(let app, let file):
                return "\(file): error: app '\(app)' cannot be run by this build of fieldtest; run a scenario of another app"
            }
        }
    }

    /// The driver for `scenario`'s app, or nil when this build has none. One case per app.
    static func make(_ scenario: Scenario) throws -> (any AppDriver)? {
        switch scenario.app {
        case "micity": return MiCityDriver()
        case "journal": return JournalDriver()
        case "navup": return NavUPDriver()
        case "skyscape": return SkyScapeDriver(scenario: scenario)
        case "weather-cities": return WeatherCitiesDriver(scenario: scenario)
        default: return nil
        }
    }

    /// The factory used by `fieldtest run`: the app's driver in a `ManagedAppDriver`,
    /// which removes its temporary folders however the run ends and checks the
    /// scenario's threshold overrides.
    public static let factory: AppDriverFactory = { scenario in
        guard let driver = try make(scenario) else {
            throw DriverError.noDriver(app: scenario.app, file: scenario.file)
        }
        return ManagedAppDriver(driver)
    }
}

extension MiCityDriver: TemporaryFolderOwning {
    /// The device caches and the app database.
    public var temporaryFolders: [URL] { [folder] }
}

extension JournalDriver: TemporaryFolderOwning {
    /// The device caches and the journals.
    public var temporaryFolders: [URL] { [folder] }
}

extension NavUPDriver: TemporaryFolderOwning {
    /// The device caches (made by `start`).
    public var temporaryFolders: [URL] { cacheFolder.map { [$0] } ?? [] }
}

extension SkyScapeDriver: TemporaryFolderOwning {
    /// The device caches and the accounts database.
    var temporaryFolders: [URL] { [cacheFolder] }
}

extension WeatherCitiesDriver: TemporaryFolderOwning {
    /// The device caches and the accounts database.
    var temporaryFolders: [URL] { [cacheFolder] }
}
