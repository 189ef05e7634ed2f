import Foundation

/// Step detection from a 3-axis accelerometer by band-pass filtering the
/// acceleration magnitude and picking peaks above an adaptive threshold.
///
/// Method (after Brajdic & Harle, "Walk detection and step counting on
/// unconstrained smartphones", UbiComp 2013, whose best-performing family is
/// "filter + peak detection", and Zhao's Analog Devices note AN-602 for the
/// adaptive threshold): (1) the magnitude ‖a‖ makes the count independent of
/// how the phone is held; (2) a 2nd-order Butterworth high-pass at
/// `highPassHz` removes gravity and a 2nd-order low-pass at `lowPassHz` keeps
/// the step fundamental (cadence 1–3 Hz) and suppresses jerks and noise;
/// (3) a local maximum counts as a step when it exceeds
/// max(`minimumPeak`, `thresholdFraction` × the running mean of accepted peak
/// heights), and (4) peaks closer than `minimumIntervalSeconds` keep only the
/// highest (refractory period; 0.3 s ⇔ 3.3 steps/s). O(n) in samples, O(1) memory
/// besides the output.
public struct StepDetector: Sendable, Equatable {
    /// High-pass cutoff in Hz (removes gravity and slow orientation changes).
    public var highPassHz: Double
    /// Low-pass cutoff in Hz (above the fastest cadence's fundamental).
    public var lowPassHz: Double
    /// Smallest filtered peak counted as a step, m/s².
    public var minimumPeak: Double
    /// Fraction (0…1) of the running mean peak height a peak must reach.
    public var thresholdFraction: Double
    /// Shortest time between two steps, seconds.
    public var minimumIntervalSeconds: Double

    /// Creates a detector; cut-offs in Hz, peak in m/s², interval in seconds.
    public init(
        highPassHz: Double = 0.5, lowPassHz: Double = 3.0, minimumPeak: Double = 0.25,
        thresholdFraction: Double = 0.4, minimumIntervalSeconds: Double = 0.3
    ) {
        self.highPassHz = highPassHz
        self.lowPassHz = lowPassHz
        self.minimumPeak = minimumPeak
        self.thresholdFraction = thresholdFraction
        self.minimumIntervalSeconds = minimumIntervalSeconds
    }

    /// Times (seconds) of detected steps for accelerometer samples at `timesSeconds`
    /// with components in m/s² (any orientation), sampled at a uniform rate.
    /// Throws when the arrays differ in length, times do not increase, or the rate is too low for `lowPassHz`.
    public func detect(timesSeconds t: [Double], x: [Double], y: [Double], z: [Double]) throws(PositioningError)
        -> [Double]
    {
        guard t.count == x.count, t.count == y.count, t.count == z.count else {
            throw .invalidParameter(name: "samples", reason: "need equally many times and x/y/z values")
        }
        guard t.count >= 3, let first = t.first, let last = t.last, last > first else { return [] }
        let rate = Double(t.count - 1) / (last - first)
        guard rate > 2.5 * lowPassHz else {
            throw .invalidParameter(
                name: "sample rate",
                reason: "is \(rate) Hz; needs more than \(2.5 * lowPassHz) Hz for a \(lowPassHz) Hz low-pass")
        }
        for i in 1..<t.count where !(t[i] > t[i - 1]) {
            throw .invalidParameter(name: "timesSeconds", reason: "must increase (sample \(i) at \(t[i]) s)")
        }
        var hp = Biquad.highPass(cutoffHz: highPassHz, sampleRateHz: rate)
        var lp = Biquad.lowPass(cutoffHz: lowPassHz, sampleRateHz: rate)
        let m0 = (x[0] * x[0] + y[0] * y[0] + z[0] * z[0]).squareRoot()
        var prev2 = 0.0
        var prev1 = 0.0
        var steps: [Double] = []
        var lastPeak = -Double.infinity
        var meanPeak = 0.0
        var acceptedCount = 0
        for i in 0..<t.count {
            let m = (x[i] * x[i] + y[i] * y[i] + z[i] * z[i]).squareRoot() - m0
            let f = lp.process(hp.process(m))
            defer {
                prev2 = prev1
                prev1 = f
            }
            guard i >= 2, prev1 > prev2, prev1 >= f else { continue }
            let peakTime = t[i - 1]
            let height = prev1
            let threshold = max(minimumPeak, thresholdFraction * meanPeak)
            guard height > threshold else { continue }
            if peakTime - (steps.last ?? -Double.infinity) < minimumIntervalSeconds {
                // Refractory: keep the higher of the two peaks.
                if height > lastPeak, !steps.isEmpty {
                    steps[steps.count - 1] = peakTime
                    meanPeak += (height - lastPeak) / Double(max(1, min(acceptedCount, 8)))
                    lastPeak = height
                }
                continue
            }
            steps.append(peakTime)
            lastPeak = height
            acceptedCount += 1
            // Running mean over the last ~8 peaks (exponential window).
            meanPeak += (height - meanPeak) / Double(min(acceptedCount, 8))
        }
        return steps
    }
}
