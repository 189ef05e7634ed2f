/// Who is asking: NavUP's three kinds of user (NAV-F26).
public enum CrowdRole: String, Sendable, Equatable {
    /// A phone user: may read congestion, may not write it.
    case mobile
    /// The system agent: reads and writes.
    case agent
    /// An administrator: reads and writes.
    case admin

    /// Whether the role may write congestion data.
    public var mayWriteCongestion: Bool { self != .mobile }
}

/// Crowd pings and published congestion under NavUP's privacy and access rules (NAV-PR1, NAV-F26):
/// - no location is stored for a device before it has given consent (pings are refused and counted);
/// - withdrawing consent deletes every ping of that device at once;
/// - pings older than `retentionSeconds` are dropped by `prune(now:)` (and on each submit);
/// - everyone may read the published congestion; only agents and admins may publish it —
///   other writes are refused and counted.
/// A value type; all operations O(stored pings) at worst.
public struct CrowdPingStore: Sendable, Equatable {
    /// How long a ping is kept, in seconds.
    public var retentionSeconds: Double
    /// Stored pings, oldest first.
    public private(set) var pings: [CrowdPing] = []
    /// Devices that currently consent.
    public private(set) var consenting: Set<String> = []
    /// Pings refused because their device had not consented.
    public private(set) var refusedWithoutConsent = 0
    /// Congestion writes refused for lack of rights.
    public private(set) var deniedWrites = 0
    /// The published congestion snapshot.
    public private(set) var published: CongestionSnapshot?

    /// Creates an empty store keeping pings for `retentionSeconds`.
    public init(retentionSeconds: Double) { self.retentionSeconds = retentionSeconds }

    /// Records consent of `device`.
    public mutating func grantConsent(_ device: String) { consenting.insert(device) }

    /// Withdraws consent and deletes all of the device's pings; returns how many were deleted.
    @discardableResult
    public mutating func withdrawConsent(_ device: String) -> Int {
        consenting.remove(device)
        let before = pings.count
        pings.removeAll { $0.device == device }
        return before - pings.count
    }

    /// Stores `ping` if its device consents; returns whether it was stored.
    @discardableResult
    public mutating func submit(_ ping: CrowdPing) -> Bool {
        guard consenting.contains(ping.device) else {
            refusedWithoutConsent += 1
            return false
        }
        pings.append(ping)
        prune(now: ping.time)
        return true
    }

    /// Drops pings older than the retention window at `now` (seconds); returns how many.
    @discardableResult
    public mutating func prune(now: Double) -> Int {
        let before = pings.count
        pings.removeAll { $0.time < now - retentionSeconds }
        return before - pings.count
    }

    /// Publishes a congestion snapshot; refused (and counted) unless `role` may write.
    @discardableResult
    public mutating func publish(_ snapshot: CongestionSnapshot, by role: CrowdRole) -> Bool {
        guard role.mayWriteCongestion else {
            deniedWrites += 1
            return false
        }
        published = snapshot
        return true
    }

    /// The published congestion; every role may read it.
    public func congestion(for role: CrowdRole) -> CongestionSnapshot? { published }
}
