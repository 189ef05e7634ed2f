import Foundation
import Testing

/// Recordings of one's own, outside `Datasets/`: named by path in scenarios, or added to a
/// datasets folder of one's own with `datasets add` (issue #21).
@Suite("fieldtest with your own data")
struct OwnDataCLITests {
    let cli = FieldtestCLITests()
    static let datasets = FieldtestCLITests.repo.appendingPathComponent("Datasets")

    /// A temporary folder holding copies of a bundled campus, LCD file and tweet file under new
    /// names, in `data/`, outside `Datasets/`.
    func ownData() throws -> URL {
        let dir = try cli.temporaryFolder()
        let data = dir.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        for (bundled, copy) in [
            ("maps/montgomery_college_rockville_campus.osm", "campus.osm"),
            ("weather/LCD_USW00014939_Lincoln_2023JanFeb.csv", "LCD_home.csv"),
            ("tweets/airline_Tweets.csv", "labelled.csv"),
        ] {
            try FileManager.default.copyItem(
                at: Self.datasets.appendingPathComponent(bundled), to: data.appendingPathComponent(copy))
        }
        return dir
    }

    /// The scenarios of the done-when test, by app; each names the copies by path only.
    static let scenarios: [String: String] = [
        "navup": """
        version: 1
        name: own-navup
        app: navup
        seed: 5
        time: {start: 2026-03-02T12:30:00Z, duration: 1h, timezone: America/New_York}
        datasets:
          - {name: home-campus, path: data/campus.osm}
        parameters: {campus: home-campus}
        devices:
          - {name: phone, gps: urban, network: lte}
        actors:
          - name: ana
            device: phone
            actions:
              - {at: 1m, do: route, from: "Science Center", to: "Music Building"}
              - {at: 2m, every: 1m, count: 5, do: random-routes, routes: 3}
              - {at: 10m, do: search-venue, queries: 30}
        requirements: [NAV-F3, NAV-F4]
        """,
        "skyscape": """
        version: 1
        name: own-skyscape
        app: skyscape
        seed: 5
        time: {start: 2023-01-24T06:00:00Z, duration: 1d, timezone: America/Chicago}
        datasets:
          - {name: home-weather, path: data/LCD_home.csv}
          - world-cities
          - us-cities
        devices:
          - {name: phone, gps: urban, network: lte, position: {latitude: 40.8136, longitude: -96.7026}}
        actors:
          - name: ana
            device: phone
            actions:
              - {at: 1m, do: add-favourite, place: "Lincoln"}
              - {at: 5m, every: 1h, do: view-details, place: "Lincoln"}
              - {at: 10m, do: set-reminder, place: "Lincoln", event: sunset, day: 0}
        feeds:
          - {kind: weather-refresh, every: 5m, dataset: home-weather}
        requirements: [SKY-P1, SKY-P2, SKY-D1, SKY-M1]
        """,
        "micity": """
        version: 1
        name: own-micity
        app: micity
        seed: 5
        time: {start: 2023-02-10T14:00:00-06:00, duration: 1h, timezone: America/Chicago}
        datasets:
          - {name: home-tweets, path: data/labelled.csv}
          - {name: home-weather, path: data/LCD_home.csv, format: noaa-lcd}
          - us-cities
        devices:
          - {name: phone, gps: urban, network: lte, position: {latitude: 40.8136, longitude: -96.7026}}
        actors:
          - name: maya
            device: phone
            actions:
              - {at: 2m, every: 10m, do: weather, latitude: 40.8136, longitude: -96.7026}
              - {at: 5m, do: add-place, name: Lincoln}
        feeds:
          - {kind: tweet-batch, every: 80s, dataset: home-tweets, size: 100}
          - {kind: weather-refresh, every: 10m, dataset: home-weather}
        requirements: [MIC-12, MIC-14, MIC-30, MIC-34]
        """,
    ]

    /// The done-when test of #21: validate and run scenarios naming copies of bundled files by path
    /// from a folder outside `Datasets/`: exit 0 or 1, never 2, and every listed requirement has samples.
    @Test(arguments: ["navup", "skyscape", "micity"])
    func scenariosNamingCopiesByPathValidateAndRun(app: String) throws {
        let dir = try ownData()
        let file = dir.appendingPathComponent("\(app).yaml")
        try #require(Self.scenarios[app]).write(to: file, atomically: false, encoding: .utf8)
        let check = {
            let validated = try cli.run(["validate", file.path], in: dir)
            #expect(validated.status == 0, "\(validated.stderr)")
            let out = dir.appendingPathComponent("out")
            let r = try cli.run(["run", "\(app).yaml", "--out", out.path], in: dir)
            #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
            let metrics = try String(
                contentsOf: out.appendingPathComponent("own-\(app)/metrics.csv"), encoding: .utf8)
            let rows = metrics.split(separator: "\n").dropFirst().map {
                $0.split(separator: ",", omittingEmptySubsequences: false)
            }
            // Every listed requirement has rows, and samples behind them.
            for requirement in Self.requirements(app) {
                let samples = rows.filter { $0[3] == requirement }.map { Int($0[11]) ?? 0 }
                #expect(!samples.isEmpty, "no rows for \(requirement)")
                #expect((samples.max() ?? 0) > 0, "\(requirement) has no samples")
            }
            let json = try JSONSerialization.jsonObject(
                with: Data(contentsOf: out.appendingPathComponent("own-\(app)/run.json")))
            let files = try #require((json as? [String: Any])?["dataset_files"] as? [[String: Any]])
            let own = files.filter { ($0["name"] as? String)?.hasPrefix("home-") == true }
            #expect(!own.isEmpty)
            for record in own {
                #expect((record["path"] as? String)?.hasPrefix("data/") == true, "\(record)")
                #expect((record["sha256"] as? String)?.count == 64)
                #expect(((record["rows"] as? Int) ?? 0) > 0)
            }
        }
        try check()
    }

