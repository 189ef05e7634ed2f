import Foundation
import Testing

/// `compare`'s long table, run folders and HTML report through the built executable, on a tweet stream
/// written here (no bundled dataset), recomputing the paired figures from the two items.csv files.
@Suite("fieldtest compare: paired statistics")
struct CompareCLITests {
    let cli = FieldtestCLITests()
    static let toy = FieldtestCLITests.repo.appendingPathComponent(
        "Tests/CapabilitiesTests/Fixtures/toy_sentiment.py"
    ).path

    /// 300 labelled tweets from a fixed linear congruential sequence: cue words the toy system reads,
    /// labels that agree with them about two times in three.
    static func tweets() -> String {
        let positive = ["good", "great", "love", "thanks", "awesome"]
        let negative = ["bad", "late", "delayed", "worst", "hate"]
        let filler = ["flight", "crew", "seat", "gate", "bag", "today", "again", "plane"]
        var x: UInt64 = 20_261_128
        func next(_ n: Int) -> Int {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((x >> 33) % UInt64(n))
        }
        var text = "tweet_id,airline_sentiment,negativereason,airline,text,tweet_created\n"
        for i in 0..<300 {
            let mood = next(3)  // 0 negative, 1 neutral, 2 positive
            var words = (0..<4).map { _ in filler[next(filler.count)] }
            if mood == 0 { words.insert(negative[next(negative.count)], at: next(4)) }
            if mood == 2 { words.insert(positive[next(positive.count)], at: next(4)) }
            let label =
                next(3) == 0
                ? ["negative", "neutral", "positive"][next(3)] : ["negative", "neutral", "positive"][mood]
            text +=
                "\(9_000_000 + i),\(label),,Test Air,@TestAir \(words.joined(separator: " ")) \(i),2/24/2015 11:35\n"
        }
        return text
    }

    static let scenario = """
        version: 1
        name: mic
        app: micity
        seed: 5
        time: {start: 2023-02-10T14:00:00-06:00, duration: 6m, timezone: America/Chicago}
        datasets:
          - {name: my-tweets, path: tweets.csv, format: airline-tweets}
        devices:
          - {name: phone, gps: urban, network: lte, position: {latitude: 40.8136, longitude: -96.7026}}
        feeds:
          - {kind: tweet-batch, every: 80s, dataset: my-tweets, size: 100}
        requirements: [MIC-14]

        """

