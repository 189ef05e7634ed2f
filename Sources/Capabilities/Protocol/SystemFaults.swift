/// The kinds of fault a system under test can commit; each is counted, never fatal.
public enum SystemFaultKind: String, Sendable, CaseIterable, Codable {
    /// The process exited or closed its output while a request was open.
    case crash
    /// No answer within the timeout; the process was killed.
    case timeout
    /// An answer whose `id` (or a batch whose rows' ids) is not the request's, in order.
    case outOfOrder = "out_of_order"
    /// A line that is not a JSON object.
    case malformed
    /// A JSON object missing a field, or with a field of the wrong type or value.
    case wrongType = "wrong_type"
    /// The system answered `{"ok":false,"error":…}`.
    case refused
    /// Requests not sent because the system crashed more often than the restart limit allows.
    case unavailable
}

/// Faults counted for one system during one run, and its restarts.
public struct SystemFaults: Sendable, Equatable, Codable {
    /// Faults per kind (kinds never seen are absent).
    public var counts: [SystemFaultKind: Int] = [:]
    /// Times the process was started again after a crash, timeout or desynchronised answer.
    public var restarts = 0
    /// Requests sent (a batch counts once).
    public var requests = 0

    /// No faults.
    public init() {}

    /// The number of faults of `kind`.
    public subscript(kind: SystemFaultKind) -> Int { counts[kind] ?? 0 }

    /// Adds `n` faults of `kind`.
    public mutating func add(_ kind: SystemFaultKind, _ n: Int = 1) { counts[kind, default: 0] += n }

    /// All faults.
    public var total: Int { counts.values.reduce(0, +) }
}
