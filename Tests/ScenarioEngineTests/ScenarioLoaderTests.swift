import Testing

@testable import ScenarioEngine

/// A valid scenario used as the starting point of the error cases.
let validScenario = """
    version: 1
    name: demo
    app: skyscape
    seed: 7
    time:
      start: 2018-06-01T00:00:00Z
      duration: 2h
      timezone: Asia/Singapore
    datasets: [noaa-lcd-rota-2018]
    devices:
      - name: phone
        gps: urban
        network: 3g
        connectivity:
          - {at: 30m, state: offline}
          - {at: 1h, state: online}
    actors:
      - name: alice
        device: phone
        actions:
          - {at: 5m, do: search, query: Singapore}
          - {at: 10m, every: 10m, count: 3, do: view-details, place: Singapore}
    feeds:
      - {kind: weather-refresh, every: 5m, dataset: noaa-lcd-rota-2018}
    requirements:
      - SKY-P1
      - {id: SKY-P2, threshold: 120}
    """

@Suite("Scenario loading")
struct ScenarioLoaderTests {
    let loader = ScenarioLoader(datasetNames: ["noaa-lcd-rota-2018", "us-cities"])

    func errors(_ text: String) -> [String] { loader.messages(text) }

    @Test func parsesValidScenario() throws {
        let s = try loader.parse(validScenario, file: "x.yaml")
        #expect(s.name == "demo")
        #expect(s.seed == 7)
        #expect(s.duration == 7200)
        #expect(s.start == 1_527_811_200)
        #expect(s.devices.first?.network == "3g")
        #expect(s.devices.first?.connectivity.map(\.at) == [1800, 3600])
        #expect(s.actors.first?.actions.count == 2)
        #expect(s.actors.first?.actions[1].offsets(duration: s.duration) == [600, 1200, 1800])
        #expect(s.requirements == [RequirementSpec(id: "SKY-P1"), RequirementSpec(id: "SKY-P2", threshold: 120)])
        #expect(s.feeds.first?.every == 300)
    }

