import Foundation
import Testing

/// End-to-end tests: run the built `fieldtest` executable and check its
/// output and exit code.
@Suite("fieldtest command line")
struct FieldtestCLITests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var executable: URL {
        // The test bundle sits in the products folder next to the executable.
        let products = Bundle.main.bundleURL
        let candidates = [products.appendingPathComponent("fieldtest"),
                          products.deletingLastPathComponent().appendingPathComponent("fieldtest"),
                          repo.appendingPathComponent(".build/debug/fieldtest")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    func run(_ arguments: [String], in directory: URL = repo) throws -> Result {
        let p = Process()
        p.executableURL = Self.executable
        p.arguments = arguments
        p.currentDirectoryURL = directory
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func helpListsSubcommands() throws {
        let r = try run(["--help"])
        #expect(r.status == 0)
        for name in ["run", "validate", "check", "merge", "datasets", "bench"] {
            #expect(r.stdout.contains("  \(name) "), "missing subcommand \(name)")
        }
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
        let quality = try #require(header.firstIndex(of: "quality_pct")), pm = try #require(header.firstIndex(of: "window_pm25_ugm3"))
        var hazy: [Double] = [], clean: [Double] = []
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

    @Test func validateReportsLocatedErrorsWithExitCode2() throws {
        let dir = try temporaryFolder()
        let file = dir.appendingPathComponent("bad.yaml")
        try "version: 1\nname: x\napp: skyscape\nseed: 1\nsensrs: []\n".write(to: file, atomically: true, encoding: .utf8)
        let r = try run(["validate", file.path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("bad.yaml:5:1: error: unknown key 'sensrs'"))
        #expect(r.stderr.contains("missing required key 'time'"))
    }

    @Test func checkDetectsAWorseRunAndAcceptsAnEqualOne() throws {
        let dir = try temporaryFolder()
        let header = "scenario,run_id,seed,requirement,metric,kind,value,unit,threshold,comparator,status,samples\n"
        let base = header + "s,a,1,SKY-P2,sunrise_error_max,accuracy,12,s,300,<=,pass,100\n"
        let worse = header + "s,b,1,SKY-P2,sunrise_error_max,accuracy,14,s,300,<=,pass,100\n"
        try base.write(to: dir.appendingPathComponent("base.csv"), atomically: true, encoding: .utf8)
        try worse.write(to: dir.appendingPathComponent("worse.csv"), atomically: true, encoding: .utf8)
        let same = try run(["check", dir.appendingPathComponent("base.csv").path, "--baseline", dir.appendingPathComponent("base.csv").path])
        #expect(same.status == 0)
        #expect(same.stdout.contains("check: 0 regressions, 0 improvements, 1 unchanged"))
        let regress = try run(["check", dir.appendingPathComponent("worse.csv").path, "--baseline", dir.appendingPathComponent("base.csv").path])
        #expect(regress.status == 1)
        #expect(regress.stdout.contains("REGRESSION"))
        let missing = try run(["check", dir.appendingPathComponent("worse.csv").path, "--baseline", dir.appendingPathComponent("nope.csv").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("missing baseline"))
        try "garbage,only\n1,2\n".write(to: dir.appendingPathComponent("bad.csv"), atomically: true, encoding: .utf8)
        let bad = try run(["check", dir.appendingPathComponent("bad.csv").path, "--baseline", dir.appendingPathComponent("base.csv").path])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("bad.csv:1: error: header must be exactly"))
    }

    /// Latency movement counts only against a baseline from the same machine (or when asked).
    @Test func checkComparesLatencyOnlyOnTheBaselinesMachine() throws {
        let dir = try temporaryFolder()
        let header = "scenario,run_id,seed,requirement,metric,kind,value,unit,threshold,comparator,status,samples\n"
        try (header + "s,a,1,SKY-P1,query_p95,latency,0.1,s,5,<=,pass,100\n")
            .write(to: dir.appendingPathComponent("base.csv"), atomically: true, encoding: .utf8)
        try (header + "s,b,1,SKY-P1,query_p95,latency,0.9,s,5,<=,pass,100\n")
            .write(to: dir.appendingPathComponent("slow.csv"), atomically: true, encoding: .utf8)
        let args = ["check", dir.appendingPathComponent("slow.csv").path, "--baseline", dir.appendingPathComponent("base.csv").path]
        let unknown = try run(args)
        #expect(unknown.status == 0)
        #expect(unknown.stderr.contains("latency rows are checked against their thresholds only"))
        let always = try run(args + ["--compare-latency", "always"])
        #expect(always.status == 1)
        #expect(always.stdout.contains("REGRESSION"))
        let bad = try run(args + ["--compare-latency", "sometimes"])
        #expect(bad.status == 64 || bad.status == 2)
    }

    @Test func datasetsVerifyFailsOnATamperedFile() throws {
        let dir = try temporaryFolder()
        let mapping = "0\tnegative\n1\tneutral\n2\tpositive\n"
        try mapping.write(to: dir.appendingPathComponent("m.txt"), atomically: true, encoding: .utf8)
        let good = "name,file,format,core,rows,sha256,license,origin\nmap,m.txt,tweeteval-mapping,classification,3,"
        // sha256 of `mapping` (sha256sum).
        let sha = "c0572796fbe261d8ea5fd16c5061076fbba49bc69fc865d6abccaf60daacee24"
        try (good + sha + ",MIT,test\n").write(to: dir.appendingPathComponent("MANIFEST.csv"), atomically: true, encoding: .utf8)
        let ok = try run(["datasets", "verify", "--datasets", dir.path])
        #expect(ok.status == 0)
        #expect(ok.stdout.contains("1 of 1 datasets verified"))
        try (mapping + "3\tunknown\n").write(to: dir.appendingPathComponent("m.txt"), atomically: true, encoding: .utf8)
        let r = try run(["datasets", "verify", "--datasets", dir.path])
        #expect(r.status == 1)
        #expect(r.stdout.contains("FAIL  map:"))
        let unknown = try run(["datasets", "verify", "--datasets", dir.path, "nothing"])
        #expect(unknown.status == 2)
    }
}
