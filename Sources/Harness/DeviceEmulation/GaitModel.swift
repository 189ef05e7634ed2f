import Foundation

/// A stretch of the emulated walk: how long, how fast, and how fast the heading turns.
public struct WalkingSegment: Sendable, Equatable, Codable {
    /// Length of the segment, seconds (> 0).
    public var durationSeconds: Double
    /// Walking pace during the segment (`.standing` for a pause).
    public var pace: WalkingPace
    /// Rate of change of the compass heading, rad/s; positive turns right (clockwise seen from above).
    public var turnRateRadiansPerSecond: Double

    /// Creates a segment; `durationSeconds` in seconds, `turnRateRadiansPerSecond` in rad/s (clockwise positive).
    public init(durationSeconds: Double, pace: WalkingPace, turnRateRadiansPerSecond: Double = 0) {
        self.durationSeconds = durationSeconds
        self.pace = pace
        self.turnRateRadiansPerSecond = turnRateRadiansPerSecond
    }
}

/// Inertial data of an emulated walk together with its ground truth.
public struct GaitTrace: Sendable, Equatable {
    /// Accelerometer readings (body frame, m/s², gravity included), in time order.
    public var accelerometer: [AccelerometerSample]
    /// Gyroscope readings (body frame, rad/s), at the same times as `accelerometer`.
    public var gyroscope: [GyroscopeSample]
    /// Ground-truth step (heel-strike) times, seconds; each is a peak of vertical acceleration.
    public var trueStepTimes: [Double]
    /// Ground-truth length of each step, metres (walking speed × the step's interval).
    public var trueStepLengthsMetres: [Double]
    /// Ground-truth compass heading at each step, radians clockwise from north.
    public var trueStepHeadingsRadians: [Double]

    /// Number of ground-truth steps.
    public var trueStepCount: Int { trueStepTimes.count }
    /// Ground-truth walked distance, metres (sum of step lengths).
    public var trueDistanceMetres: Double { trueStepLengthsMetres.reduce(0, +) }
}

/// Walking-gait generator for a phone's accelerometer and gyroscope.
///
/// Method: a kinematic, harmonic model of the body's acceleration during walking (in the spirit of
/// Zijlstra & Hof, Gait & Posture 18(2):1–10, 2003, who relate trunk acceleration to step events). Step times
/// are a renewal process: each interval is `1 / cadence × (1 + cv · N(0,1))`, with the stride-interval
/// coefficient of variation cv ≈ 3 % of healthy adults (Hausdorff et al., J Appl Physiol 78:349, 1995). A step
/// phase φ(t) rises by 1 per step, linearly between heel strikes at integer φ. In the walker's frame
/// (forward F, left L, up U) the linear acceleration is, with per-step amplitude A (pace amplitude × a factor
/// drawn with 10 % spread, interpolated between steps) and a sin² fade-in/out over the first and last half step:
/// - up:      A · [cos 2πφ + 0.25 · cos(4πφ + 0.5)]   (peak at heel strike; a second harmonic),
/// - forward: 0.5 · A · sin 2πφ,
/// - left:    0.3 · A · sin πφ   (stride frequency: alternates between left and right steps).
/// These are scaled by `PhonePlacement.accelerationFactor`. The phone's pitch θ(t) = θ₀ + Θ · sin πφ
/// (placement-dependent), and the compass heading ψ(t) integrates each segment's turn rate. Readings are the
/// specific force a + g·U projected on the body axes (x = −L, y = cos θ F + sin θ U, z = −sin θ F + cos θ U)
/// and the angular velocity −ψ′U − θ′L on the same axes (θ′ by central differences), plus white noise and a
/// constant bias per axis (`InertialSensorNoise`).
///
/// Simplifications: no centripetal or tangential terms from the thigh's rotation in a pocket; consecutive
/// walking segments share one continuous step sequence, whose interval follows the pace at each step.
/// Complexity: O(n log s) for n samples and s steps.
public struct GaitModel: Sendable, Equatable {
    /// Where the phone is carried.
    public var placement: PhonePlacement
    /// Sensor noise model.
    public var noise: InertialSensorNoise
    /// Sample rate of both sensors, Hz (> 0).
    public var sampleRateHz: Double
    /// Coefficient of variation of step intervals (dimensionless, ≥ 0; default 0.03).
    public var stepIntervalVariation: Double
    /// Relative spread of per-step acceleration amplitude (dimensionless, ≥ 0; default 0.10).
    public var stepAmplitudeVariation: Double
    /// Compass heading at the start of the walk, radians clockwise from north.
    public var initialHeadingRadians: Double