    /// `items.csv` rows of `metric` by item id: whether the answer was right.
    func correctness(_ file: URL, metric: String) throws -> [String: Bool] {
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.first == "case,requirement,metric,item,expected,answer,correct,error")
        var out: [String: Bool] = [:]
        for line in lines.dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 8, f[1] == "MIC-14", f[2] == metric else { continue }
            out[f[3]] = f[6] == "true"
        }
        return out
    }

    /// The rows of compare's CSV as column → value maps.
    func table(_ file: URL) throws -> [[String: String]] {
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Dictionary(uniqueKeysWithValues: zip(header, f))
        }
    }

    @Test func compareKeepsEachRunAndGivesMcNemarForAccuracyThatTheItemsRecompute() throws {
        let dir = try cli.temporaryFolder()
        try Self.tweets().write(to: dir.appendingPathComponent("tweets.csv"), atomically: true, encoding: .utf8)
        try Self.scenario.write(to: dir.appendingPathComponent("mic.yaml"), atomically: true, encoding: .utf8)
        let r = try cli.run(
            [
                "compare", "mic.yaml", "--capability", "sentiment", "--candidate", "builtin=builtin",
                "--candidate", "other=python3 \(Self.toy)", "--output", "c.csv", "--out", "cmp", "--report", "c.html",
            ], in: dir)
        // Exit 1 only when a system fails a checked row (posneg_accuracy's threshold), as run does.
        #expect([0, 1].contains(r.status) && !r.stderr.contains("error"), "\(r.stderr)")
        let header =
            "scenario,requirement,metric,system,unit,value,samples,status,ci_low,ci_high,delta,delta_ci_low,"
            + "delta_ci_high,p_value,method,verdict\n"
        #expect(try String(contentsOf: dir.appendingPathComponent("c.csv"), encoding: .utf8).hasPrefix(header))
        for name in ["builtin", "other"] {
            for file in ["metrics.csv", "items.csv", "run.json"] {
                #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("cmp/\(name)/\(file)").path))
            }
        }
        let reference = try correctness(dir.appendingPathComponent("cmp/builtin/items.csv"), metric: "accuracy")
        let other = try correctness(dir.appendingPathComponent("cmp/other/items.csv"), metric: "accuracy")
        let common = Set(reference.keys).intersection(other.keys)
        #expect(common.count > 200)
        let b = common.filter { reference[$0]! && !other[$0]! }.count
        let c = common.filter { !reference[$0]! && other[$0]! }.count
        #expect(b + c > 0)
        // Two-sided exact binomial test of the discordant pairs, summed here.
        let n = b + c
        var tail = 0.0
        var term = pow(0.5, Double(n))
        for k in 0...min(b, c) {
            tail += term
            term *= Double(n - k) / Double(k + 1)
        }
        let p = min(1, 2 * tail)
        let rows = try table(dir.appendingPathComponent("c.csv"))
        let ref = try #require(
            rows.first { $0["requirement"] == "MIC-14" && $0["metric"] == "accuracy" && $0["system"] == "builtin" })
        #expect(ref["verdict"] == "reference")
        let row = try #require(
            rows.first { $0["requirement"] == "MIC-14" && $0["metric"] == "accuracy" && $0["system"] == "other" })
        #expect(row["method"] == "mcnemar_exact")
        let pValue = try #require(Double(row["p_value"] ?? ""))
        #expect(abs(pValue - p) <= 1e-12 * max(1, p), "b \(b) c \(c)")
        let delta = try #require(Double(row["delta"] ?? ""))
        #expect(abs(delta - Double(c - b) / Double(common.count)) < 1e-12)
        let low = try #require(Double(row["delta_ci_low"] ?? ""))
        let high = try #require(Double(row["delta_ci_high"] ?? ""))
        #expect(low <= delta && delta <= high && low < high)
        let expected = p >= 0.05 ? "no_significant_difference" : (c > b ? "better" : "worse")
        #expect(row["verdict"] == expected)
        // The value interval of a share: Wilson, around the value.
        let value = try #require(Double(row["value"] ?? ""))
        #expect(
            try #require(Double(row["ci_low"] ?? "")) < value && value < (try #require(Double(row["ci_high"] ?? ""))))
        let html = try String(contentsOf: dir.appendingPathComponent("c.html"), encoding: .utf8)
        #expect(html.contains("aria-label=\"forest plot of MIC-14 accuracy"))
    }

    @Test func compareOutRefusesANameThatIsNoFolderAndAFolderHoldingOtherFiles() throws {
        let dir = try cli.temporaryFolder()
        try Self.tweets().write(to: dir.appendingPathComponent("tweets.csv"), atomically: true, encoding: .utf8)
        try Self.scenario.write(to: dir.appendingPathComponent("mic.yaml"), atomically: true, encoding: .utf8)
        let base = ["compare", "mic.yaml", "--capability", "sentiment", "--out", "cmp"]
        var r = try cli.run(base + ["--candidate", "a/b=builtin"], in: dir)
        #expect(r.status == 2 && r.stderr.contains("cannot name a folder under --out"), "\(r.stderr)")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("cmp/a"), withIntermediateDirectories: true)
        try "keep".write(to: dir.appendingPathComponent("cmp/a/notes.txt"), atomically: true, encoding: .utf8)
        r = try cli.run(base + ["--candidate", "a=builtin"], in: dir)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("notes.txt"), "\(r.stderr)")
        #expect(try String(contentsOf: dir.appendingPathComponent("cmp/a/notes.txt"), encoding: .utf8) == "keep")
    }

    @Test func aSweepOverSeedsWritesTheMeanAcrossSeedsWithItsTInterval() throws {
        let dir = try cli.temporaryFolder()
        try Self.tweets().write(to: dir.appendingPathComponent("tweets.csv"), atomically: true, encoding: .utf8)
        try (Self.scenario + "sweep:\n  seeds: [1, 2, 3]\n").write(
            to: dir.appendingPathComponent("mic.yaml"), atomically: true, encoding: .utf8)
        let r = try cli.run(["run", "mic.yaml", "--out", "o", "--report", "r.html"], in: dir)
        #expect([0, 1].contains(r.status), "\(r.stderr)")
        let lines = try String(contentsOf: dir.appendingPathComponent("o/mic/seeds.csv"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(lines.first == "scenario,requirement,metric,unit,seeds,mean,sd,ci_low,ci_high")
        let metrics = try String(contentsOf: dir.appendingPathComponent("o/mic/metrics.csv"), encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        // The accuracy of each seed, from metrics.csv; its mean and t-interval recomputed here.
        let values = metrics.filter { $0.count > 6 && $0[3] == "MIC-14" && $0[4] == "accuracy" }.compactMap {
            Double($0[6])
        }
        #expect(values.count == 3)
        let row = try #require(lines.first { $0.hasPrefix("mic,MIC-14,accuracy,ratio,3,") })
        let f = row.split(separator: ",", omittingEmptySubsequences: false).compactMap { Double($0) }
        let mean = values.reduce(0, +) / 3
        let sd = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / 2).squareRoot()
        #expect(abs(f[1] - mean) < 1e-12 && abs(f[2] - sd) < 1e-12, "\(row)")
        if sd > 0 {
            let half = 4.302652729911275 * sd / 3.0.squareRoot()
            #expect(abs(f[3] - (mean - half)) < 1e-9 && abs(f[4] - (mean + half)) < 1e-9, "\(row)")
        }
        let html = try String(contentsOf: dir.appendingPathComponent("r.html"), encoding: .utf8)
        #expect(html.contains("Across seeds: mean with its 95 % t-interval"))
    }
}
