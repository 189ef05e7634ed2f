import Foundation
import Testing

/// The Table Schemas in `docs/schemas/*.table.json` hold for every CSV the tool writes: a run folder's
/// files (also of a sweep, a failing requirement and a baseline check), `compare` and `evaluate`, the
/// batch commands, `requirements` and the datasets manifest. Each file is run by the built tool on a
/// small input and checked cell by cell (`TableSchema`).
@Suite("Published table schemas")
struct PublishedTableSchemasCLITests {
    let cli = FieldtestCLITests()
    static let schemas = FieldtestCLITests.repo.appendingPathComponent("docs/schemas")

    func schema(_ name: String) throws -> TableSchema {
        try TableSchema(file: Self.schemas.appendingPathComponent(name + ".table.json"))
    }

    /// The violations of `file` against the schema `name`.
    func violations(_ file: URL, _ name: String) throws -> [String] {
        try schema(name).errors(csv: String(contentsOf: file, encoding: .utf8), file: file.lastPathComponent)
    }

    /// Expects `file` to exist, hold at least one data row and match the schema `name`.
    func expectValid(_ file: URL, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(CSVRecords.parse(text).count > 1, "\(file.path) has no data row", sourceLocation: sourceLocation)
        #expect(
            try schema(name).errors(csv: text, file: file.path) == [], "\(name)", sourceLocation: sourceLocation)
    }

    func write(_ text: String, _ file: URL) throws { try text.write(to: file, atomically: true, encoding: .utf8) }

    @Test func theValidatorChecksHeaderTypesConstraintsAndKeys() throws {
        let s = try TableSchema(
            [
                "fields": [
                    ["name": "id", "type": "string"],
                    ["name": "n", "type": "integer", "constraints": ["required": true, "minimum": 0]],
                    ["name": "x", "type": "number", "constraints": ["maximum": 1]],
                    ["name": "ok", "type": "boolean", "trueValues": ["true"], "falseValues": ["false"]],
                    ["name": "at", "type": "datetime"],
                    ["name": "s", "type": "string", "constraints": ["enum": ["a", "b"], "pattern": "[ab]"]],
                ],
                "primaryKey": ["id"],
            ])
        let head = "id,n,x,ok,at,s\n"
        #expect(s.errors(csv: head + "k,1,0.5,true,2023-01-24T06:00:00.000Z,a\nl,0,nan,,,\n", file: "f") == [])
        #expect(s.errors(csv: "id,x,n,ok,at,s\n", file: "f").first?.hasPrefix("f:1: header 'id,x,n") == true)
        let bad = s.errors(
            csv: head + "k,-1,2,yes,2023-02-30T00:00:00Z,c\nk,,1e400x,false,2023-01-24 06:00:00Z,b\n\"m\nn\",1\n",
            file: "f")
        #expect(
            bad == [
                "f:2: field 'n': -1 is below the minimum 0.0", "f:2: field 'x': 2 is above the maximum 1.0",
                "f:2: field 'ok': 'yes' is not of type boolean",
                "f:2: field 'at': '2023-02-30T00:00:00Z' is not of type datetime",
                "f:2: field 's': 'c' is not one of 'a', 'b'", "f:3: field 'n': a value is required",
                "f:3: field 'x': '1e400x' is not of type number",
                "f:3: field 'at': '2023-01-24 06:00:00Z' is not of type datetime",
                "f:3: primary key (id) repeats line 2", "f:4: 2 cells, the header has 6",
            ], "\(bad)")
        #expect(throws: TableSchema.SchemaProblem.self) {
            try TableSchema(["fields": [["name": "d", "type": "duration"]]])
        }
        #expect(throws: TableSchema.SchemaProblem.self) {
            try TableSchema(["fields": [["name": "d", "constraints": ["minLength": 1]]]])
        }
    }

    /// A cell of the wrong type or outside its enum, a missing required cell and a repeated key fail
    /// the published schemas themselves, so the checks of the tool's files below can fail.
    @Test func aWrongCellFailsThePublishedSchemas() throws {
        let metrics = try schema("metrics")
        let head =
            "scenario,run_id,seed,requirement,metric,kind,value,unit,threshold,comparator,status,samples,note,"
            + "ci_low,ci_high,margin\n"
        let row =
            "m,20261128T060000Z-0a1b2c3d,15,SKY-P2,sun_event_abs_error_max,accuracy,0.92,s,300,<=,pass,12,,0.1,1.2,clear\n"
        #expect(metrics.errors(csv: head + row, file: "metrics.csv") == [])
        let passed = row.replacingOccurrences(of: ",pass,", with: ",passed,")
        #expect(
            metrics.errors(csv: head + passed, file: "metrics.csv").first?.hasPrefix("metrics.csv:2: field 'status'")
                == true)
        let fractional = row.replacingOccurrences(of: ",12,", with: ",12.5,")
        #expect(
            metrics.errors(csv: head + fractional, file: "metrics.csv") == [
                "metrics.csv:2: field 'samples': '12.5' is not of type integer"
            ])
        #expect(
            metrics.errors(csv: head + row + row, file: "metrics.csv") == [
                "metrics.csv:3: primary key (scenario, seed, requirement, metric) repeats line 2"
            ])
        let sun = try schema("sun")
        let sunHead =
            "id,date,sunrise,sunset,solar_noon,day_length_s,civil_dawn,civil_dusk,golden_hour_morning_start,"
            + "golden_hour_morning_end,golden_hour_evening_start,golden_hour_evening_end,note\n"
        #expect(!sun.errors(csv: sunHead + "a,2023-01-24,soon,,,,,,,,,,\n", file: "sun.csv").isEmpty)
        #expect(!sun.errors(csv: sunHead + "a,2023-01-24,,,,-5,,,,,,,\n", file: "sun.csv").isEmpty)
    }

    /// Every table schema is in the subset the validator checks, and docs/outputs.md lists it.
    @Test func everyTableSchemaIsCheckableAndListed() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.schemas.path)
            .filter { $0.hasSuffix(".table.json") }.sorted()
        #expect(names.count >= 18, "\(names)")
        let outputs = try String(
            contentsOf: FieldtestCLITests.repo.appendingPathComponent("docs/outputs.md"), encoding: .utf8)
        for name in names {
            _ = try TableSchema(file: Self.schemas.appendingPathComponent(name))
            #expect(outputs.contains("schemas/\(name)"), "docs/outputs.md does not list \(name)")
        }
    }

    /// A sweep of two seeds with a requirement made to fail, then a bundled scenario checked against
    /// its baseline: every CSV of the two run folders.
    @Test func runFolderFilesMatchTheirSchemas() throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(CompareCLITests.tweets(), dir.appendingPathComponent("tweets.csv"))
        let sweep = CompareCLITests.scenario.replacingOccurrences(
            of: "requirements: [MIC-14]",
            with: "sweep:\n  seeds: {from: 1, count: 2}\nrequirements: [{id: MIC-14, threshold: 0.999}]")
        try write(sweep, dir.appendingPathComponent("sweep.yaml"))
        var r = try cli.run(["run", "sweep.yaml", "--out", "out", "--quiet"], in: dir)
        #expect(r.status == 1, "the requirement made to fail fails: \(r.stderr)")
        let scenario = FieldtestCLITests.repo.appendingPathComponent("Scenarios/skyscape-miami.yaml").path
        let baseline = FieldtestCLITests.repo.appendingPathComponent("Results/baselines").path
        r = try cli.run(
            ["run", scenario, "--out", "out", "--baseline", baseline, "--record-baseline", "rec", "--quiet"], in: dir)
        #expect([0, 1].contains(r.status), "\(r.stderr)")
        let out = dir.appendingPathComponent("out")
        let swept = out.appendingPathComponent("mic")
        let metrics = try String(contentsOf: swept.appendingPathComponent("metrics.csv"), encoding: .utf8)
        #expect(metrics.contains(",MIC-14,posneg_accuracy,accuracy,") && metrics.contains(",fail,"), "\(metrics)")
        for name in ["metrics", "items", "events", "latency", "seeds"] {
            try expectValid(swept.appendingPathComponent(name + ".csv"), name)
        }
        // The tweet stream has no latency series with a histogram: a header alone, still its schema's.
        #expect(try violations(swept.appendingPathComponent("latency-histogram.csv"), "latency-histogram") == [])
        let miami = out.appendingPathComponent("skyscape-miami")
        for name in ["metrics", "items", "events", "latency", "latency-histogram", "baseline-check"] {
            try expectValid(miami.appendingPathComponent(name + ".csv"), name)
        }
        // The baseline it recorded: metrics and items under the scenario's name.
        try expectValid(dir.appendingPathComponent("rec/skyscape-miami.csv"), "metrics")
        try expectValid(dir.appendingPathComponent("rec/skyscape-miami.items.csv"), "items")
    }

    /// `compare`'s table and its systems' run folders; `evaluate`'s figures and items of every capability.
    @Test func compareAndEvaluateOutputsMatchTheirSchemas() throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(CompareCLITests.tweets(), dir.appendingPathComponent("tweets.csv"))
        try write(CompareCLITests.scenario, dir.appendingPathComponent("mic.yaml"))
        var r = try cli.run(
            [
                "compare", "mic.yaml", "--capability", "sentiment", "--candidate", "builtin=builtin",
                "--candidate", "toy=python3 \(CompareCLITests.toy)", "--output", "c.csv", "--out", "cmp",
            ], in: dir)
        #expect([0, 1].contains(r.status), "\(r.stderr)")
        try expectValid(dir.appendingPathComponent("c.csv"), "compare")
        try expectValid(dir.appendingPathComponent("cmp/toy/metrics.csv"), "metrics")
        try expectValid(dir.appendingPathComponent("cmp/toy/items.csv"), "items")

        try write(
            "id,latitude,longitude,date,timezone\nparis,48.85,2.35,2024-06-21,Europe/Paris\n"
                + "tromso,69.65,18.96,2024-06-21,Europe/Oslo\n", dir.appendingPathComponent("sun.csv"))
        try write(Self.routeQueries, dir.appendingPathComponent("q.csv"))
        try write(try DataCommandsCLITests().ujiRows(1...150), dir.appendingPathComponent("train.csv"))
        try write(try DataCommandsCLITests().ujiRows(151...160), dir.appendingPathComponent("uji.csv"))
        try write(
            "text,label\nI love this,positive\nI hate this,negative\nthe bus is at nine,neutral\n",
            dir.appendingPathComponent("t.csv"))
        let evaluations: [(String, [String])] = [
            ("sun", ["--input", "sun.csv"]), ("route", ["--input", "q.csv", "--graph", Self.map]),
            ("locate", ["--input", "uji.csv", "--train", "train.csv"]),
            ("sentiment", ["--input", "t.csv", "--system", "builtin"]),
        ]
        for (capability, arguments) in evaluations {
            let files = ["--output", "\(capability)-figures.csv", "--items", "\(capability)-items.csv"]
            r = try cli.run(["evaluate", capability] + arguments + files, in: dir)
            #expect(r.status == 0, "\(capability): \(r.stderr)")
            try expectValid(dir.appendingPathComponent("\(capability)-figures.csv"), "evaluate")
            try expectValid(dir.appendingPathComponent("\(capability)-items.csv"), "evaluate-items")
        }
        r = try cli.run(["evaluate", "sentiment", "--input", "t.csv", "--output", "model.csv"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        try expectValid(dir.appendingPathComponent("model.csv"), "evaluate-sentiment")
    }

    /// The campus map the route checks use (small: it loads in a moment).
    static let map = FieldtestCLITests.repo.appendingPathComponent(
        "Datasets/maps/universidad_central_del_ecuador_campus.osm"
    ).path

    /// Two routable queries, one with no route for its profile and one far off the map (`no_snap`).
    static let routeQueries = """
        id,from_lat,from_lon,to_lat,to_lon,profile
        a,-0.1998553,-78.5053150,-0.1991989,-78.5034744,walk
        b,-0.2018251,-78.5075030,-0.2011411,-78.5077462,walk
        none,-0.1998553,-78.5053150,-0.2011411,-78.5077462,wheelchair
        far,-0.1000,-78.4000,-0.1990,-78.5040,walk

        """

    /// `sun`, `score`, `route`, `locate`, `classify`, `requirements --format csv` and the datasets manifest.
    @Test func batchOutputsMatchTheirSchemas() throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(
            "id,latitude,longitude,date,timezone\nparis,48.85,2.35,2024-06-21,Europe/Paris\n"
                + "polar,78.2,15.6,2024-06-21,Arctic/Longyearbyen\nnight,78.2,15.6,2024-12-21,Arctic/Longyearbyen\n"
                + "apia,-13.83,-171.76,2011-12-30,Pacific/Apia\n", dir.appendingPathComponent("sun.csv"))
        var weather = "location_id,latitude,longitude,time,cloud_low_pct,cloud_high_pct,humidity_pct,pm25_ugm3\n"
        for hour in 0..<48 {
            let time = String(format: "2024-03-%02dT%02d:00:00Z", 10 + hour / 24, hour % 24)
            weather += "lincoln,40.81,-96.70,\(time),\(hour % 7 * 10),\(hour % 5 * 20),\(50 + hour % 40),\(hour % 9)\n"
        }
        try write(weather, dir.appendingPathComponent("weather.csv"))
        try write(Self.routeQueries, dir.appendingPathComponent("q.csv"))
        try write(try DataCommandsCLITests().ujiRows(1...150), dir.appendingPathComponent("train.csv"))
        try write(try DataCommandsCLITests().ujiRows(151...160), dir.appendingPathComponent("uji.csv"))
        try write(
            "id,text\n1,what a lovely day\n2,\"late again, awful\"\n3,the bus\n", dir.appendingPathComponent("t.csv"))
        let commands: [(String, [String])] = [
            ("sun", ["sun", "--input", "sun.csv"]), ("score", ["score", "--weather", "weather.csv"]),
            ("route", ["route", "--graph", Self.map, "--queries", "q.csv"]),
            ("locate", ["locate", "--train", "train.csv", "--input", "uji.csv"]),
            ("classify", ["classify", "--input", "t.csv"]),
            ("requirements", ["requirements", "--format", "csv"]),
        ]
        for (name, arguments) in commands {
            let r = try cli.run(arguments + (name == "requirements" ? [] : ["--output", "\(name).out.csv"]), in: dir)
            #expect(r.status == 0, "\(name): \(r.stderr)")
            if name == "requirements" { try write(r.stdout, dir.appendingPathComponent("requirements.out.csv")) }
            try expectValid(dir.appendingPathComponent("\(name).out.csv"), name)
        }
        let routes = try String(contentsOf: dir.appendingPathComponent("route.out.csv"), encoding: .utf8)
        #expect(routes.contains("\na,ok,") && routes.contains("\nfar,no_snap,"), "\(routes)")
        try expectValid(FieldtestCLITests.repo.appendingPathComponent("Datasets/MANIFEST.csv"), "manifest")
    }
}
