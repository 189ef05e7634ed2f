import Foundation
import Testing

/// `train`, `classify`, `evaluate`, `locate` and `route` on bad or risky input: a clear
/// message, exit code 2 and no file written or clobbered.
@Suite("fieldtest data commands: input checks")
struct DataCommandsCLITests {
    let cli = FieldtestCLITests()
    static let ujiTraining = FieldtestCLITests.repo.appendingPathComponent(
        "Datasets/positioning/ujiindoorloc_train_a.csv")

    /// The header and data rows `rows` (1-based) of the bundled UJIIndoorLoc training half, with
    /// `edit` applied to each row's fields.
    func ujiRows(_ rows: ClosedRange<Int>, edit: (inout [Substring]) -> Void = { _ in }) throws -> String {
        let lines = try String(contentsOf: Self.ujiTraining, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        var out = String(lines[0]) + "\n"
        for line in lines[rows] {
            var fields = line.split(separator: ",", omittingEmptySubsequences: false)
            edit(&fields)
            out += fields.joined(separator: ",") + "\n"
        }
        return out
    }

    /// A three-class `text,label` CSV.
    static let labelledCSV: String = {
        var csv = "text,label\n"
        for k in 0..<20 {
            csv += "great happy day \(k),positive\nawful sad news \(k),negative\nthe bus leaves at \(k),neutral\n"
        }
        return csv
    }()

    @Test("an output path naming an input file is refused (exit 2) and the input is left as it was")
    func outputOverInputIsRefused() throws {
        let dir = try cli.temporaryFolder()
        let data = dir.appendingPathComponent("labelled.csv")
        try Self.labelledCSV.write(to: data, atomically: false, encoding: .utf8)
        let original = try Data(contentsOf: data)

        var r = try cli.run(["train", "sentiment", "--input", "labelled.csv", "--output", "./labelled.csv"], in: dir)
        #expect(r.status == 2)
        #expect(
            r.stderr.contains(
                "error: --output ./labelled.csv is the input file --input labelled.csv; writing it would destroy the input"
            ))
        #expect(try Data(contentsOf: data) == original)

        let model = dir.appendingPathComponent("m.ftsm")
        r = try cli.run(["train", "sentiment", "--input", data.path, "--output", model.path])
        #expect(r.status == 0, "\(r.stderr)")
        let modelBytes = try Data(contentsOf: model)

        let tweets = dir.appendingPathComponent("tw.csv")
        try "id,text\n1,great happy day\n".write(to: tweets, atomically: false, encoding: .utf8)
        let tweetBytes = try Data(contentsOf: tweets)
        r = try cli.run(["classify", "--model", "m.ftsm", "--input", "tw.csv", "--output", "./tw.csv"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("is the input file --input tw.csv"))
        #expect(try Data(contentsOf: tweets) == tweetBytes)
        // A hard link is the same file under another name.
        let link = dir.appendingPathComponent("link.csv")
        try FileManager.default.linkItem(at: tweets, to: link)
        r = try cli.run(["classify", "--model", "m.ftsm", "--input", "tw.csv", "--output", "link.csv"], in: dir)
        #expect(r.status == 2)
        #expect(try Data(contentsOf: tweets) == tweetBytes)
        r = try cli.run(["classify", "--model", "m.ftsm", "--input", "tw.csv", "--output", "sub/../m.ftsm"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("is the input file --model m.ftsm"))

        r = try cli.run(
            ["evaluate", "sentiment", "--input", "labelled.csv", "--model", "m.ftsm", "--output", "m.ftsm"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("is the input file --model m.ftsm"))
        #expect(try Data(contentsOf: model) == modelBytes)

        let train = dir.appendingPathComponent("train.csv")
        try ujiRows(1...20).write(to: train, atomically: false, encoding: .utf8)
        let trainBytes = try Data(contentsOf: train)
        r = try cli.run(["locate", "--train", "train.csv", "--input", "train.csv", "--output", train.path], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("is the input file --train train.csv"))
        #expect(try Data(contentsOf: train) == trainBytes)

        let queries = dir.appendingPathComponent("q.csv")
        try "id,from_lat,from_lon,to_lat,to_lon,profile\n".write(to: queries, atomically: false, encoding: .utf8)
        r = try cli.run(["route", "--graph", "map.osm", "--queries", "q.csv", "--output", "q.csv"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("is the input file --queries q.csv"))
        #expect(try String(contentsOf: queries, encoding: .utf8) == "id,from_lat,from_lon,to_lat,to_lon,profile\n")
    }

    @Test("locate: a huge LONGITUDE is a located load error, not a crash")
    func locateHugeCoordinate() throws {
        let dir = try cli.temporaryFolder()
        let train = dir.appendingPathComponent("train.csv")
        let input = dir.appendingPathComponent("in.csv")
        // Column 521 (index 520) is LONGITUDE.
        try ujiRows(1...200) { $0[520] = "1e20" }.write(to: train, atomically: false, encoding: .utf8)
        try ujiRows(201...210).write(to: input, atomically: false, encoding: .utf8)
        let r = try cli.run(["locate", "--train", "train.csv", "--input", "in.csv"], in: dir)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("train.csv:2: error: field 'LONGITUDE': must be projected metres within ±100000000"))
        #expect(!r.stderr.contains("Fatal error"))
    }

    @Test(
        "locate: a fingerprint with no access point detected is reported as no_signal; cross-validation needs two phones"
    )
    func locateNoSignalAndCrossValidation() throws {
        let dir = try cli.temporaryFolder()
        let train = dir.appendingPathComponent("train.csv")
        let input = dir.appendingPathComponent("in.csv")
        try ujiRows(1...200).write(to: train, atomically: false, encoding: .utf8)
        var k = 0
        try ujiRows(201...203) { fields in
            k += 1
            if k == 2 { for i in 0..<520 { fields[i] = "100" } }
        }.write(to: input, atomically: false, encoding: .utf8)
        var r = try cli.run(["locate", "--train", "train.csv", "--input", "in.csv"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0] == "row,longitude,latitude,floor,building,status")
        #expect(lines[1].hasSuffix(",ok") && lines[3].hasSuffix(",ok"))
        #expect(lines[2] == "2,,,,,no_signal")
        #expect(r.stderr.contains("2 fingerprints:"))
        #expect(r.stderr.contains("1 fingerprint(s) with no access point detected"))

        r = try cli.run(["locate", "--train", "train.csv", "--cross-validate", "phone"], in: dir)
        #expect(r.status == 2)
        #expect(
            r.stderr.contains(
                "leave-one-phone-out cross-validation needs labelled fingerprints from at least two phones, the training data has 1"
            ))
        #expect(!r.stderr.contains("the training set is empty"))
    }

    @Test("train: out-of-range hyper-parameters, zero weights and missing classes fail and write nothing")
    func trainRefusesBrokenModels() throws {
        let dir = try cli.temporaryFolder()
        let data = dir.appendingPathComponent("labelled.csv")
        try Self.labelledCSV.write(to: data, atomically: false, encoding: .utf8)
        let model = dir.appendingPathComponent("m.ftsm")
        let cases: [([String], String)] = [
            (
                ["--char-bits", "10", "--learning-rate", "1e300"],
                "error: --learning-rate is 1e+300; it must be above 0 and at most 10"
            ),
            (["--l2", "1e300"], "error: --l2 is 1e+300; it must be in 0…1"),
            (["--averaged-epochs", "7"], "error: --averaged-epochs is 7; it must be in 0…6"),
            (["--source-weight", "labelledCSV=1e308"], "error: --source-weight labelledCSV=1e+308 is out of range"),
            (["--source-weight", "labelledCSV=0"], "error: every training tweet has weight 0"),
            (["--pos-neg-only", "emoticons"], "error: --pos-neg-only takes 'none' or sources separated by commas"),
        ]
        for (options, message) in cases {
            let r = try cli.run(["train", "sentiment", "--input", data.path, "--output", model.path] + options)
            #expect(r.status == 2, "\(options)")
            #expect(r.stderr.contains(message), "\(options): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: model.path))
        }
        let positives = dir.appendingPathComponent("ponly.csv")
        try "text,label\ngreat day,positive\nlove it,positive\n".write(
            to: positives, atomically: false, encoding: .utf8)
        let r = try cli.run(["train", "sentiment", "--input", positives.path, "--output", model.path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("error: the training data has no negative, neutral examples"))
        #expect(!FileManager.default.fileExists(atPath: model.path))
    }

    @Test("messages name the real problem: header-only file, directory, empty selection")
    func clearMessages() throws {
        let dir = try cli.temporaryFolder()
        let data = dir.appendingPathComponent("labelled.csv")
        try Self.labelledCSV.write(to: data, atomically: false, encoding: .utf8)
        let headerOnly = dir.appendingPathComponent("header.csv")
        try "text,label\n".write(to: headerOnly, atomically: false, encoding: .utf8)
        var r = try cli.run(
            ["train", "sentiment", "--input", "labelled.csv", "header.csv", "--output", "m.ftsm"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("header.csv: error: no labelled tweets in this file"))

        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("folder.csv"), withIntermediateDirectories: true)
        r = try cli.run(["classify", "--input", "folder.csv"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("folder.csv: error: cannot read file: it is a directory"))
        #expect(!r.stderr.contains("NSCocoaErrorDomain"))
        r = try cli.run(["route", "--graph", ".", "--queries", "q.csv"], in: dir)
        #expect(r.status == 2)
        #expect(
            r.stderr.contains(
                ".: error: cannot read file: it is a directory; give an .osm (OSM XML), .osm.pbf or .geojson map file"))

        // Only neutral tweets, none of them in the reserved share, then classes that exclude them.
        let neutral = dir.appendingPathComponent("neutral.csv")
        try "text,label\nthe bus leaves at 8,neutral\n".write(to: neutral, atomically: false, encoding: .utf8)
        r = try cli.run(["evaluate", "sentiment", "--input", "neutral.csv", "--reserved-only"], in: dir)
        #expect(r.status == 2)
        #expect(
            r.stderr.contains(
                "neutral.csv: error: no rows selected: none of the 1 labelled tweets is in the evaluation share"))
        r = try cli.run(["evaluate", "sentiment", "--input", "neutral.csv", "--classes", "negative,positive"], in: dir)
        #expect(r.status == 2)
        #expect(
            r.stderr.contains(
                "neutral.csv: error: no rows selected: --classes negative, positive excludes every label present (neutral)"
            ))
    }

    @Test("classify: text after a closing quote is a located CSV error")
    func classifyRejectsTextAfterQuote() throws {
        let dir = try cli.temporaryFolder()
        try "id,text\n1,\"a\"b\n".write(to: dir.appendingPathComponent("tw.csv"), atomically: false, encoding: .utf8)
        let r = try cli.run(["classify", "--input", "tw.csv"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("tw.csv:2: error: field 'text': text after the closing quote"))
    }
}
