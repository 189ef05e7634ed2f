/// A discrete-event simulation on a virtual clock: nothing sleeps. Time is
/// seconds since 1970 UTC; events run in `(time, sequence)` order; an event may
/// schedule more events. Events after `end` are not run.
public final class Simulation {
    /// Current virtual time, seconds since 1970 UTC.
    public private(set) var now: Double
    /// Virtual start.
    public let start: Double
    /// Virtual end; events later than this are dropped.
    public let end: Double
    /// Events dispatched so far.
    public private(set) var dispatched = 0

    private var queue = EventQueue<Action>()

    /// An event's work.
    public typealias Action = (Simulation) -> Void

    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
        self.now = start
    }

    /// Schedules `action` at absolute virtual time `time` (clamped to now: the
    /// past cannot be changed).
    public func schedule(at time: Double, _ action: @escaping Action) {
        queue.push(at: max(time, now), action)
    }

    /// Schedules `action` `delay` seconds from now.
    public func schedule(after delay: Double, _ action: @escaping Action) {
        schedule(at: now + max(0, delay), action)
    }

    /// Runs until no event is left at or before `end`; returns the number of events dispatched.
    @discardableResult
    public func run() -> Int {
        while let t = queue.nextTime, t <= end, let (time, action) = queue.pop() {
            now = time
            dispatched += 1
            action(self)
        }
        return dispatched
    }

    /// Pending events (for tests).
    public var pending: Int { queue.count }
}
