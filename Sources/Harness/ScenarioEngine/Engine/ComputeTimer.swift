import Foundation

/// Measures the real compute time of a core call with a monotonic clock, so it
/// can be added to emulated device and network latency.
public enum ComputeTimer {
    /// Runs `body` and returns its result with the elapsed seconds.
    @inlinable
    public static func measure<T>(_ body: () throws -> T) rethrows -> (result: T, seconds: Double) {
        let t0 = DispatchTime.now().uptimeNanoseconds
        let r = try body()
        let t1 = DispatchTime.now().uptimeNanoseconds
        return (r, Double(t1 &- t0) / 1e9)
    }
}
