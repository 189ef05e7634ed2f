/// What a system under test does: one of the four cores a scenario can measure.
///
/// The raw value is the name used everywhere: in a scenario's `systems:` block, on the
/// command line (`--system sentiment=…`), in the protocol's handshake and in `run.json`.
public enum SystemCapability: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// Sunrise, sunset, twilight and golden-hour times (`fieldtest sun`'s columns).
    case sun
    /// Campus routing between two points (`fieldtest route`'s columns).
    case route
    /// Wi-Fi fingerprint positioning (UJIIndoorLoc fields in, `longitude,latitude,floor,building` out).
    case locate
    /// Tweet sentiment (`fieldtest classify`'s columns).
    case sentiment

    /// The request `op` of this capability's queries (`sun`, `route`, `locate`, `classify`).
    public var operation: String {
        switch self {
        case .sun: "sun"
        case .route: "route"
        case .locate: "locate"
        case .sentiment: "classify"
        }
    }

    /// The capability name.
    public var description: String { rawValue }

    /// The capability named `text`, or an error that lists the names.
    public static func named(_ text: String) throws(SystemError) -> SystemCapability {
        guard let c = SystemCapability(rawValue: text) else {
            throw .usage(
                "unknown capability '\(text)'; use one of \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return c
    }
}

/// The version of the JSON Lines protocol (`docs/system-protocol.md`) this harness speaks;
/// sent in the handshake as `protocol`.
public let systemProtocolVersion = 1
