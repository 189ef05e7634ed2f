/// Errors of the positioning cores; each message says what is wrong and how to fix it.
public enum PositioningError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The training set is empty.
    case emptyTrainingSet
    /// A training fingerprint has no ground truth (building, floor, coordinates).
    case unlabelledTrainingRow(index: Int)
    /// No training fingerprint detects any access point (every RSSI +100 in all `rows`): there is
    /// nothing to locate against.
    case noTrainingSignal(rows: Int)
    /// A fingerprint has the wrong number of RSSI values.
    case wrongFingerprintLength(index: Int, expected: Int, found: Int)
    /// A parameter is outside its valid range.
    case invalidParameter(name: String, reason: String)
    /// Too few measurements to solve for a position.
    case tooFewMeasurements(needed: Int, found: Int)
    /// Cross-validation found fewer than two groups (phones or users) to hold out in turn.
    case tooFewGroups(grouping: String, found: Int)

    public var description: String {
        switch self {
        case .emptyTrainingSet:
            return "error: the training set is empty; pass at least one labelled fingerprint file"
        case .unlabelledTrainingRow(let i):
            return
                "error: training fingerprint #\(i + 1) has no ground truth; training files need LONGITUDE, LATITUDE, FLOOR and BUILDINGID"
        case .noTrainingSignal(let rows):
            return
                "error: none of the \(rows) training fingerprints detects an access point (every RSSI is +100); "
                + "train on fingerprints recorded where access points were heard"
        case .wrongFingerprintLength(let i, let e, let f):
            return "error: fingerprint #\(i + 1) has \(f) RSSI values, expected \(e); use one value per access point"
        case .invalidParameter(let name, let reason):
            return "error: parameter '\(name)' \(reason)"
        case .tooFewMeasurements(let needed, let found):
            return "error: \(found) measurements given, at least \(needed) are needed; add more anchors"
        case .tooFewGroups(let grouping, let found):
            return
                "error: leave-one-\(grouping)-out cross-validation needs labelled fingerprints from at least two \(grouping)s, "
                + "the training data has \(found); add files recorded with another \(grouping), or locate a separate --input file instead"
        }
    }
}
