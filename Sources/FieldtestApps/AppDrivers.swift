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

    /// Apps that have a driver in this build.
    public static var available: [String] { Array(registry.keys).sorted() }

    /// App name → driver constructor. One line per app.
    static let registry: [String: @Sendable (Scenario) throws -> any AppDriver] = [
    ]

    /// The factory used by `fieldtest run`.
    public static let factory: AppDriverFactory = { scenario in
        guard let make = registry[scenario.app] else {
            throw DriverError.noDriver(app: scenario.app, file: scenario.file)
        }
        return try make(scenario)
    }
}
