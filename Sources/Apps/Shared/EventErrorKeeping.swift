/// A driver whose events may throw: the first error is kept and reported when the run ends.
protocol EventErrorKeeping: AnyObject {
    /// The first error thrown inside an event.
    var failure: (any Error)? { get set }
}

extension EventErrorKeeping {
    /// Runs `body` inside an event, keeping the first error; after an error, events do nothing.
    func guarded(_ body: () throws -> Void) {
        guard failure == nil else { return }
        do { try body() } catch { failure = error }
    }
}
