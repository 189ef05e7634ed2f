import FieldtestData
import FieldtestGSL
import Foundation
import Testing

@testable import DeviceEmulation

@Suite("Gait model")
struct GaitModelTests {
    /// Number of upward crossings of the mean, with hysteresis `band` (m/s²) against noise.
    static func upwardCrossings(_ values: [Double], band: Double) -> Int {
        let m = Stats.mean(values)
        var armed = false
        var count = 0
        for value in values {
            if value < m - band { armed = true }
            if armed, value > m + band {
                count += 1
                armed = false
            }
        }
        return count
    }

    @Test(
        "cadence is recovered from zero crossings of the acceleration magnitude",
        arguments: [
            (WalkingPace.slow, PhonePlacement.hand),
            (WalkingPace.normal, PhonePlacement.hand),
            (WalkingPace.fast, PhonePlacement.hand),
            (WalkingPace.normal, PhonePlacement.pocket),
        ])
    func cadenceRecovered(pace: WalkingPace, placement: PhonePlacement) throws {
        let rng = RandomStream(seed: 42)
        var generator = rng
        let model = GaitModel(placement: placement)
        let duration = 120.0
        let trace = try model.generate(
            startTime: 1_700_000_000, durationSeconds: duration, pace: pace, using: &generator)
        let magnitude = trace.accelerometer.map(\.magnitude)
        let crossings = Self.upwardCrossings(magnitude, band: 0.3)
        let measuredCadence = Double(crossings) / duration
        // One upward crossing per step; tolerance 3 % covers the half-step fade at either end.
        #expect(abs(measuredCadence - pace.cadenceHz) / pace.cadenceHz < 0.03)
        // Ground truth agrees with the nominal cadence within the same 3 %.
        let trueCadence = Double(trace.trueStepCount) / duration
        #expect(abs(trueCadence - pace.cadenceHz) / pace.cadenceHz < 0.03)
        #expect(abs(Double(crossings - trace.trueStepCount)) <= 1)
    }

    @Test("each true step time is a local peak of the acceleration magnitude")
    func stepTimesArePeaks() throws {
        var rng = RandomStream(seed: 7)
        let trace = try GaitModel(placement: .hand).generate(
            startTime: 0, durationSeconds: 30, pace: .normal, using: &rng)
        let magnitude = trace.accelerometer.map(\.magnitude)
        var offsets: [Double] = []
        for step in trace.trueStepTimes {
            // Largest magnitude within ±0.2 s (about a third of a step) of the true step.
            let window = trace.accelerometer.indices.filter { abs(trace.accelerometer[$0].time - step) <= 0.2 }
            guard let best = window.max(by: { magnitude[$0] < magnitude[$1] }) else {
                Issue.record("no samples near step at \(step)")
                continue
            }
            offsets.append(abs(trace.accelerometer[best].time - step))
        }
        // The second harmonic shifts the peak a little; the median offset stays within 3 samples (30 ms).
        #expect(Stats.quantile(offsets, 0.5) <= 0.03 + 1e-9)
    }

    @Test("same seed gives identical samples; a different seed does not")
    func determinism() throws {
        let model = GaitModel(placement: .pocket)
        var a = RandomStream(seed: 99)
        var b = RandomStream(seed: 99)
        var c = RandomStream(seed: 100)
        let first = try model.generate(startTime: 10, durationSeconds: 20, pace: .fast, using: &a)
        let second = try model.generate(startTime: 10, durationSeconds: 20, pace: .fast, using: &b)
        let third = try model.generate(startTime: 10, durationSeconds: 20, pace: .fast, using: &c)
        #expect(first == second)
        #expect(first != third)
        #expect(first.accelerometer.count == 2000)
        #expect(abs(first.accelerometer[1].time - first.accelerometer[0].time - 0.01) < 1e-9)
    }

    @Test("standing: no steps, gravity magnitude and the datasheet noise level")
    func standing() throws {
        var rng = SeededGenerator(seed: 3)
        let model = GaitModel(placement: .hand, noise: .mpu6500)
        let trace = try model.generate(startTime: 0, durationSeconds: 60, pace: .standing, using: &rng)
        #expect(trace.trueStepCount == 0)
        let magnitude = trace.accelerometer.map(\.magnitude)
        // Bias σ 0.05 m/s² per axis: the mean magnitude stays within 0.2 m/s² of g.
        #expect(abs(Stats.mean(magnitude) - standardGravity) < 0.2)
        // Per-axis white noise at 100 Hz is 300 µg/√Hz × √50 ≈ 0.0208 m/s²; recovered within 5 %.
        let expected = InertialSensorNoise.mpu6500.accelerometerSampleStandardDeviation(sampleRateHz: 100)
        #expect(abs(expected - 0.0208) < 0.0005)
        #expect(abs(Stats.standardDeviation(trace.accelerometer.map(\.x)) - expected) / expected < 0.05)
        // Hand pitch 30°: gravity splits between y (g sin 30°) and z (g cos 30°), bias aside.
        #expect(abs(Stats.mean(trace.accelerometer.map(\.y)) - standardGravity * 0.5) < 0.2)
        #expect(abs(Stats.mean(trace.accelerometer.map(\.z)) - standardGravity * 0.866) < 0.2)
    }

