import Foundation
import Testing

/// Verdicts that explain themselves, end to end: the requirement catalogue, the preflight's
/// warnings about what a scenario cannot exercise, `not_measured` rows with their note, per-item
/// outcomes and JUnit written whatever happened.
@Suite("Verdicts on the command line")
struct VerdictsCLITests {
    let cli = FieldtestCLITests()

    /// A SkyScape scenario on a place and station of no bundled scenario, written here: it asks for
    /// SKY-R1 (needs a restart) and SKY-A1 (needs `register`) without either.
    static func unexercisable(in folder: URL) throws -> URL {
        let file = folder.appendingPathComponent("nome.yaml")
        try """
        version: 1
        name: nome-evening
        app: skyscape
        seed: 3
        time: {start: 2023-01-24T22:00:00Z, duration: 2h, timezone: America/Nome}
        datasets: [noaa-lcd-lincoln-2023, world-cities, us-cities]
        devices:
          - {name: phone, gps: urban, network: lte, position: {latitude: 64.5, longitude: -165.4}}
        actors:
          - name: ana
            device: phone
            actions:
              - {at: 1m, do: add-favourite, place: "Lincoln"}
              - {at: 5m, every: 30m, do: view-details, place: "Lincoln"}
        requirements:
          - SKY-P2
          - SKY-R1
          - SKY-A1
        """.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func requirementsListsTheWholeCatalogueWithWhatExercisesIt() throws {
        let r = try cli.run(["requirements", "--format", "csv"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == "id,app,summary,spec_ref,metric,comparator,threshold,unit,exercised_by")
        let ids = Set(lines.dropFirst().map { String($0.prefix { $0 != "," }) })
        #expect(ids.count == 54)
        #expect(lines.contains { $0.hasPrefix("SKY-R1,") && $0.contains("devices[].restarts") })
        #expect(lines.contains { $0.hasPrefix("NAV-F2,") && $0.contains("devices[].connectivity offline period") })
        let one = try cli.run(["requirements", "navup"])
        #expect(one.status == 0 && one.stdout.contains("NAV-F15") && !one.stdout.contains("SKY-P2"))
        let json = try cli.run(["requirements", "--format", "json"])
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(Set((parsed ?? []).compactMap { $0["id"] as? String }).count == 54)
        let unknown = try cli.run(["requirements", "navupp"])
        #expect(unknown.status == 2 && unknown.stderr.contains("navup"))
    }

    /// docs/requirements.md is `requirements --format md`: regenerate it when a definition changes.
    @Test func requirementsDocumentIsGenerated() throws {
        let r = try cli.run(["requirements", "--format", "md"])
        #expect(r.status == 0)
        let doc = try String(
            contentsOf: FieldtestCLITests.repo.appendingPathComponent("docs/requirements.md"), encoding: .utf8)
        #expect(
            doc == r.stdout,
            "docs/requirements.md differs: run 'fieldtest requirements --format md --output docs/requirements.md'")
    }

    /// `validate` warns at the requirement's line about what the scenario cannot exercise, `--strict`
    /// refuses it, and `run` gives those requirements no verdict: `not_measured`, a note, exit 1.
    @Test func unexercisableRequirementsAreWarnedAboutAndNotMeasured() throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Self.unexercisable(in: folder)
        let v = try cli.run(["validate", file.path])
        #expect(v.status == 0, "\(v.stderr)")
        #expect(v.stderr.contains("nome.yaml:17:5: warning: requirement SKY-R1 cannot be measured"), "\(v.stderr)")
        #expect(v.stderr.contains("devices[].restarts"))
        #expect(v.stderr.contains("nome.yaml:18:5: warning: requirement SKY-A1 cannot be measured"))
        #expect(!v.stderr.contains("SKY-P2 cannot"))
        let strict = try cli.run(["validate", "--strict", file.path])
        #expect(strict.status == 2 && strict.stderr.contains("error: requirement SKY-R1"))

        let out = folder.appendingPathComponent("out")
        let junit = folder.appendingPathComponent("junit.xml")
        let r = try cli.run(["run", file.path, "--out", out.path, "--junit", junit.path])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("warning: requirement SKY-R1 cannot be measured"))
        #expect(r.stdout.contains("not measured"))
        let metrics = try String(contentsOf: out.appendingPathComponent("nome-evening/metrics.csv"), encoding: .utf8)
        let rows = metrics.split(separator: "\n").map(String.init)
        #expect(rows[0].hasSuffix(",status,samples,note,ci_low,ci_high,margin"))
        let unmeasured = rows.filter { $0.contains(",not_measured,") }
        #expect(unmeasured.contains { $0.contains("SKY-R1") && $0.contains("devices[].restarts") })
        #expect(unmeasured.contains { $0.contains("SKY-A1") })
        // No row anywhere has a verdict on zero samples.
        for row in rows.dropFirst() where row.contains(",pass,0,") || row.contains(",fail,0,") {
            Issue.record("a verdict on zero samples: \(row)")
        }
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("<skipped message=\"not measured (0 samples): "))
        // items.csv: one row per sunrise or sunset scored for SKY-P2.
        let items = try String(contentsOf: out.appendingPathComponent("nome-evening/items.csv"), encoding: .utf8)
        let itemRows = items.split(separator: "\n")
        #expect(itemRows[0] == "case,requirement,metric,item,expected,answer,correct,error")
        #expect(itemRows.contains { $0.hasPrefix("nome-evening,SKY-P2,sun_event_abs_error_max,") })
    }

    /// An invalid scenario exits 2 and still writes JUnit: one error test case with the message.
    @Test func junitIsWrittenForAnInvalidScenario() throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.yaml")
        try "version: 1\nname: bad\napp: skyscape\nsensrs: []\n".write(to: file, atomically: true, encoding: .utf8)
        let junit = folder.appendingPathComponent("junit.xml")
        let r = try cli.run([
            "run", file.path, "--out", folder.appendingPathComponent("out").path, "--junit", junit.path,
        ])
        #expect(r.status == 2)
        #expect(!r.stderr.contains("Error: error:"))
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("errors=\"1\""))
        #expect(xml.contains("<error message=\"") && xml.contains("sensrs"))
        // The JUnit path is never written over an input, even to report the error.
        let overScenario = try cli.run(["run", file.path, "--junit", file.path])
        #expect(overScenario.status == 2)
        #expect(try String(contentsOf: file, encoding: .utf8).hasPrefix("version: 1"))
    }
}

