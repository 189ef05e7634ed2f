import Foundation
import Testing

/// `sun`, `score` and `train` on risky input: outputs never replace inputs.
@Suite("fieldtest sun, score and train: input checks")
struct SunScoreTrainCLITests {
    let cli = FieldtestCLITests()
    static let datasets = FieldtestCLITests.repo.appendingPathComponent("Datasets")

    @Test("sun, score and train refuse an --output naming one of their inputs, lexicons and dataset files included")
    func outputOverInputIsRefused() throws {
        let dir = try cli.temporaryFolder()
        let places = dir.appendingPathComponent("x.csv")
        try "id,latitude,longitude,date,timezone\np,48.85,2.35,2024-06-21,Europe/Paris\n".write(
            to: places, atomically: false, encoding: .utf8)
        let placesBytes = try Data(contentsOf: places)
        var r = try cli.run(["sun", "--input", "x.csv", "--output", "x.csv"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("error: --output x.csv is the input file --input x.csv"))
        #expect(try Data(contentsOf: places) == placesBytes)

        let weather = dir.appendingPathComponent("w.csv")
        try "location_id,latitude,longitude,time,cloud_low_pct\na,10,-90.5,2021-06-01T00:00:00Z,10\n".write(
            to: weather, atomically: false, encoding: .utf8)
        let weatherBytes = try Data(contentsOf: weather)
        r = try cli.run(["score", "--weather", "w.csv", "--output", "./w.csv"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("is the input file --weather w.csv"))
        #expect(try Data(contentsOf: weather) == weatherBytes)

        // --dataset: the resolved file of a copied datasets folder.
        let folder = dir.appendingPathComponent("data")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("weather"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.datasets.appendingPathComponent("MANIFEST.csv"), to: folder.appendingPathComponent("MANIFEST.csv"))
        let tmy2 = folder.appendingPathComponent("weather/12839.tm2")
        try FileManager.default.copyItem(at: Self.datasets.appendingPathComponent("weather/12839.tm2"), to: tmy2)
        let tmy2Bytes = try Data(contentsOf: tmy2)
        r = try cli.run(
            ["score", "--dataset", "tmy2-miami", "--datasets", "data", "--output", "data/weather/12839.tm2"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("is the input file --dataset"), "\(r.stderr)")
        #expect(try Data(contentsOf: tmy2) == tmy2Bytes)

        // train: the lexicon files are inputs too.
        try FileManager.default.copyItem(
            at: Self.datasets.appendingPathComponent("lexicons"), to: dir.appendingPathComponent("lex"))
        let vader = dir.appendingPathComponent("lex/vader_lexicon.txt")
        let vaderBytes = try Data(contentsOf: vader)
        try "text,label\ngreat day,positive\nawful news,negative\nthe bus,neutral\n"
            .write(to: dir.appendingPathComponent("small.csv"), atomically: false, encoding: .utf8)
        r = try cli.run(
            ["train", "sentiment", "--input", "small.csv", "--output", "lex/vader_lexicon.txt", "--lexicons", "lex"],
            in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("is the input file --lexicons lex/vader_lexicon.txt"), "\(r.stderr)")
        #expect(try Data(contentsOf: vader) == vaderBytes)
        // The default lexicon folder, <datasets>/lexicons.
        try FileManager.default.copyItem(
            at: Self.datasets.appendingPathComponent("lexicons"), to: folder.appendingPathComponent("lexicons"))
        let defaultVader = folder.appendingPathComponent("lexicons/vader_lexicon.txt")
        r = try cli.run(
            [
                "train", "sentiment", "--input", "small.csv", "--output", "data/lexicons/vader_lexicon.txt",
                "--datasets", "data",
            ], in: dir)
        #expect(r.status == 2)
        #expect(
            r.stderr.contains("is the input file lexicon ") && r.stderr.contains("data/lexicons/vader_lexicon.txt;"),
            "\(r.stderr)")
        #expect(try Data(contentsOf: defaultVader) == vaderBytes)
    }

    @Test("score --year is checked against 1900…2100 with every input, the same way")
    func scoreYearIsCheckedConsistently() throws {
        let dir = try cli.temporaryFolder()
        try "location_id,latitude,longitude,time,cloud_low_pct\na,10,-90.5,2021-06-01T00:00:00Z,10\n"
            .write(to: dir.appendingPathComponent("w.csv"), atomically: false, encoding: .utf8)
        for arguments in [
            ["--weather", "w.csv", "--year", "5000"], ["--dataset", "noaa-lcd-lincoln-2023", "--year", "1800"],
            ["--dataset", "tmy2-miami", "--year", "1899"],
        ] {
            let r = try cli.run(["score"] + arguments + ["--datasets", Self.datasets.path], in: dir)
            #expect(r.status == 2, "\(arguments)")
            #expect(
                r.stderr.contains(
                    "--year \(arguments[3]): error: outside the years a typical year can be replayed in; give a year in 1900…2100"
                ))
            #expect(r.stdout.isEmpty)
        }
        let ok = try cli.run(["score", "--weather", "w.csv", "--year", "1900"], in: dir)
        #expect(ok.status == 0, "\(ok.stderr)")
    }
}
