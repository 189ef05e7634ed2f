import FieldtestData
import Foundation
import Testing

@testable import ScenarioEngine

/// A small miCity scenario (lines numbered for the located messages below).
let miCityScenario = """
    version: 1
    name: mood
    app: micity
    seed: 77
    time:
      start: 2023-02-14T08:00:00-06:00
      duration: 2h
      timezone: America/Chicago
    datasets: [airline-tweets, noaa-lcd-lincoln-2023]
    parameters:
      rate_limit: 6
    devices:
      - name: phone
        gps: urban
    actors:
      - name: sam
        device: phone
        actions:
          - {at: 80s, every: 80s, do: view-mood}
    feeds:
      - {kind: tweet-batch, every: 80s, dataset: airline-tweets}
      - {kind: weather-refresh, every: 10m, dataset: noaa-lcd-lincoln-2023}
    requirements:
      - MIC-12

    """

/// A small NavUP scenario.
let navUPScenario = """
    version: 1
    name: walk
    app: navup
    seed: 5
    time:
      start: 2026-04-14T15:00:00Z
      duration: 1h
      timezone: America/Guayaquil
    datasets: [campus-quito, campus-montgomery, ujiindoorloc-train-a, ujiindoorloc-train-b]
    parameters:
      campus: campus-quito
    devices:
      - name: phone
    actors:
      - name: ana
        device: phone
        actions:
          - {at: 1m, do: random-routes, routes: 5}
    requirements:
      - NAV-F15

    """

