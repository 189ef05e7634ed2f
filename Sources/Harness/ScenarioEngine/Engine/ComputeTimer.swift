import Foundation
import Synchronization

/// Measures the real compute time of a core call with a monotonic clock, so it
/// can be added to emulated device and network latency. Every measurement is also summed
/// process-wide (`spent`), for `bench sweep`'s breakdown of where a case's time goes.
public enum ComputeTimer {
    /// Runs `body` and returns its result with the elapsed seconds.
    @inlinable
    public static func measure<T>(_ body: () throws -> T) rethrows -> (result: T, seconds: Double) {
        let t0 = DispatchTime.now().uptimeNanoseconds
        let r = try body()
        let t1 = DispatchTime.now().uptimeNanoseconds
        add(nanoseconds: t1 &- t0)
        return (r, Double(t1 &- t0) / 1e9)
    }

    private static let total = Atomic<UInt64>(0)

    /// Adds one measurement to `spent`.
    @usableFromInline static func add(nanoseconds: UInt64) {
        total.wrappingAdd(nanoseconds, ordering: .relaxed)
    }

    /// Seconds measured so far by every thread of the process.
    public static var spent: Double { Double(total.load(ordering: .relaxed)) / 1e9 }
}
