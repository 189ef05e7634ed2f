import Foundation
import Testing

/// The in-process examples the DocC articles show (`Sources/Examples`, built with the package as
/// `FieldtestExamples`): each is run as a reader would, from the checkout, and what it prints is checked.
@Suite("in-process examples")
struct ExamplesCLITests {
    let cli = FieldtestCLITests()

    /// Runs the example `name`.
    func example(_ name: String) throws -> FieldtestCLITests.Result {
        let binary = FieldtestCLITests.executable.deletingLastPathComponent().appendingPathComponent(
            "FieldtestExamples")
        return try cli.run([name], executable: binary)
    }

    @Test func routeOnCampusTakesTheStepsOnFootAndGoesRoundInAWheelchair() throws {
        let r = try example("RouteOnCampus")
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let walk = try #require(lines.first { $0.first == "walk" })
        let wheelchair = try #require(lines.first { $0.first == "wheelchair" })
        #expect(walk[1] == "ok" && wheelchair[1] == "ok", "\(r.stdout)")
        // The steps are the 89 m diagonal of the square; round it is 3 sides, about 262 m.
        #expect(Int(walk[2]).map { (85...95).contains($0) } == true, "\(r.stdout)")
        #expect(Int(wheelchair[2]).map { (255...270).contains($0) } == true, "\(r.stdout)")
    }

    @Test func sunTimesKnowPolarDayAndNight() throws {
        let r = try example("SunTimes")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("2024-03-20 sunrise 2024-03-20T04:4"), "\(r.stdout)")
        #expect(r.stdout.contains("polar_day") && r.stdout.contains("polar_night"), "\(r.stdout)")
    }

    @Test func classifyTweetsLoadsTheShippedModel() throws {
        let r = try example("ClassifyTweets")
        #expect(r.status == 0, "\(r.stderr)")
        let labels = r.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(labels.count == 3 && labels.allSatisfy { ["negative", "neutral", "positive"].contains($0) })
        #expect(labels.first == "positive", "\(r.stdout)")
    }

    @Test func runScenarioRunsTheEngineInProcess() throws {
        let r = try example("RunScenario")
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.first?.hasSuffix(" datasets") == true, "\(r.stdout)")
        #expect(r.stdout.contains("SKY-P2 sun_event_abs_error_max"), "\(r.stdout)")
        #expect(lines.contains("every requirement met"), "\(r.stdout)")
        #expect(lines.last?.hasPrefix("report: ") == true, "\(r.stdout)")
    }

    @Test func evaluateSunTimesScoresTheBuiltInSystemAgainstTheReference() throws {
        let r = try example("EvaluateSunTimes")
        #expect(r.status == 0, "\(r.stderr)")
        for line in r.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ")
            // Within seconds of the SPA, never a minute off.
            #expect(parts.count == 7 && Double(parts[2]).map { $0 < 10 } == true, "\(line)")
        }
        #expect(r.stdout.contains("sunrise error_max_s") && r.stdout.contains("over 2 places"), "\(r.stdout)")
    }
}