@Suite("Scenario validation")
struct ScenarioValidationTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let loader: ScenarioLoader = {
        let manifest = try? DatasetManifest(root: ScenarioValidationTests.repo.appendingPathComponent("Datasets"))
        return ScenarioLoader(manifest: manifest!)
    }()

    func errors(_ text: String) -> [String] { loader.messages(text) }

    // MARK: sweep values

    @Test func sweepDurationsAreConvertedToSeconds() throws {
        let s = try loader.parse(
            miCityScenario + "sweep:\n  parameters:\n    rate_window: [1m, 15m, 1h]\n", file: "x.yaml")
        let cases = ScenarioRunner.cases(of: s)
        #expect(cases.map { $0.scenario.parameters["rate_window"]?.double } == [60, 900, 3600])
        #expect(cases.map(\.label) == ["mood[rate_window=1m]", "mood[rate_window=15m]", "mood[rate_window=1h]"])
    }

    @Test func sweepValuesAreTypeAndRangeChecked() {
        #expect(
            errors(miCityScenario + "sweep:\n  parameters:\n    rate_limit: [1e300]\n") == [
                "x.yaml:27:18: error: 'sweep.parameters.rate_limit[0]': expected an integer, found a number '1e300'"
            ])
        #expect(
            errors(miCityScenario + "sweep:\n  parameters:\n    rate_limit: [0, -5, 1, 4]\n") == [
                "x.yaml:27:18: error: 'sweep.parameters.rate_limit[0]': 0 is below the minimum 2",
                "x.yaml:27:21: error: 'sweep.parameters.rate_limit[1]': -5 is below the minimum 2",
                "x.yaml:27:25: error: 'sweep.parameters.rate_limit[2]': 1 is below the minimum 2",
            ])
        #expect(
            errors(miCityScenario + "sweep:\n  parameters:\n    devices.phone.gps: [moon]\n") == [
                "x.yaml:27:25: error: 'sweep.parameters.devices.phone.gps[0]': 'moon' is not allowed; expected one of 'open-sky', 'urban', 'indoor'"
            ])
        #expect(
            errors(miCityScenario + "sweep:\n  parameters:\n    mood_window: [1h, soon]\n") == [
                "x.yaml:27:23: error: 'sweep.parameters.mood_window[1]': expected a duration (e.g. 90s, 5m, 2h, 1d), found a string 'soon'"
            ])
    }

    @Test func sweepValuesMustBeDistinct() {
        #expect(
            errors(miCityScenario + "sweep:\n  parameters:\n    devices.phone.gps: [urban, indoor, urban]\n") == [
                "x.yaml:27:40: error: 'sweep.parameters.devices.phone.gps[2]': 'urban' repeats item 0 ('urban'); each value of a sweep parameter must be different"
            ])
        // Equal after conversion: 60 s twice.
        #expect(
            errors(miCityScenario + "sweep:\n  parameters:\n    rate_window: [1m, 60s]\n") == [
                "x.yaml:27:23: error: 'sweep.parameters.rate_window[1]': '60s' repeats item 0 ('1m'); each value of a sweep parameter must be different"
            ])
        #expect(
            errors(miCityScenario + "sweep:\n  seeds: [1, 2, 1]\n") == [
                "x.yaml:26:17: error: 'sweep.seeds[2]': seed 1 is listed twice; each seed must be different"
            ])
    }

    @Test func sweptDatasetsAreCheckedAgainstTheManifest() throws {
        #expect(
            errors(navUPScenario + "sweep:\n  parameters:\n    campus: [campus-nowhere]\n") == [
                "x.yaml:23:14: error: unknown dataset 'campus-nowhere'; run 'fieldtest datasets list' to see the names"
            ])
        #expect(
            errors(navUPScenario + "sweep:\n  parameters:\n    campus: [us-cities]\n") == [
                "x.yaml:23:14: error: 'sweep.parameters.campus[0]': dataset 'us-cities' is us-cities data; this field reads osm-xml or osm-pbf data such as campus-montgomery, campus-quito, city-helsinki"
            ])
        let s = try loader.parse(
            navUPScenario + "sweep:\n  parameters:\n    campus: [campus-quito, campus-montgomery]\n", file: "x.yaml")
        #expect(
            ScenarioRunner.cases(of: s).map { $0.scenario.parameters["campus"]?.string } == [
                "campus-quito", "campus-montgomery",
            ])
    }

    // MARK: dataset kinds

    @Test func datasetParametersMustNameKnownDatasetsOfTheRightKind() {
        let unknown = navUPScenario.replacingOccurrences(
            of: "  campus: campus-quito\n", with: "  campus: campus-quito\n  fingerprint_train: ujiindoorloc-train-z\n")
        #expect(
            errors(unknown) == [
                "x.yaml:12:22: error: unknown dataset 'ujiindoorloc-train-z' (did you mean 'ujiindoorloc-train-a'?); run 'fieldtest datasets list' to see the names"
            ])
        let wrongCampus = navUPScenario.replacingOccurrences(
            of: "  campus: campus-quito\n", with: "  campus: us-cities\n")
        #expect(
            errors(wrongCampus) == [
                "x.yaml:11:11: error: 'parameters.campus': dataset 'us-cities' is us-cities data; this field reads osm-xml or osm-pbf data such as campus-montgomery, campus-quito, city-helsinki"
            ])
        let wrongWeather = miCityScenario.replacingOccurrences(
            of: "dataset: noaa-lcd-lincoln-2023}", with: "dataset: sentiment140-positive}"
        )
        .replacingOccurrences(
            of: "datasets: [airline-tweets,", with: "datasets: [sentiment140-positive, airline-tweets,")
        #expect(
            errors(wrongWeather) == [
                "x.yaml:22:50: error: 'feeds[1].dataset': dataset 'sentiment140-positive' is tweet-lines data; this field reads noaa-lcd or tmy3 or tmy2 data such as noaa-lcd-lincoln-2023, noaa-lcd-rota-2018, tmy2-miami, tmy3-sand-point"
            ])
        let wrongTweets = miCityScenario.replacingOccurrences(
            of: "dataset: airline-tweets}", with: "dataset: noaa-lcd-lincoln-2023}")
        #expect(
            errors(wrongTweets) == [
                "x.yaml:21:46: error: 'feeds[0].dataset': dataset 'noaa-lcd-lincoln-2023' is noaa-lcd data; this field reads airline-tweets or tweets-csv or sentiment140-csv or semeval-tweets or vader-groundtruth or tweeteval-text data such as airline-tweets, tweeteval-val-text, vader-groundtruth"
            ])
    }

    @Test func everyBundledScenarioIsValid() throws {
        let folder = Self.repo.appendingPathComponent("Scenarios")
        let files =
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
            + FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("sweeps").path)
            .filter { $0.hasSuffix(".yaml") }.sorted().map { "sweeps/" + $0 }
        #expect(files.count >= 11)
        for file in files {
            #expect(throws: Never.self, "\(file)") {
                try loader.load(folder.appendingPathComponent(file), displayName: file)
            }
        }
    }

    // MARK: durations, names, sizes

    @Test func durationMustBeFiniteAndAtMost366Days() {
        for text in ["inf", "infinity", ".inf", "nan"] {
            let e = errors(miCityScenario.replacingOccurrences(of: "duration: 2h", with: "duration: \(text)"))
            #expect(
                e == [
                    "x.yaml:7:13: error: 'time.duration': '\(text)' is not a finite duration; give a length such as 90s, 5m, 2h or 1d"
                ])
        }
        #expect(
            errors(miCityScenario.replacingOccurrences(of: "duration: 2h", with: "duration: 1e300")) == [
                "x.yaml:7:13: error: 'time.duration' is 1e+300 s, longer than the maximum 366d (31622400 s); shorten it or split the run into several scenarios"
            ])
        #expect(errors(miCityScenario.replacingOccurrences(of: "duration: 2h", with: "duration: 367d")).count == 1)
        #expect(errors(miCityScenario.replacingOccurrences(of: "duration: 2h", with: "duration: 366d")) == [])
        #expect(DurationText.seconds("inf") == nil)
        #expect(DurationText.seconds("1e999") == nil)
        #expect(DurationText.seconds(String(repeating: "9", count: 400) + "d") == nil)
    }

    @Test func nameMustBeAFolderName() {
        let message =
            "cannot be used as a folder name; use letters, digits, '.', '_' and '-' only (not empty, not '.' or '..')"
        #expect(
            errors(miCityScenario.replacingOccurrences(of: "name: mood", with: "name: ../../escaped")) == [
                "x.yaml:2:7: error: 'name': '../../escaped' \(message)"
            ])
        #expect(
            errors(miCityScenario.replacingOccurrences(of: "name: mood", with: "name: \"\"")) == [
                "x.yaml:2:7: error: 'name': '' \(message)"
            ])
        #expect(
            errors(miCityScenario.replacingOccurrences(of: "name: mood", with: "name: ..")) == [
                "x.yaml:2:7: error: 'name': '..' \(message)"
            ])
        #expect(errors(miCityScenario.replacingOccurrences(of: "name: mood", with: "name: a/b")).count == 1)
        #expect(errors(miCityScenario.replacingOccurrences(of: "name: mood", with: "name: mood_2.v-1")) == [])
    }

    @Test func sweepSizeIsCountedWithoutBuildingCasesAndBounded() throws {
        let six = ["open-sky", "urban", "indoor"]
        var devices = ""
        var sweep = "sweep:\n  parameters:\n"
        for i in 0..<6 {
            devices += "  - name: p\(i)\n"
            for key in ["gps", "network", "placement"] where key != "placement" {
                let values = key == "gps" ? six : ["wifi", "lte", "3g"]
                sweep += "    devices.p\(i).\(key): [\(values.joined(separator: ", "))]\n"
            }
        }
        sweep += "  seeds: [1, 2, 3]\n"
        let text =
            miCityScenario.replacingOccurrences(
                of: "  - name: phone\n    gps: urban\n", with: "  - name: phone\n" + devices) + sweep
        let e = errors(text)
        #expect(
            e == [
                "x.yaml:31:3: error: 'sweep' expands to 1594323 cases (3 devices.p0.gps × 3 devices.p0.network × 3 devices.p1.gps × 3 devices.p1.network × 3 devices.p2.gps × 3 devices.p2.network × 3 devices.p3.gps × 3 devices.p3.network × 3 devices.p4.gps × 3 devices.p4.network × 3 devices.p5.gps × 3 devices.p5.network × 3 seeds); the most is 100000; remove values or split the sweep into several scenario files"
            ])
        let small = try loader.parse(
            miCityScenario
                + "sweep:\n  parameters:\n    rate_limit: [2, 3, 4]\n    devices.phone.network: [wifi, lte]\n  seeds: [1, 2]\n",
            file: "x.yaml")
        #expect(ScenarioRunner.caseCount(of: small) == 12)
        #expect(ScenarioRunner.cases(of: small).count == 12)
        let overflow = SweepSpec(
            parameters: (0..<70).map {
                SweepParameter(
                    name: "p\($0)",
                    values: Array(repeating: LocatedValue(value: .int(0), line: 0, column: 0), count: 2),
                    texts: Array(repeating: "0", count: 2))
            }, seeds: [])
        #expect(overflow.caseCount == Int.max)
    }

    // MARK: messages

    @Test func duplicateKeysAreLocatedAtTheRepeat() {
        #expect(
            errors(miCityScenario.replacingOccurrences(of: "seed: 77\n", with: "seed: 77\nseed: 78\n")) == [
                "x.yaml:5:1: error: key 'seed' appears twice in the same mapping (first at line 4); keep only one"
            ])
        #expect(
            errors(
                miCityScenario.replacingOccurrences(
                    of: "    gps: urban\n", with: "    gps: urban\n    network: lte\n    gps: indoor\n")) == [
                    "x.yaml:16:5: error: key 'gps' appears twice in the same mapping (first at line 14); keep only one"
                ])
    }

    @Test func quotedVersionSaysItMustBeTheInteger() {
        #expect(
            errors(miCityScenario.replacingOccurrences(of: "version: 1", with: "version: \"1\"")) == [
                "x.yaml:1:10: error: 'version' is the quoted text '1'; it must be the integer 1, unquoted: 'version: 1'"
            ])
    }

    // MARK: seeds

    @Test func seedsCoverTheWholeUInt64Range() throws {
        let s = try loader.parse(
            miCityScenario.replacingOccurrences(of: "seed: 77", with: "seed: 18446744073709551615"), file: "x.yaml")
        #expect(s.seed == UInt64.max)
        let swept = try loader.parse(
            miCityScenario + "sweep:\n  seeds: [0, 9223372036854775808, 18446744073709551615]\n", file: "x.yaml")
        #expect(swept.sweep?.seeds == [0, 9_223_372_036_854_775_808, UInt64.max])
        #expect(ScenarioRunner.cases(of: swept).map(\.scenario.seed) == [0, 9_223_372_036_854_775_808, UInt64.max])
        #expect(
            errors(miCityScenario.replacingOccurrences(of: "seed: 77", with: "seed: 18446744073709551616")) == [
                "x.yaml:4:7: error: 'seed': 18446744073709551616 is above the maximum 18446744073709551615"
            ])
        #expect(
            errors(miCityScenario.replacingOccurrences(of: "seed: 77", with: "seed: -1")) == [
                "x.yaml:4:7: error: 'seed': -1 is below the minimum 0"
            ])
        let schema = JSONSchemaWriter.render(.bundled)
        #expect(schema.contains("\"maximum\" : 18446744073709551615"))
    }

    @Test func seedsCanBeARange() throws {
        let s = try loader.parse(
            miCityScenario + "sweep:\n  parameters:\n    rate_limit: [6, 10]\n  seeds: {from: 5, count: 3}\n",
            file: "x.yaml")
        #expect(s.sweep?.seeds == [5, 6, 7])
        #expect(
            ScenarioRunner.cases(of: s).map(\.label).prefix(4) == [
                "mood[rate_limit=6,seed=5]", "mood[rate_limit=6,seed=6]",
                "mood[rate_limit=6,seed=7]", "mood[rate_limit=10,seed=5]",
            ])
        let top = try loader.parse(
            miCityScenario + "sweep:\n  seeds: {from: 18446744073709551614, count: 2}\n", file: "x.yaml")
        #expect(top.sweep?.seeds == [UInt64.max - 1, UInt64.max])
        let block = try loader.parse(
            miCityScenario + "sweep:\n  seeds:\n    from: 0\n    count: 100000\n", file: "x.yaml")
        #expect(block.sweep?.seeds.count == 100_000 && block.sweep?.seeds.last == 99_999)
    }

    @Test(arguments: [
        (
            "{from: 18446744073709551615, count: 2}",
            "x.yaml:26:46: error: 'sweep.seeds.count': 2 seeds from 18446744073709551615 would pass the largest seed 18446744073709551615; start at 18446744073709551614 or lower, or count at most 1"
        ),
        ("{from: 1, count: 0}", "x.yaml:26:27: error: 'sweep.seeds.count': 0 is below the minimum 1"),
        ("{from: 1, count: 100001}", "x.yaml:26:27: error: 'sweep.seeds.count': 100001 is above the maximum 100000"),
        ("{from: -1, count: 3}", "x.yaml:26:17: error: 'sweep.seeds.from': -1 is below the minimum 0"),
        ("{from: 1}", "x.yaml:26:10: error: missing required key 'sweep.seeds.count' (how many consecutive seeds)"),
        ("{from: 1, count: 2, step: 2}", "x.yaml:26:30: error: unknown key 'sweep.seeds.step'"),
        ("7", "x.yaml:26:10: error: 'sweep.seeds': expected a list or a mapping, found a number '7'"),
    ])
    func seedRangesAreValidatedWhereTheyAreWritten(seeds: String, message: String) {
        #expect(errors(miCityScenario + "sweep:\n  seeds: \(seeds)\n") == [message])
    }
}