/// MIC-14 scores every labelled tweet of a stream the shipped model never trained on, and leaves
/// out only the tweets it did train on, recognised by text.
@Suite("MIC-14 on a stream of one's own")
struct WholeStreamCLITests {
    let cli = FieldtestCLITests()

    @Test func aStreamTheModelNeverSawIsScoredWhole() throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Synthetic tweets (seeded by their index), written here: no training source holds them.
        var csv = "text,label\n"
        let moods = [
            ("loved the quiet harbour walk", "positive"), ("the tram was late again", "negative"),
            ("the market opens at nine", "neutral"),
        ]
        for i in 0..<90 {
            let (text, label) = moods[i % 3]
            csv += "\"\(text), note \(i * 7919 % 1000)\",\(label)\n"
        }
        // One tweet the shipped model trained on (the first TweetEval validation tweet): left out, and counted.
        let airline = try String(
            contentsOf: FieldtestCLITests.repo.appendingPathComponent("Datasets/tweets/tweeteval_val_text.txt"),
            encoding: .utf8
        ).split(separator: "\n")[0]
        csv += "\"\(airline.replacingOccurrences(of: "\"", with: "\"\""))\",neutral\n"
        try csv.write(to: folder.appendingPathComponent("harbour.csv"), atomically: true, encoding: .utf8)
        let scenario = folder.appendingPathComponent("harbour.yaml")
        try """
        version: 1
        name: harbour-day
        app: micity
        seed: 9
        time: {start: 2024-05-04T09:00:00+02:00, duration: 20m, timezone: Europe/Oslo}
        datasets:
          - {name: harbour, path: harbour.csv, format: tweets-csv}
        devices:
          - {name: phone, gps: urban, network: wifi, position: {latitude: 59.91, longitude: 10.75}}
        actors:
          - {name: ola, device: phone, actions: [{at: 1m, do: view-mood}]}
        feeds:
          - {kind: tweet-batch, every: 1m, dataset: harbour, size: 100}
        requirements: [MIC-14]
        """.write(to: scenario, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out")
        let r = try cli.run(["run", scenario.path, "--out", out.path], in: folder)
        #expect(r.status <= 1, "\(r.stderr)")
        let metrics = try String(contentsOf: out.appendingPathComponent("harbour-day/metrics.csv"), encoding: .utf8)
        let accuracy = try #require(metrics.split(separator: "\n").first { $0.contains("MIC-14,accuracy,") })
        #expect(
            accuracy.split(separator: ",", omittingEmptySubsequences: false)[11] == "90",
            "every tweet the model never saw is scored: \(accuracy)")
        let left = try #require(metrics.split(separator: "\n").first { $0.contains("tweets_left_out_trained_on") })
        #expect(left.split(separator: ",", omittingEmptySubsequences: false)[6] == "1")
        let items = try String(contentsOf: out.appendingPathComponent("harbour-day/items.csv"), encoding: .utf8)
        #expect(items.split(separator: "\n").filter { $0.hasPrefix("harbour-day,MIC-14,accuracy,") }.count == 90)
        let run = try String(contentsOf: out.appendingPathComponent("harbour-day/run.json"), encoding: .utf8)
        #expect(run.contains("except those the shipped model trained on"))
    }
}

