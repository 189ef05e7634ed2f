import ScenarioEngine
import Testing

@Suite("Scenario timestamps are parsed strictly (ISO 8601 with zone, days that exist)")
struct TimestampTextTests {
    @Test(
        "instants that exist, with their UTC seconds",
        arguments: [
            ("2018-06-01T00:00:00Z", 1_527_811_200.0),
            ("2020-02-29T12:00:00Z", 1_582_977_600.0),
            ("2018-06-01T02:00:00+02:00", 1_527_811_200.0),
            ("2018-05-31T19:30:00-04:30", 1_527_811_200.0),
            ("2018-06-01T00:00:00.25Z", 1_527_811_200.25),
            ("1969-12-31T23:59:59Z", -1.0),
        ])
    func parses(text: String, seconds: Double) {
        // Exact: every value here is a whole number of seconds or a short binary fraction.
        #expect(TimestampText.seconds(text) == seconds)
    }

    @Test(
        "impossible days, times, offsets and shapes are refused",
        arguments: [
            "2021-02-30T05:00:00Z", "2023-02-29T00:00:00Z", "2021-04-31T00:00:00Z", "2021-13-01T00:00:00Z",
            "2021-00-10T00:00:00Z", "2021-01-00T00:00:00Z", "2021-01-01T24:00:00Z", "2021-01-01T10:60:00Z",
            "2021-01-01T10:00:60Z", "2021-01-01T10:00:00+24:00", "2021-01-01T10:00:00", "2021-01-01 10:00:00Z",
            "2021-01-01T10:00:00.Z", "2021-01-01T10:00:00Zjunk", "21-01-01T10:00:00Z", "",
        ])
    func refuses(text: String) {
        #expect(TimestampText.seconds(text) == nil)
    }

    @Test("a scenario starting on an impossible day is a located error")
    func scenarioWithImpossibleStart() throws {
        let text = validScenario.replacingOccurrences(of: "2018-06-01T00:00:00Z", with: "2021-02-30T05:00:00Z")
        #expect(text != validScenario)
        do {
            _ = try ScenarioLoader(datasetNames: nil).parse(text, file: "x.yaml")
            Issue.record("an impossible start date was accepted")
        } catch {
            #expect(String(describing: error).contains("x.yaml:"))
            #expect(String(describing: error).contains("time.start"))
        }
    }
}
