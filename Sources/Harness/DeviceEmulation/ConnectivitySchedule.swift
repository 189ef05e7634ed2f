/// One interval of a connectivity schedule: `[startTime, endTime)` in seconds (UTC epoch, virtual clock).
public struct ConnectivityInterval: Sendable, Equatable, Codable {
    /// Start of the interval (inclusive), seconds.
    public var startTime: Double
    /// End of the interval (exclusive), seconds.
    public var endTime: Double
    /// Connectivity during the interval.
    public var state: ConnectivityState

    /// Creates an interval `[startTime, endTime)` (seconds) with the given state.
    public init(startTime: Double, endTime: Double, state: ConnectivityState) {
        self.startTime = startTime
        self.endTime = endTime
        self.state = state
    }
}

/// Connectivity of the emulated phone over virtual time: a sorted list of disjoint intervals, and a
/// default state for every time no interval covers.
///
/// Lookup is a binary search: O(log n) for n intervals.
public struct ConnectivitySchedule: Sendable, Equatable, Codable {
    /// The intervals, sorted by start time and disjoint.
    public let intervals: [ConnectivityInterval]
    /// State outside every interval.
    public let defaultState: ConnectivityState

    /// Creates a schedule. Throws `.invalidParameter` for an empty or reversed interval and
    /// `.overlappingIntervals` when an interval starts before the previous one ends (intervals must be sorted).
    public init(intervals: [ConnectivityInterval] = [], defaultState: ConnectivityState = .online)
        throws(DeviceEmulationError)
    {
        var previousEnd = -Double.infinity
        for (index, interval) in intervals.enumerated() {
            guard interval.startTime.isFinite, interval.endTime.isFinite, interval.endTime > interval.startTime else {
                throw .invalidParameter(
                    name: "connectivity interval \(index) endTime", value: interval.endTime,
                    expected: "a finite time after its startTime \(interval.startTime) s")
            }
            guard interval.startTime >= previousEnd else {
                throw .overlappingIntervals(index: index, start: interval.startTime, previousEnd: previousEnd)
            }
            previousEnd = interval.endTime
        }
        self.intervals = intervals
        self.defaultState = defaultState
    }

    /// A schedule that is always in `state`.
    public static func always(_ state: ConnectivityState) -> ConnectivitySchedule {
        // An empty interval list cannot fail validation.
        (try? ConnectivitySchedule(intervals: [], defaultState: state))
            ?? ConnectivitySchedule(unchecked: [], defaultState: state)
    }

    private init(unchecked intervals: [ConnectivityInterval], defaultState: ConnectivityState) {
        self.intervals = intervals
        self.defaultState = defaultState
    }

    /// Connectivity at `time` (seconds).
    public func state(at time: Double) -> ConnectivityState {
        guard let index = GaitModel.lastIndex(in: intervals, notAfter: time, key: \.startTime) else {
            return defaultState
        }
        let interval = intervals[index]
        return time < interval.endTime ? interval.state : defaultState
    }

    /// The first time strictly after `time` at which the state may change (an interval boundary), or `nil`.
    public func nextBoundary(after time: Double) -> Double? {
        for interval in intervals {
            if interval.startTime > time { return interval.startTime }
            if interval.endTime > time { return interval.endTime }
        }
        return nil
    }

    /// Total time within `[from, to)` (seconds) spent in `state`, seconds.
    public func duration(of state: ConnectivityState, from: Double, to: Double) -> Double {
        guard to > from else { return 0 }
        var total = 0.0
        var cursor = from
        while cursor < to {
            let end = min(nextBoundary(after: cursor) ?? to, to)
            if self.state(at: cursor) == state { total += end - cursor }
            cursor = end
        }
        return total
    }
}
