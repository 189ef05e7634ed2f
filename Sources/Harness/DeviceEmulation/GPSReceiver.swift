import FieldtestData
import Foundation

/// One GPS fix delivered to the app, with its ground truth for scoring.
public struct GPSFix: Sendable, Equatable, Codable {
    /// Fix time, seconds (UTC epoch, virtual clock).
    public var time: Double
    /// Reported position.
    public var coordinate: GeoPoint
    /// Accuracy the phone reports (68 % radius), metres.
    public var horizontalAccuracyMetres: Double
    /// Ground truth: distance between reported and true position, metres.
    public var trueErrorMetres: Double
    /// Ground truth: whether the fix is an outlier.
    public var isOutlier: Bool
}

/// Emulated phone GPS receiver: fixes at a fixed rate with correlated error, outliers and dropouts.
///
/// Method per fix attempt at time t (Δt since the previous attempt):
/// 1. Availability is a two-state Markov chain (Gilbert–Elliott style) in continuous time: leaving an outage
///    has rate 1/D and entering one has rate u / ((1 − u) D), giving long-run unavailability u and mean outage
///    D (`GPSEnvironment.unavailableFraction`, `.meanOutageSeconds`); over Δt the chain is in an outage with
///    probability u + (1[in outage] − u) · exp(−(λin + λout) Δt) (exact solution of the two-state chain).
/// 2. Each error axis follows e ← ρ e + √(1 − ρ²) σ N(0, 1), ρ = exp(−Δt / τ) (first-order Gauss–Markov);
///    the first attempt draws e from the stationary N(0, σ²).
/// 3. With the outlier probability the error is replaced by an outlier (uniform distance, uniform bearing).
/// Every attempt consumes the same number of random words (1 + 4 + 3) whatever happens, so sub-streams stay
/// aligned. The error process keeps running during outages. Complexity O(1) per attempt.
public struct GPSReceiver: Sendable, Equatable {
    /// Current surroundings; may be changed between fixes (e.g. entering a building).
    public var environment: GPSEnvironment
    /// Interval between fix attempts, seconds (1 s = 1 Hz, the usual phone rate).
    public var fixIntervalSeconds: Double
    private var errorEast = 0.0
    private var errorNorth = 0.0
    private var inOutage = false
    private var lastTime: Double?

    /// Creates a receiver; throws `.invalidParameter` for an invalid environment or interval (seconds).
    public init(environment: GPSEnvironment = .openSky, fixIntervalSeconds: Double = 1) throws(DeviceEmulationError) {
        try environment.validate()
        try DeviceEmulationError.requirePositive(fixIntervalSeconds, "fixIntervalSeconds")
        self.environment = environment
        self.fixIntervalSeconds = fixIntervalSeconds
    }

    /// One fix attempt at `time` (seconds) for a phone truly at `truePosition`; `nil` during a dropout.
    /// Times must not decrease between calls (a decrease is treated as Δt = 0).
    public mutating func fix(
        at time: Double,
        truePosition: GeoPoint,
        using rng: inout some RandomNumberGenerator
    ) -> GPSFix? {
        let sigma = environment.errorSigmaMetres
        let availabilityDraw = Sampling.openUnit(&rng)
        let zEast = Sampling.standardNormal(&rng)
        let zNorth = Sampling.standardNormal(&rng)
        let outlierDraw = Sampling.openUnit(&rng)
        let outlierDistanceDraw = Sampling.openUnit(&rng)
        let outlierBearingDraw = Sampling.openUnit(&rng)

        if let lastTime {
            let dt = max(0, time - lastTime)
            let u = environment.unavailableFraction
            let leaveRate = 1 / environment.meanOutageSeconds
            let enterRate = u / (1 - u) * leaveRate
            // Exact two-state solution: P(outage after dt) = u + (1[outage now] − u) e^(−(λin + λout) dt).
            let decay = exp(-(enterRate + leaveRate) * dt)
            let outageProbability = u + ((inOutage ? 1 : 0) - u) * decay
            inOutage = availabilityDraw < outageProbability
            let rho = exp(-dt / environment.correlationTimeSeconds)
            let innovation = (1 - rho * rho).squareRoot() * sigma
            errorEast = rho * errorEast + innovation * zEast
            errorNorth = rho * errorNorth + innovation * zNorth
        } else {
            inOutage = availabilityDraw < environment.unavailableFraction
            errorEast = sigma * zEast
            errorNorth = sigma * zNorth
        }
        lastTime = time
        guard !inOutage else { return nil }

        var east = errorEast
        var north = errorNorth
        let isOutlier = outlierDraw < environment.outlierProbability
        if isOutlier {
            let distance =
                environment.outlierMinimumMetres
                + (environment.outlierMaximumMetres - environment.outlierMinimumMetres) * outlierDistanceDraw
            let bearing = 2 * Double.pi * outlierBearingDraw
            east = distance * sin(bearing)
            north = distance * cos(bearing)
        }
        let reported = truePosition.offset(eastMetres: east, northMetres: north)
        return GPSFix(
            time: time, coordinate: reported, horizontalAccuracyMetres: environment.reportedAccuracyMetres,
            trueErrorMetres: (east * east + north * north).squareRoot(), isOutlier: isOutlier)
    }

    /// Fix attempts every `fixIntervalSeconds` over `[start, end)` (seconds) along `truePosition(t)`.
    /// Returns the delivered fixes and the number of attempts (for dropout rates).
    public mutating func track(
        from start: Double,
        to end: Double,
        truePosition: (Double) -> GeoPoint,
        using rng: inout some RandomNumberGenerator
    ) -> (fixes: [GPSFix], attempts: Int) {
        var fixes: [GPSFix] = []
        var attempts = 0
        var time = start
        while time < end {
            attempts += 1
            if let fix = fix(at: time, truePosition: truePosition(time), using: &rng) { fixes.append(fix) }
            time = start + Double(attempts) * fixIntervalSeconds
        }
        return (fixes, attempts)
    }
}
