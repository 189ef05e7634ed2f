import FieldtestTestSupport
import Foundation
import Testing

/// End-to-end tests: run the built `fieldtest` executable and check its
/// output and exit code.
@Suite("fieldtest command line")
struct FieldtestCLITests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var executable: URL {
        // The test bundle sits in the products folder next to the executable.
        let products = Bundle.main.bundleURL
        let candidates = [
            products.appendingPathComponent("fieldtest"),
            products.deletingLastPathComponent().appendingPathComponent("fieldtest"),
            repo.appendingPathComponent(".build/debug/fieldtest"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the tool in `directory` with `environment` added to this process's and `input` (or
    /// nothing) as its standard input.
    func run(
        _ arguments: [String], environment: [String: String] = [:], input: String? = nil,
        in directory: URL = repo, executable: URL = Self.executable
    ) throws -> Result {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        p.currentDirectoryURL = directory
        if !environment.isEmpty {
            p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        if let input {
            let file = try temporaryFolder().appendingPathComponent("stdin")
            try input.write(to: file, atomically: true, encoding: .utf8)
            p.standardInput = try FileHandle(forReadingFrom: file)
        } else {
            p.standardInput = FileHandle.nullDevice
        }
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(
            status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
    }

    func temporaryFolder() throws -> URL {
        let dir = TemporaryFiles.url("cli")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func helpListsSubcommands() throws {
        let r = try run(["--help"])
        #expect(r.status == 0)
        for name in ["run", "validate", "check", "merge", "datasets"] {
            #expect(r.stdout.contains("  \(name) "), "missing subcommand \(name)")
        }
        // Benchmarks are their own executable, fieldtest-bench.
        #expect(!r.stdout.contains("  bench "))
    }

    /// `score --dataset` replays a bundled recording at its station: the Beijing PM2.5 record
    /// (five years, two events a day) shows the haze cap on real aerosol data.
    @Test func scoreABundledRecording() throws {
        let r = try run(["score", "--dataset", "beijing-pm25"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("location_id,event,event_time,quality_pct,") == true)
        #expect(lines.count > 3600 && lines.count < 3700)  // 1,826 days × sunrise and sunset (+ header)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let quality = try #require(header.firstIndex(of: "quality_pct"))
        let pm = try #require(header.firstIndex(of: "window_pm25_ugm3"))
        var hazy: [Double] = []
        var clean: [Double] = []
        for line in lines.dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard let q = Double(f[quality]), let p = Double(f[pm]) else { continue }
            if p > 150 { hazy.append(q) } else if p < 35 { clean.append(q) }
        }
        #expect(hazy.count > 100 && clean.count > 100)
        let worstHaze: Double = hazy.max() ?? 100
        #expect(worstHaze <= 40)  // heavy PM2.5 caps the score
        let hazyMean: Double = hazy.reduce(0, +) / Double(max(1, hazy.count))
        let cleanMean: Double = clean.reduce(0, +) / Double(max(1, clean.count))
        #expect(hazyMean < cleanMean)
        let wrong = try run(["score", "--dataset", "us-cities"])
        #expect(wrong.status == 2 && wrong.stderr.contains("not a weather recording"))
    }

    /// `score --year` outside 1900–2100 is invalid input (it used to overflow, or drop events).
    @Test func scoreRejectsAnUnsupportedYear() throws {
        for year in ["100000000000000", "50000", "1899"] {
            let r = try run(["score", "--dataset", "tmy3-sand-point", "--year", year])
            #expect(r.status == 2 && r.stdout.isEmpty, "\(year): \(r.stderr)")
            #expect(r.stderr.contains("--year \(year): error:") && r.stderr.contains("1900…2100"))
        }
        let ok = try run(["score", "--dataset", "tmy3-sand-point", "--year", "2100"])
        #expect(ok.status == 0 && ok.stdout.split(separator: "\n").count == 731)  // 365 days × 2 events + header
    }

    /// An LCD recording without coordinate columns is scored at its station's position from
    /// the bundled station history (Rota: 36.65 N, 6.35 W; 2018-01-01 sunrise ≈ 07:37Z).
    @Test func scoreAnLCDRecordingPlacedByItsStationID() throws {
        let r = try run(["score", "--dataset", "noaa-lcd-rota-2018"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count > 700)
        #expect(lines[1].hasPrefix("noaa-lcd-rota-2018,sunrise,2018-01-01T07:3"))
    }

    @Test func validateReportsLocatedErrorsWithExitCode2() throws {
        let dir = try temporaryFolder()
        let file = dir.appendingPathComponent("bad.yaml")
        try "version: 1\nname: x\napp: skyscape\nseed: 1\nsensrs: []\n".write(
            to: file, atomically: false, encoding: .utf8)
        let r = try run(["validate", file.path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("bad.yaml:5:1: error: unknown key 'sensrs'"))
        #expect(r.stderr.contains("missing required key 'time'"))
    }

    @Test func validateChecksEveryFileAsItsHelpSays() throws {
        let dir = try temporaryFolder()
        let first = dir.appendingPathComponent("first.yaml")
        let second = dir.appendingPathComponent("second.yaml")
        try "version: 1\nname: x\napp: skyscape\nseed: 1\nsensrs: []\n".write(
            to: first, atomically: false, encoding: .utf8)
        try "version: 1\nname: y\napp: skyscape\nseed: 1\nsensorz: []\n".write(
            to: second, atomically: false, encoding: .utf8)
        let r = try run(["validate", first.path, second.path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("first.yaml:5:1: error: unknown key 'sensrs'"))
        #expect(r.stderr.contains("second.yaml:5:1: error: unknown key 'sensorz'"))
        let help = try run(["validate", "--help"])
        #expect(!help.stdout.contains("first invalid file"))
        #expect(help.stdout.contains("every file is checked"))
    }

    @Test func checkDetectsAWorseRunAndAcceptsAnEqualOne() throws {
        let dir = try temporaryFolder()
        let header = "scenario,run_id,seed,requirement,metric,kind,value,unit,threshold,comparator,status,samples\n"
        let base = header + "s,a,1,SKY-P2,sunrise_error_max,accuracy,12,s,300,<=,pass,100\n"
        let worse = header + "s,b,1,SKY-P2,sunrise_error_max,accuracy,14,s,300,<=,pass,100\n"
        try base.write(to: dir.appendingPathComponent("base.csv"), atomically: false, encoding: .utf8)
        try worse.write(to: dir.appendingPathComponent("worse.csv"), atomically: false, encoding: .utf8)
        let same = try run([
            "check", dir.appendingPathComponent("base.csv").path, "--baseline",
            dir.appendingPathComponent("base.csv").path,
        ])
        #expect(same.status == 0)
        #expect(same.stdout.contains("check: 0 regressions, 0 improvements, 1 unchanged"))
        let regress = try run([
            "check", dir.appendingPathComponent("worse.csv").path, "--baseline",
            dir.appendingPathComponent("base.csv").path,
        ])
        #expect(regress.status == 1)
        #expect(regress.stdout.contains("REGRESSION"))
        let missing = try run([
            "check", dir.appendingPathComponent("worse.csv").path, "--baseline",
            dir.appendingPathComponent("nope.csv").path,
        ])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("missing baseline"))
        try "garbage,only\n1,2\n".write(to: dir.appendingPathComponent("bad.csv"), atomically: false, encoding: .utf8)
        let bad = try run([
            "check", dir.appendingPathComponent("bad.csv").path, "--baseline",
            dir.appendingPathComponent("base.csv").path,
        ])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("bad.csv:1: error: header must be exactly"))
    }

    /// Latency movement counts only against a baseline from the same machine (or when asked).
    @Test func checkComparesLatencyOnlyOnTheBaselinesMachine() throws {
        let dir = try temporaryFolder()
        let header = "scenario,run_id,seed,requirement,metric,kind,value,unit,threshold,comparator,status,samples\n"
        try (header + "s,a,1,SKY-P1,query_p95,latency,0.1,s,5,<=,pass,100\n")
            .write(to: dir.appendingPathComponent("base.csv"), atomically: false, encoding: .utf8)
        try (header + "s,b,1,SKY-P1,query_p95,latency,0.9,s,5,<=,pass,100\n")
            .write(to: dir.appendingPathComponent("slow.csv"), atomically: false, encoding: .utf8)
        let args = [
            "check", dir.appendingPathComponent("slow.csv").path, "--baseline",
            dir.appendingPathComponent("base.csv").path,
        ]
        let unknown = try run(args)
        #expect(unknown.status == 0)
        #expect(unknown.stderr.contains("latency rows are checked against their thresholds only"))
        let always = try run(args + ["--compare-latency", "always"])
        #expect(always.status == 1)
        #expect(always.stdout.contains("REGRESSION"))
        let bad = try run(args + ["--compare-latency", "sometimes"])
        #expect(bad.status == 2)
    }

    /// Usage errors exit 2, as the help says (not ArgumentParser's 64), with the usage text.
    @Test func usageErrorsExitTwo() throws {
        for arguments in [
            ["no-such-command"], ["sun"], ["sun", "--input", "x.csv", "--no-such-option"],
            ["run", "x.yaml", "--jobs", "0"],
        ] {
            let r = try run(arguments)
            #expect(r.status == 2, "\(arguments)")
            #expect(r.stderr.contains("Usage: fieldtest"), "\(arguments)")
        }
    }

    /// A report that cannot be written to standard output is an error (exit 2, said on
    /// standard error), never a crash and never a silent success.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full (Linux)"))
    func aFullStandardOutputIsAnError() throws {
        let dir = try temporaryFolder()
        let input = dir.appendingPathComponent("days.csv")
        try "id,latitude,longitude,date,timezone\na,0,0,2024-01-01,UTC\n".write(
            to: input, atomically: false, encoding: .utf8)
        for arguments in [["sun", "--input", input.path], ["datasets", "list"]] {
            let p = Process()
            p.executableURL = Self.executable
            p.arguments = arguments
            p.currentDirectoryURL = Self.repo
            let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
            let err = Pipe()
            p.standardOutput = full
            p.standardError = err
            try p.run()
            let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            #expect(p.terminationReason == .exit && p.terminationStatus == 2, "\(arguments): \(e)")
            #expect(e.contains("error: cannot write to standard output: No space left on device"), "\(arguments)")
        }
    }

    /// An output file that cannot be finished (here: over the file-size limit) leaves the previous
    /// file as it was and no temporary file beside it.
    @Test func aFailedWriteKeepsThePreviousOutputAndLeavesNoTemporaryFile() throws {
        let dir = try temporaryFolder()
        let input = dir.appendingPathComponent("days.csv")
        let rows = (0..<60).map { "r\($0),10,10,2024-01-\(String(format: "%02d", $0 % 28 + 1)),UTC" }
        try (["id,latitude,longitude,date,timezone"] + rows).joined(separator: "\n").write(
            to: input, atomically: false, encoding: .utf8)
        try "KEEP\n".write(to: dir.appendingPathComponent("out.csv"), atomically: false, encoding: .utf8)
        let script = "trap '' XFSZ; ulimit -f 4; exec \"$0\" sun --input days.csv --output out.csv"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script, Self.executable.path]
        p.currentDirectoryURL = dir
        let err = Pipe()
        p.standardError = err
        try p.run()
        let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 2, "\(e)")
        #expect(e.contains("out.csv: error: cannot write file: File too large"))
        #expect(try String(contentsOf: dir.appendingPathComponent("out.csv"), encoding: .utf8) == "KEEP\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["days.csv", "out.csv"])
    }

    /// `merge --output` naming one of its inputs is refused before anything is written.
    @Test func mergeRefusesToOverwriteAnInput() throws {
        let dir = try temporaryFolder()
        let shard = dir.appendingPathComponent("shard.csv")
        let original = try String(
            contentsOf: Self.repo.appendingPathComponent("Results/baselines/navup-wheelchair.csv"), encoding: .utf8)
        try original.write(to: shard, atomically: false, encoding: .utf8)
        let r = try run(["merge", shard.path, "--output", shard.path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("is the input file"))
        #expect(try String(contentsOf: shard, encoding: .utf8) == original)
    }

    @Test func datasetsVerifyFailsOnATamperedFile() throws {
        let dir = try temporaryFolder()
        let mapping = "0\tnegative\n1\tneutral\n2\tpositive\n"
        try mapping.write(to: dir.appendingPathComponent("m.txt"), atomically: false, encoding: .utf8)
        let good = "name,file,format,core,rows,sha256,license,origin\nmap,m.txt,tweeteval-mapping,classification,3,"
        // sha256 of `mapping` (sha256sum).
        let sha = "c0572796fbe261d8ea5fd16c5061076fbba49bc69fc865d6abccaf60daacee24"
        try (good + sha + ",MIT,test\n").write(
            to: dir.appendingPathComponent("MANIFEST.csv"), atomically: false, encoding: .utf8)
        // The folder goes on top of the bundled one; naming its dataset verifies that one only.
        let ok = try run(["datasets", "verify", "--datasets", dir.path, "map"])
        #expect(ok.status == 0)
        #expect(ok.stdout.contains("1 of 1 datasets verified"))
        try (mapping + "3\tunknown\n").write(
            to: dir.appendingPathComponent("m.txt"), atomically: false, encoding: .utf8)
        let r = try run(["datasets", "verify", "--datasets", dir.path, "map"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("FAIL  map:"))
        let unknown = try run(["datasets", "verify", "--datasets", dir.path, "nothing"])
        #expect(unknown.status == 2)
    }
}

/// `classify`, `evaluate sentiment` and `train sentiment` end to end, with the shipped model.
@Suite("fieldtest sentiment commands")
struct SentimentCommandTests {
    let cli = FieldtestCLITests()

    @Test func classifyWritesALabelAndScorePerRow() throws {
        let dir = try cli.temporaryFolder()
        let input = dir.appendingPathComponent("tweets.csv")
        try "id,text\n1,\"I love this, best day ever :)\"\n2,worst service ever. never again\n3,the meeting is at 10\n"
            .write(to: input, atomically: false, encoding: .utf8)
        let r = try cli.run(["classify", "--input", input.path])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = r.stdout.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(rows.first == ["id", "label", "score"])
        #expect(rows.count == 4)
        #expect(rows.dropFirst().map { $0[1] }.allSatisfy { ["negative", "neutral", "positive"].contains($0) })
        #expect(rows[1][1] == "positive" && rows[2][1] == "negative")
        for row in rows.dropFirst() { #expect((-1...1).contains(Double(row[2]) ?? 99)) }
        // Binary labels: never neutral; a bad class name is a usage error.
        let binary = try cli.run(["classify", "--input", input.path, "--classes", "negative,positive"])
        #expect(binary.status == 0)
        #expect(!binary.stdout.contains(",neutral,"))
        let bad = try cli.run(["classify", "--input", input.path, "--classes", "negative,happy"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("'happy' is not a class"))
        // Any number of threads gives the same output; none is a usage error.
        #expect(try cli.run(["classify", "--input", input.path, "--jobs", "3"]).stdout == r.stdout)
        let noJobs = try cli.run(["classify", "--input", input.path, "--jobs", "0"])
        #expect(noJobs.status == 2)
        #expect(noJobs.stderr.contains("--jobs must be at least 1"))
    }

    @Test func classifyFindsTheShippedModelFromAnyDirectory() throws {
        // Run from a folder without `Datasets`: the executable finds its checkout's data.
        let dir = try cli.temporaryFolder()
        let input = dir.appendingPathComponent("tweets.csv")
        try "id,text\n1,\"I love this, best day ever :)\"\n2,worst service ever. never again\n".write(
            to: input, atomically: false, encoding: .utf8)
        let here = try cli.run(["classify", "--input", input.path], in: dir)
        #expect(here.status == 0, "\(here.stderr)")
        #expect(here.stdout == (try cli.run(["classify", "--input", input.path])).stdout)
        #expect(here.stdout.contains("1,positive,") && here.stdout.contains("2,negative,"))
        // A model file that is not there is an input error that names it.
        let missing = try cli.run(["classify", "--model", "none.ftsm", "--input", input.path], in: dir)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("none.ftsm"))
    }

    @Test func evaluateReadsTheOriginalSentiment140LayoutAndReportsPerClass() throws {
        let dir = try cli.temporaryFolder()
        let test = dir.appendingPathComponent("testdata.manual.csv")
        try """
        "4","1","Mon May 11 03:17:40 UTC 2009","kindle2","a","I love my Kindle2. It is the best thing ever"
        "4","2","Mon May 11 03:18:03 UTC 2009","kindle2","b","What a wonderful, happy day with friends"
        "0","3","Mon May 11 03:18:54 UTC 2009","aig","c","I hate this awful economy, terrible news"
        "0","4","Mon May 11 03:19:04 UTC 2009","aig","d","worst customer service ever, so angry"
        "2","5","Mon May 11 03:21:41 UTC 2009","lebron","e","Lebron plays tonight at 8"

        """.write(to: test, atomically: false, encoding: .utf8)
        let report = dir.appendingPathComponent("figures.csv")
        let r = try cli.run([
            "evaluate", "sentiment", "--input", test.path, "--classes", "negative,positive", "--output", report.path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let all = r.stdout.split(separator: "\n").first { $0.hasPrefix("all ") }
        // neutral left out
        #expect(all?.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first == "4")
        let figures = try String(contentsOf: report, encoding: .utf8)
        #expect(figures.hasPrefix("source,classes,metric,value\n"))
        #expect(figures.contains("all,negative+positive,n,4\n"))
        #expect(figures.contains("all,negative+positive,accuracy,1.0\n"))
        // A bad polarity is located by file, line and field, and nothing is written.
        try "\"4\",\"1\",\"d\",\"q\",\"u\",\"fine\"\n\"3\",\"2\",\"d\",\"q\",\"u\",\"meh\"\n".write(
            to: test, atomically: false, encoding: .utf8)
        let bad = try cli.run([
            "evaluate", "sentiment", "--input", test.path, "--output", dir.appendingPathComponent("none.csv").path,
        ])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("testdata.manual.csv:2") && bad.stderr.contains("polarity"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("none.csv").path))
    }

    @Test func theShippedModelOnTheReservedAirlineTweets() throws {
        // The 1,547 airline tweets of the evaluation share were never trained on (Datasets/models/README.md).
        let dir = try cli.temporaryFolder()
        let report = dir.appendingPathComponent("reserved.csv")
        let airline = FieldtestCLITests.repo.appendingPathComponent("Datasets/tweets/airline_Tweets.csv")
        let r = try cli.run([
            "evaluate", "sentiment", "--input", airline.path, "--reserved-only", "--output", report.path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let figures = try String(contentsOf: report, encoding: .utf8)
        #expect(figures.contains("airline,negative+neutral+positive,n,1547\n"))
        let binary = figures.split(separator: "\n").first {
            $0.hasPrefix("airline,negative+neutral+positive,binary_accuracy,")
        }
        let value = try #require(binary.flatMap { Double($0.split(separator: ",").last ?? "") })
        #expect(value > 0.9 && value < 0.95)
    }

    @Test func trainRejectsAnUnknownReservedSource() throws {
        let dir = try cli.temporaryFolder()
        let data = dir.appendingPathComponent("labelled.csv")
        try "text,label\ngood,positive\nbad,negative\n".write(to: data, atomically: false, encoding: .utf8)
        let r = try cli.run([
            "train", "sentiment", "--input", data.path, "--output", dir.appendingPathComponent("m.ftsm").path,
            "--reserve", "airlines",
        ])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--reserve takes 'none' or sources"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("m.ftsm").path))
    }

    @Test func trainIsReproducibleAndItsModelClassifies() throws {
        let dir = try cli.temporaryFolder()
        let data = dir.appendingPathComponent("labelled.csv")
        var csv = "text,label\n"
        for k in 0..<30 {
            csv += "great happy day \(k),positive\nawful sad news \(k),negative\nthe bus leaves at \(k),neutral\n"
        }
        try csv.write(to: data, atomically: false, encoding: .utf8)
        let a = dir.appendingPathComponent("a.ftsm")
        let b = dir.appendingPathComponent("b.ftsm")
        for model in [a, b] {
            let r = try cli.run([
                "train", "sentiment", "--input", data.path, "--output", model.path, "--seed", "7", "--dev-fraction",
                "0.2",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.contains("development split"))
        }
        #expect(try Data(contentsOf: a) == Data(contentsOf: b))
        let tweets = dir.appendingPathComponent("t.csv")
        try "id,text\n1,great happy day\n2,awful sad news\n".write(to: tweets, atomically: false, encoding: .utf8)
        let r = try cli.run(["classify", "--model", a.path, "--input", tweets.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("1,positive,") && r.stdout.contains("2,negative,"))
    }
}
