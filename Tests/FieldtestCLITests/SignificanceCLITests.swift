import Foundation
import Testing

/// `check` marks every regression significant or not, on the items both runs scored, and
/// `--fail-on significant` fails only on those.
@Suite("check: significance of regressions")
struct SignificanceCLITests {
    let cli = FieldtestCLITests()

    /// A run folder holding `metrics.csv` (one accuracy row) and `items.csv` (`right` of 2000 tweets right).
    func runFolder(_ name: String, right: Int, in dir: URL) throws -> URL {
        let folder = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let value = Double(right) / 2000
        try """
        scenario,run_id,seed,requirement,metric,kind,value,unit,threshold,comparator,status,samples,note
        s,\(name),1,MIC-14,accuracy,accuracy,\(value),ratio,,,info,2000,

        """.write(to: folder.appendingPathComponent("metrics.csv"), atomically: true, encoding: .utf8)
        var items = "case,requirement,metric,item,expected,answer,correct,error\n"
        for k in 0..<2000 {
            items += "s,MIC-14,accuracy,\(k),positive,\(k < right ? "positive" : "negative"),\(k < right),\n"
        }
        try items.write(to: folder.appendingPathComponent("items.csv"), atomically: true, encoding: .utf8)
        return folder.appendingPathComponent("metrics.csv")
    }

    @Test func failOnSignificantIgnoresATinyChangeAndFailsOnALargeOne() throws {
        let dir = try cli.temporaryFolder()
        let base = try runFolder("base", right: 1600, in: dir)
        let tiny = try runFolder("tiny", right: 1596, in: dir)
        let large = try runFolder("large", right: 1500, in: dir)

        let anyTiny = try cli.run(["check", tiny.path, "--baseline", base.path])
        #expect(anyTiny.status == 1, "\(anyTiny.stdout)\(anyTiny.stderr)")
        #expect(anyTiny.stdout.contains("McNemar exact p = 0.125 on 2000 paired items"), "\(anyTiny.stdout)")
        #expect(anyTiny.stdout.contains("significant (α = 0.05): 0 of 1 regressions"), "\(anyTiny.stdout)")
        let significantTiny = try cli.run(["check", tiny.path, "--baseline", base.path, "--fail-on", "significant"])
        #expect(significantTiny.status == 0, "\(significantTiny.stdout)\(significantTiny.stderr)")

        let significantLarge = try cli.run([
            "check", large.path, "--baseline", base.path, "--fail-on", "significant",
        ])
        #expect(significantLarge.status == 1, "\(significantLarge.stdout)\(significantLarge.stderr)")
        #expect(significantLarge.stdout.contains("significant (α = 0.05): 1 of 1 regressions"))

        let bad = try cli.run(["check", tiny.path, "--baseline", base.path, "--fail-on", "some"])
        #expect(bad.status == 2 && bad.stderr.contains("--fail-on"), "\(bad.stderr)")
    }

    @Test func withoutItemsOrIntervalsTheSignificanceIsUnknownAndCounts() throws {
        let dir = try cli.temporaryFolder()
        let base = try runFolder("base", right: 1600, in: dir)
        let tiny = try runFolder("tiny", right: 1596, in: dir)
        try FileManager.default.removeItem(at: tiny.deletingLastPathComponent().appendingPathComponent("items.csv"))
        // No items beside this run, and a row without interval (written by hand): unknown, which fails.
        let r = try cli.run(["check", tiny.path, "--baseline", base.path, "--fail-on", "significant"])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("1 unknown"), "\(r.stdout)")
    }
}
