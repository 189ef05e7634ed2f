/// Errors raised by the device emulation: each message says what is wrong and how to fix it.
public enum DeviceEmulationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A numeric parameter is outside its valid range.
    case invalidParameter(name: String, value: Double, expected: String)
    /// A connectivity schedule's intervals overlap or are out of order.
    case overlappingIntervals(index: Int, start: Double, previousEnd: Double)
    /// A network link preset name is not known.
    case unknownNetworkPreset(name: String, known: [String])
    /// A GPS environment name is not known.
    case unknownEnvironment(name: String, known: [String])
    /// The offline cache's SQLite database could not be opened or used.
    case cacheStorage(path: String, reason: String)
    /// A replayed Wi-Fi fingerprint list is empty.
    case emptyFingerprintReplay

    /// A message saying what is wrong and how to fix it.
    public var description: String {
        switch self {
        case let .invalidParameter(name, value, expected):
            return "invalid \(name) \(value): expected \(expected); correct the device profile or call site"
        case let .overlappingIntervals(index, start, previousEnd):
            return
                "connectivity interval \(index) starts at \(start) s before the previous one ends (\(previousEnd) s); "
                + "sort the intervals by start time and make them disjoint"
        case let .unknownNetworkPreset(name, known):
            return "unknown network preset '\(name)'; use one of: \(known.joined(separator: ", "))"
        case let .unknownEnvironment(name, known):
            return "unknown GPS environment '\(name)'; use one of: \(known.joined(separator: ", "))"
        case let .cacheStorage(path, reason):
            return "offline cache database '\(path)' failed: \(reason); check that the folder exists and is writable"
        case .emptyFingerprintReplay:
            return "Wi-Fi replay needs at least one recorded fingerprint; load a non-empty fingerprint file"
        }
    }
}

extension DeviceEmulationError {
    /// Throws `.invalidParameter` unless `value` is finite and `> 0`.
    static func requirePositive(_ value: Double, _ name: String) throws(DeviceEmulationError) {
        guard value.isFinite, value > 0 else {
            throw .invalidParameter(name: name, value: value, expected: "a finite number > 0")
        }
    }

    /// Throws `.invalidParameter` unless `value` is finite and `>= 0`.
    static func requireNonNegative(_ value: Double, _ name: String) throws(DeviceEmulationError) {
        guard value.isFinite, value >= 0 else {
            throw .invalidParameter(name: name, value: value, expected: "a finite number >= 0")
        }
    }

    /// Throws `.invalidParameter` unless `value` is a probability in [0, 1].
    static func requireProbability(_ value: Double, _ name: String) throws(DeviceEmulationError) {
        guard value.isFinite, value >= 0, value <= 1 else {
            throw .invalidParameter(name: name, value: value, expected: "a probability in [0, 1]")
        }
    }
}
