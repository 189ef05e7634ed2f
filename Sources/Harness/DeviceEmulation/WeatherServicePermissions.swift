/// Per-location permission to connect to the local weather server (use case 5 of the weather-cities spec).
///
/// Rule (WXC-P2): when the user arrives at a location the app has not seen, it asks ([S1]); a grant enables
/// the weather service there ([S3]); a refusal disables it there ([E1]/[E2]). A known location is never asked
/// again, and one location's answer never affects another. Lookups are O(1) (hash map).
public struct WeatherServicePermissions: Sendable, Equatable, Codable {
    /// Stored answers, by location identifier (true = enabled).
    public private(set) var decisions: [String: Bool]
    /// Number of prompts shown so far.
    public private(set) var promptsShown: Int

    /// Creates an empty permission store (no location answered yet).
    public init() {
        decisions = [:]
        promptsShown = 0
    }

    /// Result of arriving at a location.
    public struct Arrival: Sendable, Equatable {
        /// Whether the user was prompted (the location was new).
        public var prompted: Bool
        /// Whether the weather service is enabled at the location.
        public var enabled: Bool
    }

    /// The user arrives at `locationID`: prompts if the location is new, asking `answer` for the user's reply
    /// (called only when prompting), and returns whether the service is enabled there.
    public mutating func arrive(at locationID: String, answer: () -> Bool) -> Arrival {
        if let known = decisions[locationID] {
            return Arrival(prompted: false, enabled: known)
        }
        let granted = answer()
        decisions[locationID] = granted
        promptsShown += 1
        return Arrival(prompted: true, enabled: granted)
    }

    /// Whether the weather service may be used at `locationID` (false when not yet asked or refused).
    public func isEnabled(at locationID: String) -> Bool {
        decisions[locationID] ?? false
    }

    /// Whether the user has answered for `locationID`.
    public func hasAnswered(for locationID: String) -> Bool {
        decisions[locationID] != nil
    }
}