    @Test("pocket placement swings the phone far more than the hand")
    func pocketSwing() throws {
        var rng = SeededGenerator(seed: 5)
        let hand = try GaitModel(placement: .hand).generate(
            startTime: 0, durationSeconds: 30, pace: .normal, using: &rng)
        let pocket = try GaitModel(placement: .pocket).generate(
            startTime: 0, durationSeconds: 30, pace: .normal, using: &rng)
        let handRate = Stats.standardDeviation(hand.gyroscope.map(\.x))
        let pocketRate = Stats.standardDeviation(pocket.gyroscope.map(\.x))
        // Pitch rate amplitude Θ·π·cadence/… : 20° vs 3° swing → ratio ≈ 6.7; require > 4.
        #expect(pocketRate / handRate > 4)
        // Pocket swing ±20° at 0.9 Hz stride: RMS rate ≈ 0.349 · π · 1.8 / √2 ≈ 1.40 rad/s (±20 %).
        #expect(abs(pocketRate - 1.40) / 1.40 < 0.2)
    }

    @Test("a steady turn appears on the gyroscope and in the step headings")
    func turning() throws {
        var rng = SeededGenerator(seed: 11)
        let model = GaitModel(placement: .hand, noise: .none)
        let rate = 0.2  // rad/s clockwise
        let trace = try model.generate(
            startTime: 0,
            segments: [WalkingSegment(durationSeconds: 20, pace: .normal, turnRateRadiansPerSecond: rate)],
            using: &rng)
        // Body z axis at 30° pitch sees −cos 30° of the clockwise yaw rate; the ±3° pitch swing changes the
        // mean of cos θ by about sin 30° · … ≲ 0.1 %, hence the 5e-4 rad/s tolerance.
        let meanZ = Stats.mean(trace.gyroscope.map(\.z))
        #expect(abs(meanZ - (-cos(Double.pi / 6) * rate)) < 5e-4)
        for (time, heading) in zip(trace.trueStepTimes, trace.trueStepHeadingsRadians) {
            #expect(abs(heading - rate * time) < 1e-9)
        }
        // Distance ≈ speed × walking time (minus the half steps at either end): 1.3 m/s × 20 s within 5 %.
        #expect(abs(trace.trueDistanceMetres - 26) / 26 < 0.05)
    }

    @Test("a pause between walks produces no steps during the pause")
    func pause() throws {
        var rng = SeededGenerator(seed: 13)
        let trace = try GaitModel().generate(
            startTime: 100,
            segments: [
                WalkingSegment(durationSeconds: 10, pace: .normal),
                WalkingSegment(durationSeconds: 10, pace: .standing),
                WalkingSegment(durationSeconds: 10, pace: .slow),
            ],
            using: &rng)
        #expect(!trace.trueStepTimes.contains { $0 > 110 && $0 < 120 })
        let firstWalk = trace.trueStepTimes.filter { $0 < 110 }.count
        let secondWalk = trace.trueStepTimes.filter { $0 >= 120 }.count
        #expect(abs(Double(firstWalk) - 18) <= 1.5)
        #expect(abs(Double(secondWalk) - 15) <= 1.5)
        let pauseSamples = trace.accelerometer.filter { $0.time > 111 && $0.time < 119 }.map(\.magnitude)
        #expect(Stats.standardDeviation(pauseSamples) < 0.05)
    }

    @Test("invalid parameters are rejected with a clear message")
    func invalidParameters() throws {
        var rng = SeededGenerator(seed: 1)
        #expect(
            throws: DeviceEmulationError.invalidParameter(
                name: "sampleRateHz", value: 0, expected: "a finite number > 0")
        ) {
            try GaitModel(sampleRateHz: 0).generate(startTime: 0, durationSeconds: 1, pace: .normal, using: &rng)
        }
        #expect(
            throws: DeviceEmulationError.invalidParameter(
                name: "segment durationSeconds", value: -1, expected: "a finite number > 0")
        ) {
            try GaitModel().generate(startTime: 0, durationSeconds: -1, pace: .normal, using: &rng)
        }
        let message = DeviceEmulationError.invalidParameter(
            name: "sampleRateHz", value: 0, expected: "a finite number > 0"
        ).description
        #expect(
            message == "invalid sampleRateHz 0.0: expected a finite number > 0; correct the device profile or call site"
        )
    }
}
