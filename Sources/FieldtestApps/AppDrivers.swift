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

    /// The factory used by `fieldtest run`.
    public static let factory: AppDriverFactory = { scenario in
        guard let driver = try make(scenario) else {
            throw DriverError.noDriver(app: scenario.app, file: scenario.file)
        }
        return driver
    }
}
