import DeviceEmulation
import FieldtestData
import Foundation
import Testing

@testable import Positioning

@Suite("Step detection")
struct StepDetectorTests {
    static func count(_ trace: GaitTrace, _ detector: StepDetector = StepDetector()) throws -> Int {
        let a = trace.accelerometer
        return try detector.detect(timesSeconds: a.map(\.time), x: a.map(\.x), y: a.map(\.y), z: a.map(\.z)).count
    }

    static let cases: [(WalkingPace, PhonePlacement)] = [
        (.slow, .hand), (.normal, .hand), (.fast, .hand), (.slow, .pocket), (.normal, .pocket), (.fast, .pocket),
    ]

    @Test("≤ 3 % count error across slow/normal/fast walking, phone in hand or pocket", arguments: cases)
    func gait(pace: WalkingPace, placement: PhonePlacement) throws {
        var total = 0
        var truth = 0
        for seed in 1...3 as ClosedRange<UInt64> {
            var rng = SeededGenerator(seed: seed * 100 + UInt64(pace.cadenceHz * 10))
            let trace = try GaitModel(placement: placement).generate(
                startTime: 0, durationSeconds: 60, pace: pace, using: &rng)
            total += try Self.count(trace)
            truth += trace.trueStepCount
        }
        #expect(truth > 150)
        let error = abs(Double(total - truth)) / Double(truth)
        #expect(error <= 0.03, "pace \(pace) \(placement): \(total) detected vs \(truth) true")
    }

    @Test("a mixed walk with standing pauses counts no steps while standing")
    func mixed() throws {
        var rng = SeededGenerator(seed: 99)
        let segments = [
            WalkingSegment(durationSeconds: 20, pace: .standing), WalkingSegment(durationSeconds: 30, pace: .normal),
            WalkingSegment(durationSeconds: 15, pace: .standing), WalkingSegment(durationSeconds: 30, pace: .fast),
            WalkingSegment(durationSeconds: 30, pace: .slow),
        ]
        let trace = try GaitModel(placement: .pocket).generate(startTime: 0, segments: segments, using: &rng)
        let a = trace.accelerometer
        let steps = try StepDetector().detect(timesSeconds: a.map(\.time), x: a.map(\.x), y: a.map(\.y), z: a.map(\.z))
        let error = abs(Double(steps.count - trace.trueStepCount)) / Double(trace.trueStepCount)
        #expect(error <= 0.03, "\(steps.count) detected vs \(trace.trueStepCount) true")
        // Standing phases: at most a step of filter settling at their edges.
        #expect(steps.filter { $0 < 19 }.isEmpty)
        #expect(steps.filter { $0 > 51.5 && $0 < 64 }.count <= 1)
    }

    @Test("pure noise (standing still) gives no steps")
    func standing() throws {
        var rng = SeededGenerator(seed: 5)
        let trace = try GaitModel(placement: .hand).generate(
            startTime: 0, durationSeconds: 30, pace: .standing, using: &rng)
        #expect(try Self.count(trace) == 0)
    }

    @Test("bad sample series are refused")
    func errors() {
        #expect(throws: PositioningError.self) {
            try StepDetector().detect(
                timesSeconds: [0, 1, 2, 3], x: [0, 0, 0, 0], y: [0, 0, 0, 0], z: [9.8, 9.8, 9.8, 9.8])
        }
        #expect(
            throws: PositioningError.invalidParameter(
                name: "samples", reason: "need equally many times and x/y/z values")
        ) {
            try StepDetector().detect(timesSeconds: [0, 0.01], x: [0], y: [0, 0], z: [0, 0])
        }
    }

    @Test("Butterworth sections: unity gain in the pass band, −3 dB at the cutoff")
    func biquad() {
        func gain(_ f: Biquad, _ hz: Double) -> Double {
            var f = f
            var peak = 0.0
            for i in 0..<4000 {
                let y = f.process(sin(2 * Double.pi * hz * Double(i) / 100))
                if i > 2000 { peak = max(peak, abs(y)) }
            }
            return peak
        }
        // Sampled peaks of a 100 Hz sine are within 0.5 % of the true amplitude; tolerance 0.02.
        #expect(abs(gain(.lowPass(cutoffHz: 3, sampleRateHz: 100), 0.5) - 1) < 0.02)
        #expect(abs(gain(.lowPass(cutoffHz: 3, sampleRateHz: 100), 3) - 0.5.squareRoot()) < 0.02)
        #expect(abs(gain(.highPass(cutoffHz: 0.5, sampleRateHz: 100), 0.5) - 0.5.squareRoot()) < 0.02)
        #expect(gain(.lowPass(cutoffHz: 3, sampleRateHz: 100), 20) < 0.05)
    }
}
