/// Consent to collect the user's location, and the identifiable location data collected under it
/// (NAV-PR1, after the POPI Act 2013 discussion in the NavUP SRS §2.5).
///
/// Rules: nothing is collected before consent is given; withdrawing consent stops collection at once;
/// deleting identifiable data removes every stored record, and the store stays empty until consent is
/// given again. Every refused collection is counted so the engine can report it.
public struct LocationConsent: Sendable, Equatable, Codable {
    /// Consent state at the latest event.
    public enum State: Sendable, Equatable, Codable {
        /// The app has not asked yet.
        case notAsked
        /// Consent given at the time (seconds, UTC epoch).
        case given(at: Double)
        /// Consent withdrawn at the time (seconds, UTC epoch).
        case withdrawn(at: Double)
    }

    /// One collected location record tied to the persistent user id.
    public struct Record: Sendable, Equatable, Codable {
        /// Persistent identifier of the data subject.
        public var userID: String
        /// Collection time, seconds (UTC epoch).
        public var time: Double
        /// Latitude, degrees (WGS 84).
        public var latitude: Double
        /// Longitude, degrees (WGS 84).
        public var longitude: Double

        /// Creates a record; time in seconds, coordinates in degrees.
        public init(userID: String, time: Double, latitude: Double, longitude: Double) {
            self.userID = userID
            self.time = time
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// Current consent state.
    public private(set) var state: State
    /// Records collected under consent and not deleted.
    public private(set) var records: [Record]
    /// Collection attempts refused because consent was missing or withdrawn.
    public private(set) var refusedCollections: Int
    /// Time of the latest deletion of identifiable data, seconds, if any.
    public private(set) var lastDeletionTime: Double?

    /// Creates a consent store in the `notAsked` state with no data.
    public init() {
        state = .notAsked
        records = []
        refusedCollections = 0
        lastDeletionTime = nil
    }

    /// Whether collection is allowed now.
    public var mayCollect: Bool {
        if case .given = state { return true }
        return false
    }

    /// The user gives consent at `time` (seconds).
    public mutating func give(at time: Double) {
        state = .given(at: time)
    }

    /// The user withdraws consent at `time` (seconds); collection stops, stored data stays until deleted.
    public mutating func withdraw(at time: Double) {
        state = .withdrawn(at: time)
    }

    /// Deletes every identifiable record at `time` (seconds); returns how many were deleted.
    @discardableResult
    public mutating func deleteIdentifiableData(at time: Double) -> Int {
        let count = records.count
        records.removeAll()
        lastDeletionTime = time
        return count
    }

    /// Withdraws consent and deletes the data in one step (the POPI "withdraw and destroy" request).
    @discardableResult
    public mutating func withdrawAndDelete(at time: Double) -> Int {
        withdraw(at: time)
        return deleteIdentifiableData(at: time)
    }

    /// Tries to store `record`; returns whether it was stored (only under consent).
    @discardableResult
    public mutating func collect(_ record: Record) -> Bool {
        guard mayCollect else {
            refusedCollections += 1
            return false
        }
        records.append(record)
        return true
    }
}