    @Test func duplicateActorNamesAreRefused() {
        let text = validScenario.replacingOccurrences(
            of: "\nfeeds:\n", with: "\n  - name: alice\n    device: phone\n    actions: []\nfeeds:\n")
        #expect(text != validScenario)
        let messages = errors(text)
        #expect(
            messages.contains { $0.contains("actor name 'alice' is used twice") && $0.hasPrefix("x.yaml:") },
            "\(messages)")
    }

    @Test func unknownKeySuggestsTheClosest() {
        let text = validScenario.replacingOccurrences(of: "    gps: urban", with: "    gsp: urban")
        #expect(errors(text) == ["x.yaml:12:5: error: unknown key 'devices[0].gsp' (did you mean 'gps'?)"])
    }

    @Test func wrongTypeIsLocated() {
        let text = validScenario.replacingOccurrences(of: "seed: 7", with: "seed: seven")
        #expect(
            errors(text) == [
                "x.yaml:4:7: error: 'seed': expected an integer from 0 to 18446744073709551615, found a string 'seven'"
            ])
    }

    @Test func versionIsCheckedFirst() {
        let text = validScenario.replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "seed: 7", with: "seed: seven")
        #expect(errors(text) == ["x.yaml:1:10: error: unsupported scenario version '2'; this build reads version 1"])
        let missing = validScenario.replacingOccurrences(of: "version: 1\n", with: "")
        #expect(
            errors(missing) == ["x.yaml:1:1: error: missing required key 'version'; add 'version: 1' (supported: 1)"])
    }

    @Test func unknownRequirementAndForeignRequirement() {
        let text = validScenario.replacingOccurrences(of: "  - SKY-P1\n", with: "  - SKY-P9\n  - NAV-F4\n")
        #expect(
            errors(text) == [
                "x.yaml:26:5: error: unknown requirement 'SKY-P9' (did you mean 'SKY-P1'?); 'fieldtest requirements' lists them",
                "x.yaml:27:5: error: requirement 'NAV-F4' is not measured by app 'skyscape'; it measures SKY-P1, SKY-P2, SKY-P3, SKY-R1, SKY-D1, SKY-D2, SKY-Q1, SKY-S1, SKY-F1, SKY-C1, SKY-M1, SKY-A1, SKY-A2, SKY-SEC, SKY-X1",
            ])
    }

    @Test func unknownDatasetAndUnlistedDataset() {
        let text = validScenario.replacingOccurrences(
            of: "datasets: [noaa-lcd-rota-2018]", with: "datasets: [noaa-lcd-rota-2017]")
        #expect(
            errors(text) == [
                "x.yaml:9:12: error: unknown dataset 'noaa-lcd-rota-2017' (did you mean 'noaa-lcd-rota-2018'?); run 'fieldtest datasets list' to see the names",
                "x.yaml:24:49: error: dataset 'noaa-lcd-rota-2018' is not listed under 'datasets:'; add it there",
            ])
    }

    @Test func unknownActionAndDevice() {
        let text = validScenario.replacingOccurrences(of: "do: search,", with: "do: serch,")
        // Schema errors are reported before semantic ones.
        #expect(
            errors(text) == [
                "x.yaml:21:22: error: 'actors[0].actions[0].do': unknown value 'serch' (did you mean 'search'?); expected one of search, add-favourite, remove-favourites, sort-favourites, view-details, open-calendar, set-reminder, register, login, move"
            ])
    }

    @Test func unknownDeviceIsNamed() {
        let text = validScenario.replacingOccurrences(of: "    device: phone", with: "    device: phnoe")
        #expect(
            errors(text) == [
                "x.yaml:19:13: error: unknown device 'phnoe' (did you mean 'phone'?); declare it under 'devices:'"
            ])
    }

    @Test func badEnumDurationAndTimeZone() {
        let text = validScenario.replacingOccurrences(of: "network: 3g", with: "network: 5g")
            .replacingOccurrences(of: "duration: 2h", with: "duration: two hours")
            .replacingOccurrences(of: "Asia/Singapore", with: "Asia/Singapur")
        #expect(
            errors(text) == [
                "x.yaml:7:13: error: 'time.duration': expected a duration (e.g. 90s, 5m, 2h, 1d), found a string 'two hours'",
                "x.yaml:13:14: error: 'devices[0].network': '5g' is not allowed; expected one of 'wifi', 'lte', '3g', 'edge', 'very-bad-network', '100%-loss' (did you mean '3g'?)",
            ])
        let tz = validScenario.replacingOccurrences(of: "Asia/Singapore", with: "Asia/Singapur")
        #expect(
            errors(tz) == [
                "x.yaml:8:13: error: 'time.timezone': 'Asia/Singapur' is not an IANA time zone; use an IANA name such as 'Asia/Singapore', 'America/New_York' or 'UTC' (not abbreviations or offsets such as EST or GMT+5)"
            ])
    }

    @Test func missingRequiredKeyAndInvalidYAML() {
        let text = validScenario.replacingOccurrences(of: "name: demo\n", with: "")
        #expect(
            errors(text) == [
                "x.yaml:1:1: error: missing required key 'name' (scenario name, used as a folder name in report paths: letters, digits, '.', '_', '-'; at most 100 characters)"
            ])
        let broken = "version: 1\nname: [unclosed\n"
        let e = errors(broken)
        #expect(e.count == 1)
        #expect(e.first?.hasPrefix("x.yaml:3:1: error: invalid YAML:") == true)
        // The message also says where the unclosed bracket opened, not only where parsing gave up.
        #expect(e.first?.contains("line 2, column 7") == true, "\(e)")
    }

    @Test("YAML aliases are refused where they are used, before anything expands them")
    func aliasesAreRefused() {
        let anchored = validScenario.replacingOccurrences(
            of: "      - {at: 5m, do: search, query: Singapore}",
            with: "      - &first {at: 5m, do: search, query: Singapore}\n      - *first")
        #expect(anchored != validScenario)
        let messages = errors(anchored)
        #expect(messages.count == 1, "\(messages)")
        #expect(messages.first?.hasPrefix("x.yaml:20:") == true, "\(messages)")
        #expect(messages.first?.contains("repeats the anchored value at line 21") == true, "\(messages)")
        let scalar = validScenario.replacingOccurrences(of: "name: demo", with: "name: &n demo\nlabel: *n")
        #expect(errors(scalar).contains { $0.contains("aliases are not supported") }, "\(errors(scalar))")
        // A document that would expand enormously is refused at once.
        var bomb = "version: 1\nname: bomb\napp: skyscape\nx: &a [" + String(repeating: "v,", count: 1000) + "v]\n"
        bomb += "y: [" + Array(repeating: "*a", count: 2000).joined(separator: ",") + "]\n"
        #expect(errors(bomb).contains { $0.contains("aliases are not supported") })
    }

    @Test func pathsOutsideDatasetsAreRejected() {
        var v = SchemaValidator(file: "p.yaml")
        let node = try? Yams_compose("../etc/passwd")
        if let node { _ = v.validate(node, as: .path, path: "graph") }
        #expect(
            v.diagnostics.map(\.description) == [
                "p.yaml:1:1: error: 'graph': '../etc/passwd' is outside Datasets/; give a path relative to the Datasets folder without '..'"
            ])
    }

    @Test func durations() {
        #expect(DurationText.seconds("90s") == 90)
        #expect(DurationText.seconds("1h30m") == 5400)
        #expect(DurationText.seconds("80") == 80)
        #expect(DurationText.seconds("250ms") == 0.25)
        #expect(DurationText.seconds("2d") == 172_800)
        #expect(DurationText.seconds("5 minutes") == nil)
        #expect(DurationText.seconds("-5s") == nil)
        #expect(DurationText.seconds("h") == nil)
    }
}

extension ScenarioLoader {
    /// The diagnostics of parsing `text` as `x.yaml`, as printed (none when it is valid).
    func messages(_ text: String) -> [String] {
        do {
            _ = try parse(text, file: "x.yaml")
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }
}