    /// Creates a gait model; `sampleRateHz` in Hz, variations dimensionless, heading in radians.
    public init(
        placement: PhonePlacement = .hand,
        noise: InertialSensorNoise = .mpu6500,
        sampleRateHz: Double = 100,
        stepIntervalVariation: Double = 0.03,
        stepAmplitudeVariation: Double = 0.10,
        initialHeadingRadians: Double = 0
    ) {
        self.placement = placement
        self.noise = noise
        self.sampleRateHz = sampleRateHz
        self.stepIntervalVariation = stepIntervalVariation
        self.stepAmplitudeVariation = stepAmplitudeVariation
        self.initialHeadingRadians = initialHeadingRadians
    }

    /// Generates a walk of `durationSeconds` at one pace, starting at `startTime` (seconds).
    public func generate(
        startTime: Double,
        durationSeconds: Double,
        pace: WalkingPace,
        using rng: inout some RandomNumberGenerator
    ) throws(DeviceEmulationError) -> GaitTrace {
        try generate(
            startTime: startTime,
            segments: [WalkingSegment(durationSeconds: durationSeconds, pace: pace)],
            using: &rng
        )
    }

    /// Throws `.invalidParameter` for a non-positive rate or duration, a negative variation, or a time
    /// or turn rate that is not finite.
    func validate(startTime: Double, segments: [WalkingSegment]) throws(DeviceEmulationError) {
        try DeviceEmulationError.requirePositive(sampleRateHz, "sampleRateHz")
        try DeviceEmulationError.requireNonNegative(stepIntervalVariation, "stepIntervalVariation")
        try DeviceEmulationError.requireNonNegative(stepAmplitudeVariation, "stepAmplitudeVariation")
        guard startTime.isFinite else {
            throw .invalidParameter(name: "startTime", value: startTime, expected: "a finite time in seconds")
        }
        for segment in segments {
            try DeviceEmulationError.requirePositive(segment.durationSeconds, "segment durationSeconds")
            guard segment.turnRateRadiansPerSecond.isFinite else {
                throw .invalidParameter(
                    name: "turnRateRadiansPerSecond", value: segment.turnRateRadiansPerSecond,
                    expected: "a finite rate in rad/s")
            }
        }
    }

    /// Generates the inertial trace of `segments` walked one after another from `startTime` (seconds).
    ///
    /// Samples are taken at `startTime + k / sampleRateHz` for every k with the time before the end.
    /// Throws `.invalidParameter` for a non-positive rate or duration, or a negative variation.
    public func generate(
        startTime: Double,
        segments: [WalkingSegment],
        using rng: inout some RandomNumberGenerator
    ) throws(DeviceEmulationError) -> GaitTrace {
        try validate(startTime: startTime, segments: segments)
        let timeline = SegmentTimeline(startTime: startTime, segments: segments, initialHeading: initialHeadingRadians)
        let spans = makeSpans(timeline: timeline, using: &rng)

        var trace = GaitTrace(
            accelerometer: [], gyroscope: [], trueStepTimes: [], trueStepLengthsMetres: [], trueStepHeadingsRadians: [])
        for span in spans {
            for step in span.steps {
                trace.trueStepTimes.append(step.time)
                trace.trueStepLengthsMetres.append(step.lengthMetres)
                trace.trueStepHeadingsRadians.append(timeline.heading(at: step.time))
            }
        }

        let accelerometerBias = (0..<3).map { _ in
            Sampling.gaussian(mean: 0, standardDeviation: noise.accelerometerBiasStandardDeviation, &rng)
        }
        let gyroscopeBias = (0..<3).map { _ in
            Sampling.gaussian(mean: 0, standardDeviation: noise.gyroscopeBiasStandardDeviation, &rng)
        }
        let accelerometerSigma = noise.accelerometerSampleStandardDeviation(sampleRateHz: sampleRateHz)
        let gyroscopeSigma = noise.gyroscopeSampleStandardDeviation(sampleRateHz: sampleRateHz)

        let sampleCount = Int((timeline.totalDuration * sampleRateHz).rounded(.up))
        trace.accelerometer.reserveCapacity(sampleCount)
        trace.gyroscope.reserveCapacity(sampleCount)
        let derivativeStep = 1e-4
        for index in 0..<sampleCount {
            let time = startTime + Double(index) / sampleRateHz
            guard time < timeline.endTime else { break }
            let body = bodyState(at: time, spans: spans)
            let pitch = placement.basePitchRadians + body.envelope * placement.pitchSwingRadians * sin(.pi * body.phase)
            let pitchBefore = pitchAngle(at: time - derivativeStep, spans: spans)
            let pitchAfter = pitchAngle(at: time + derivativeStep, spans: spans)
            let pitchRate = (pitchAfter - pitchBefore) / (2 * derivativeStep)
            let turnRate = timeline.turnRate(at: time)

            let amplitude = body.envelope * body.amplitude * placement.accelerationFactor
            let twoPiPhase = 2 * Double.pi * body.phase
            let up = amplitude * (cos(twoPiPhase) + 0.25 * cos(2 * twoPiPhase + 0.5))
            let forward = amplitude * 0.5 * sin(twoPiPhase)
            let left = amplitude * 0.3 * sin(Double.pi * body.phase)
            let specificUp = up + standardGravity

            var ax = -left
            var ay = cos(pitch) * forward + sin(pitch) * specificUp
            var az = -sin(pitch) * forward + cos(pitch) * specificUp
            ax += accelerometerBias[0] + accelerometerSigma * Sampling.standardNormal(&rng)
            ay += accelerometerBias[1] + accelerometerSigma * Sampling.standardNormal(&rng)
            az += accelerometerBias[2] + accelerometerSigma * Sampling.standardNormal(&rng)

            var gx = pitchRate
            var gy = -sin(pitch) * turnRate
            var gz = -cos(pitch) * turnRate
            gx += gyroscopeBias[0] + gyroscopeSigma * Sampling.standardNormal(&rng)
            gy += gyroscopeBias[1] + gyroscopeSigma * Sampling.standardNormal(&rng)
            gz += gyroscopeBias[2] + gyroscopeSigma * Sampling.standardNormal(&rng)

            trace.accelerometer.append(AccelerometerSample(time: time, x: ax, y: ay, z: az))
            trace.gyroscope.append(GyroscopeSample(time: time, x: gx, y: gy, z: gz))
        }
        return trace
    }