    /// A downloaded file with a bad row loads: validate warns, the run skips the row, and run.json
    /// counts it (`rows_skipped`) with its reason.
    @Test func aBadRowIsSkippedAndCounted() throws {
        let dir = try ownData()
        let lcd = dir.appendingPathComponent("data/LCD_home.csv")
        var lines = try String(contentsOf: lcd, encoding: .utf8).components(separatedBy: "\n")
        var fields = lines[20].components(separatedBy: ",")
        fields[1] = "\"not-a-date\""
        lines[20] = fields.joined(separator: ",")
        try lines.joined(separator: "\n").write(to: lcd, atomically: false, encoding: .utf8)
        try #require(Self.scenarios["skyscape"]).write(
            to: dir.appendingPathComponent("skyscape.yaml"), atomically: false, encoding: .utf8)
        let validated = try cli.run(["validate", "skyscape.yaml"], in: dir)
        #expect(validated.status == 0, "\(validated.stderr)")
        #expect(validated.stderr.contains("rows_skipped") || validated.stdout.contains("rows_skipped"))
        let out = dir.appendingPathComponent("out")
        let r = try cli.run(["run", "skyscape.yaml", "--out", out.path], in: dir)
        #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(
            with: Data(contentsOf: out.appendingPathComponent("own-skyscape/run.json")))
        let files = try #require((json as? [String: Any])?["dataset_files"] as? [[String: Any]])
        let weather = try #require(files.first { $0["name"] as? String == "home-weather" })
        #expect((weather["rows_skipped"] as? Int) == 1, "\(weather)")
        #expect("\(weather["skipped_reasons"] ?? "")".contains(":21"), "\(weather)")
        // --strict makes the same row an error at its file and line, exit 2.
        let strict = try cli.run(["run", "skyscape.yaml", "--out", out.path, "--strict"], in: dir)
        #expect(strict.status == 2, "\(strict.stderr)")
        #expect(strict.stderr.contains("LCD_home.csv:21"), "\(strict.stderr)")
    }

    /// What `run` refuses, `validate` refuses too, located: a typical year replayed in year 1 or 9999.
    @Test(arguments: ["0001", "9999"])
    func typicalYearsOutOfRangeAreLocated(year: String) throws {
        let dir = try cli.temporaryFolder()
        let text = try String(
            contentsOf: FieldtestCLITests.repo.appendingPathComponent("Scenarios/skyscape-alaska.yaml"), encoding: .utf8
        )
        let moved = text.replacingOccurrences(of: "start: 2021-", with: "start: \(year)-")
        #expect(moved != text)
        try moved.write(to: dir.appendingPathComponent("tmy.yaml"), atomically: false, encoding: .utf8)
        for command in ["validate", "run"] {
            let r = try cli.run(
                [command, "tmy.yaml", "--out", dir.appendingPathComponent("out").path].prefix(command == "run" ? 4 : 2)
                    .map { $0 }, in: dir)
            #expect(r.status == 2, "\(command): \(r.stderr)")
            #expect(
                r.stderr.range(
                    of: #"tmy\.yaml:\d+:\d+: error: the weather recording cannot be replayed"#,
                    options: .regularExpression) != nil, "\(command): \(r.stderr)")
        }
    }

    /// The requirement IDs listed by the scenario of `app`.
    static func requirements(_ app: String) -> [String] {
        guard let text = scenarios[app],
            let line = text.split(separator: "\n").last(where: { $0.hasPrefix("requirements:") })
        else { return [] }
        return line.dropFirst("requirements: [".count).dropLast().split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
    }

    @Test func validateNamesAMisspeltVenueWithTheClosestOne() throws {
        let dir = try ownData()
        let text = try #require(Self.scenarios["navup"]).replacingOccurrences(
            of: "to: \"Music Building\"", with: "to: \"Musik Bulding\"")
        try text.write(to: dir.appendingPathComponent("navup.yaml"), atomically: false, encoding: .utf8)
        let r = try cli.run(["validate", "navup.yaml"], in: dir)
        #expect(r.status == 2)
        #expect(
            r.stderr.contains(
                "navup.yaml:15:"
            )
                && r.stderr.contains(
                    "campus 'home-campus' has no venue named 'Musik Bulding' (did you mean 'Music Building'?)"),
            "\(r.stderr)")
        // run stops before anything runs, with the same message and no report.
        let run = try cli.run(["run", "navup.yaml", "--out", "out"], in: dir)
        #expect(run.status == 2)
        #expect(run.stderr.contains("(did you mean 'Music Building'?)"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/own-navup/metrics.csv").path))
    }

    @Test func aPathThatDoesNotExistIsLocatedWithTheClosestFile() throws {
        let dir = try ownData()
        let text = try #require(Self.scenarios["navup"]).replacingOccurrences(
            of: "path: data/campus.osm", with: "path: data/campsu.osm")
        try text.write(to: dir.appendingPathComponent("navup.yaml"), atomically: false, encoding: .utf8)
        let r = try cli.run(["validate", "navup.yaml"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("navup.yaml:7:"), "\(r.stderr)")
        #expect(r.stderr.contains("data/campsu.osm does not exist (did you mean 'campus.osm'?)"), "\(r.stderr)")
    }

    @Test func datasetsAddWritesAMeasuredRowThatListAndVerifyCover() throws {
        let dir = try ownData()
        let campus = dir.appendingPathComponent("data/campus.osm")
        let before = try Data(contentsOf: campus)
        let added = try cli.run(["datasets", "add", "data/campus.osm", "--name", "home-campus"], in: dir)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(
            added.stdout.contains("added home-campus: osm-xml (from the extension .osm), 4405 rows"), "\(added.stdout)")
        #expect(try Data(contentsOf: campus) == before)
        let manifest = try String(contentsOf: dir.appendingPathComponent("data/MANIFEST.csv"), encoding: .utf8)
        #expect(
            manifest.hasPrefix(
                "name,file,format,core,rows,sha256,license,origin\nhome-campus,campus.osm,osm-xml,routing,4405,"))
        #expect(manifest.contains("a12a9050fa063c3fead6d93df56ebd429f5abb1b85cfd7e5cbd210203bd15559"))

        // A second file into the same folder, from outside it: copied in, the original untouched.
        let outside = dir.appendingPathComponent("LCD_elsewhere.csv")
        try FileManager.default.copyItem(at: dir.appendingPathComponent("data/LCD_home.csv"), to: outside)
        let lcd = try cli.run(
            ["datasets", "add", "LCD_elsewhere.csv", "--name", "home-weather", "--into", "data"], in: dir)
        #expect(lcd.status == 0, "\(lcd.stderr)")
        #expect(lcd.stdout.contains("noaa-lcd"), "\(lcd.stdout)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("data/LCD_elsewhere.csv").path))

        // Names are unique across the folders: a bundled name and a name just added are refused.
        for name in ["campus-montgomery", "home-campus"] {
            let again = try cli.run(
                ["datasets", "add", "data/labelled.csv", "--name", name, "--datasets", "data"], in: dir)
            #expect(again.status == 2)
            #expect(again.stderr.contains("--name \(name): error: the name is already used"), "\(again.stderr)")
        }
        // A file whose layout no header shows needs --format.
        try "one tweet\nanother\n".write(
            to: dir.appendingPathComponent("lines.txt"), atomically: false, encoding: .utf8)
        let unknown = try cli.run(["datasets", "add", "lines.txt", "--name", "lines", "--into", "data"], in: dir)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("cannot tell the file's format"), "\(unknown.stderr)")

        // list and verify cover the bundled folder and this one.
        let list = try cli.run(["datasets", "list", "--datasets", "data"], in: dir)
        #expect(list.status == 0)
        #expect(list.stdout.contains("home-campus") && list.stdout.contains("campus-montgomery"))
        let verify = try cli.run(["datasets", "verify", "home-campus", "home-weather", "tmy2-miami"], in: dir)
        #expect(verify.status == 2, "home-campus is unknown without the folder")
        let env = try cli.run(
            ["datasets", "verify", "home-campus", "home-weather", "tmy2-miami", "--datasets", "data"], in: dir)
        #expect(env.status == 0, "\(env.stdout)\(env.stderr)")
        #expect(env.stdout.contains("3 of 3 datasets verified"))

        // A scenario names the added dataset by its name with --datasets.
        let text = try #require(Self.scenarios["navup"]).replacingOccurrences(
            of: "  - {name: home-campus, path: data/campus.osm}", with: "  - home-campus")
        try text.write(to: dir.appendingPathComponent("navup.yaml"), atomically: false, encoding: .utf8)
        #expect(try cli.run(["validate", "navup.yaml"], in: dir).status == 2)
        let validated = try cli.run(["validate", "navup.yaml", "--datasets", "data"], in: dir)
        #expect(validated.status == 0, "\(validated.stderr)")
    }
}
