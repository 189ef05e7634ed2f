import Foundation
import Testing

/// `fieldtest evaluate <capability>`: the CSV, the exit codes and the located errors.
@Suite("fieldtest evaluate")
struct EvaluateCLITests {
    let cli = FieldtestCLITests()

    @Test func evaluateWritesItsFiguresAndExits2OnBadInputOrUsage() throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "id,latitude,longitude,date,timezone\nparis,48.85,2.35,2024-06-21,Europe/Paris\n"
            .write(to: dir.appendingPathComponent("in.csv"), atomically: false, encoding: .utf8)
        var r = try cli.run(["evaluate", "sun", "--input", "in.csv"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("capability,system,metric,scope,value,unit,rows\nsun,builtin,rows,all,1,count,1\n"))
        #expect(r.stdout.contains("\nsun,builtin,compared,sunrise,1,count,1\n"), "\(r.stdout)")

        r = try cli.run(["evaluate", "sun", "--input", "in.csv", "--output", "in.csv"], in: dir)
        #expect(r.status == 2 && r.stderr.contains("in.csv"), "\(r.stderr)")

        try "id,latitude,longitude,date,timezone\nx,95,2.35,2024-06-21,Europe/Paris\n"
            .write(to: dir.appendingPathComponent("bad.csv"), atomically: false, encoding: .utf8)
        r = try cli.run(["evaluate", "sun", "--input", "bad.csv"], in: dir)
        #expect(r.status == 2 && r.stderr.contains("bad.csv:2:"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)

        r = try cli.run(["evaluate", "route", "--input", "in.csv"], in: dir)
        #expect(r.status == 2 && r.stderr.contains("evaluate route needs the map: --graph"), "\(r.stderr)")

        r = try cli.run(["evaluate", "sun", "--input", "in.csv", "--system", "no-such-program-fieldtest"], in: dir)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stdout.isEmpty)

        try "text,label\nI love this,positive\nI hate this,negative\n"
            .write(to: dir.appendingPathComponent("t.csv"), atomically: false, encoding: .utf8)
        r = try cli.run(
            ["evaluate", "sentiment", "--input", "t.csv", "--system", "builtin", "--output", "fig.csv"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let figures = try String(contentsOf: dir.appendingPathComponent("fig.csv"), encoding: .utf8)
        #expect(figures.contains("\nsentiment,builtin,accuracy,all,"))
        // Without --system: the model report, as before.
        r = try cli.run(["evaluate", "sentiment", "--input", "t.csv"], in: dir)
        #expect(r.status == 0 && r.stdout.contains("all"), "\(r.stderr)")

        r = try cli.run(["evaluate", "--help"], in: dir)
        for name in ["sentiment", "sun", "route", "locate"] { #expect(r.stdout.contains("  \(name) ")) }
    }
}