    // MARK: - Step sequence

    /// One ground-truth step.
    struct Step: Equatable {
        var time: Double
        var amplitude: Double
        var lengthMetres: Double
    }

    /// A continuous stretch of walking: phase −0.5 at `start`, step k at phase k, phase n − 0.5 at `end`.
    struct Span {
        var start: Double
        var end: Double
        var steps: [Step]
    }

    /// Draws the step sequence of every maximal run of walking segments.
    private func makeSpans(timeline: SegmentTimeline, using rng: inout some RandomNumberGenerator) -> [Span] {
        var spans: [Span] = []
        for run in timeline.walkingRuns() {
            var steps: [Step] = []
            var interval = drawInterval(pace: timeline.pace(at: run.start), using: &rng)
            var cursor = run.start + interval / 2
            guard cursor + interval / 2 <= run.end else { continue }
            var lastInterval = interval
            while true {
                let pace = timeline.pace(at: cursor)
                let factor = max(0.5, 1 + stepAmplitudeVariation * Sampling.standardNormal(&rng))
                steps.append(
                    Step(
                        time: cursor,
                        amplitude: pace.verticalAmplitude * factor,
                        lengthMetres: pace.speedMetresPerSecond * lastInterval))
                interval = drawInterval(pace: pace, using: &rng)
                if cursor + 1.5 * interval <= run.end, pace != .standing {
                    cursor += interval
                    lastInterval = interval
                } else {
                    break
                }
            }
            spans.append(Span(start: run.start, end: cursor + lastInterval / 2, steps: steps))
        }
        return spans
    }

    /// One step interval at `pace`, seconds (never below half the mean).
    private func drawInterval(pace: WalkingPace, using rng: inout some RandomNumberGenerator) -> Double {
        let mean = pace.cadenceHz > 0 ? 1 / pace.cadenceHz : 1
        return mean * max(0.5, 1 + stepIntervalVariation * Sampling.standardNormal(&rng))
    }

    // MARK: - Body state at a time

    /// Step phase, fade envelope (0…1) and interpolated amplitude (m/s²) at `time`.
    struct BodyState {
        var phase: Double
        var envelope: Double
        var amplitude: Double
    }