/// `evaluate … --items FILE`: one row per input item, answered or not.
@Suite("evaluate --items")
struct EvaluateItemsCLITests {
    let cli = FieldtestCLITests()

    @Test func oneRowPerItemEvenWhenTheSystemCrashes() throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("l.csv")
        try "text,label\n\"good day\",positive\n\"awful delay\",negative\n\"meeting at nine\",neutral\n"
            .write(to: input, atomically: true, encoding: .utf8)
        let items = folder.appendingPathComponent("items.csv")
        let ok = try cli.run([
            "evaluate", "sentiment", "--input", input.path, "--system", "builtin", "--items", items.path,
            "--output", folder.appendingPathComponent("f.csv").path,
        ])
        #expect(ok.status == 0, "\(ok.stderr)")
        var rows = try String(contentsOf: items, encoding: .utf8).split(separator: "\n")
        #expect(rows[0] == "id,scope,expected,answer,correct,error,note")
        #expect(rows.count == 4 && rows[1].hasPrefix("1,all,positive,"))
        // A system that dies at once answers nothing: every item is there, unanswered.
        let dying = folder.appendingPathComponent("dying.py")
        try "import sys\nsys.exit(3)\n".write(to: dying, atomically: true, encoding: .utf8)
        let crashed = try cli.run([
            "evaluate", "sentiment", "--input", input.path, "--system", "python3 \(dying.path)", "--items", items.path,
            "--output", folder.appendingPathComponent("f.csv").path,
        ])
        #expect(crashed.status != 0)
        if crashed.status == 1 {
            rows = try String(contentsOf: items, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            #expect(rows.filter { $0.hasSuffix(",,,,") }.count == 3, "\(rows)")
        }
        // --items may not name an input.
        let over = try cli.run([
            "evaluate", "sentiment", "--input", input.path, "--system", "builtin", "--items", input.path,
        ])
        #expect(over.status == 2)
        #expect(try String(contentsOf: input, encoding: .utf8).hasPrefix("text,label"))
    }
}