    /// Evaluates the body state at `time` (zero envelope outside every span).
    func bodyState(at time: Double, spans: [Span]) -> BodyState {
        let still = BodyState(phase: 0, envelope: 0, amplitude: 0)
        guard let spanIndex = Self.lastIndex(in: spans, notAfter: time, key: \.start) else { return still }
        let span = spans[spanIndex]
        guard time <= span.end, let first = span.steps.first, let last = span.steps.last else { return still }
        if time < first.time {
            let fraction = (time - span.start) / (first.time - span.start)
            let envelope = pow(sin(.pi / 2 * fraction), 2)
            return BodyState(phase: -0.5 + 0.5 * fraction, envelope: envelope, amplitude: first.amplitude)
        }
        if time >= last.time {
            let fraction = span.end > last.time ? (time - last.time) / (span.end - last.time) : 1
            let envelope = pow(cos(.pi / 2 * fraction), 2)
            return BodyState(
                phase: Double(span.steps.count - 1) + 0.5 * fraction, envelope: envelope, amplitude: last.amplitude)
        }
        let k = Self.lastIndex(in: span.steps, notAfter: time, key: \.time) ?? 0
        let next = min(k + 1, span.steps.count - 1)
        let a = span.steps[k]
        let b = span.steps[next]
        let fraction = b.time > a.time ? (time - a.time) / (b.time - a.time) : 0
        return BodyState(
            phase: Double(k) + fraction, envelope: 1, amplitude: a.amplitude + (b.amplitude - a.amplitude) * fraction)
    }

    /// Phone pitch at `time`, radians.
    private func pitchAngle(at time: Double, spans: [Span]) -> Double {
        let body = bodyState(at: time, spans: spans)
        return placement.basePitchRadians + body.envelope * placement.pitchSwingRadians * sin(.pi * body.phase)
    }

    /// Index of the last element whose key is `<= value`, by binary search (elements sorted by key).
    static func lastIndex<T>(in elements: [T], notAfter value: Double, key: (T) -> Double) -> Int? {
        var low = 0
        var high = elements.count
        while low < high {
            let mid = (low + high) / 2
            if key(elements[mid]) <= value { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }
}

/// Segment boundaries, pace and heading as functions of time.
struct SegmentTimeline {
    var startTime: Double
    var segments: [WalkingSegment]
    var segmentStarts: [Double]
    var headingAtStart: [Double]
    var endTime: Double

    init(startTime: Double, segments: [WalkingSegment], initialHeading: Double) {
        self.startTime = startTime
        self.segments = segments
        var starts: [Double] = []
        var headings: [Double] = []
        var time = startTime
        var heading = initialHeading
        for segment in segments {
            starts.append(time)
            headings.append(heading)
            time += segment.durationSeconds
            heading += segment.turnRateRadiansPerSecond * segment.durationSeconds
        }
        segmentStarts = starts
        headingAtStart = headings
        endTime = time
    }

    /// Total duration, seconds.
    var totalDuration: Double { endTime - startTime }

    /// Index of the segment containing `time` (clamped to the first and last).
    func segmentIndex(at time: Double) -> Int? {
        guard !segments.isEmpty else { return nil }
        return GaitModel.lastIndex(in: segmentStarts, notAfter: time, key: { $0 }) ?? 0
    }

    /// Pace at `time`.
    func pace(at time: Double) -> WalkingPace {
        segmentIndex(at: time).map { segments[$0].pace } ?? .standing
    }

    /// Heading rate at `time`, rad/s clockwise.
    func turnRate(at time: Double) -> Double {
        guard time >= startTime, time < endTime, let index = segmentIndex(at: time) else { return 0 }
        return segments[index].turnRateRadiansPerSecond
    }

    /// Compass heading at `time`, radians clockwise from north.
    func heading(at time: Double) -> Double {
        guard let index = segmentIndex(at: time) else { return 0 }
        let elapsed = min(max(time - segmentStarts[index], 0), segments[index].durationSeconds)
        return headingAtStart[index] + segments[index].turnRateRadiansPerSecond * elapsed
    }

    /// Maximal runs of consecutive walking (non-standing) segments, as (start, end) seconds.
    func walkingRuns() -> [(start: Double, end: Double)] {
        var runs: [(start: Double, end: Double)] = []
        var current: (start: Double, end: Double)?
        for (index, segment) in segments.enumerated() {
            let start = segmentStarts[index]
            let end = start + segment.durationSeconds
            if segment.pace == .standing {
                if let run = current { runs.append(run) }
                current = nil
            } else if let run = current {
                current = (run.start, end)
            } else {
                current = (start, end)
            }
        }
        if let run = current { runs.append(run) }
        return runs
    }
}
