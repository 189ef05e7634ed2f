import FieldtestTestSupport
import Foundation
import Testing

@testable import FieldtestData

/// Several datasets folders read as one (bundled below, the user's on top), formats told from
/// files, and `datasets add`.
@Suite("Dataset folders of one's own")
struct DatasetOverlayTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let bundled = repo.appendingPathComponent("Datasets")
    static let header = DatasetManifest.columns.joined(separator: ",")
    static let mapping = "0\tnegative\n1\tneutral\n2\tpositive\n"
    /// sha256 of `mapping` (sha256sum).
    static let mappingSHA = "c0572796fbe261d8ea5fd16c5061076fbba49bc69fc865d6abccaf60daacee24"

    func temporaryFolder() throws -> URL {
        let dir = TemporaryFiles.url("overlay")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A datasets folder listing `names`, each the TweetEval mapping file.
    func folder(_ names: [String]) throws -> URL {
        let dir = try temporaryFolder()
        try Self.mapping.write(to: dir.appendingPathComponent("m.txt"), atomically: false, encoding: .utf8)
        let rows = names.map { "\($0),m.txt,tweeteval-mapping,classification,3,\(Self.mappingSHA),MIT,test" }
        try ([Self.header] + rows).joined(separator: "\n").appending("\n").write(
            to: dir.appendingPathComponent("MANIFEST.csv"), atomically: false, encoding: .utf8)
        return dir
    }

    @Test func anUpperFolderAddsNamesAndReplacesTheSameNameBelow() throws {
        let lower = try folder(["a", "b"])
        let upper = try folder(["b", "c"])
        let overlay = DatasetManifest(overlaying: [try DatasetManifest(root: lower), try DatasetManifest(root: upper)])
        #expect(overlay.entries.map(\.name) == ["a", "b", "c"])
        #expect(
            overlay.url(of: try #require(overlay.entry(named: "a"))).path == lower.appendingPathComponent("m.txt").path)
        #expect(
            overlay.url(of: try #require(overlay.entry(named: "b"))).path == upper.appendingPathComponent("m.txt").path)
        #expect(overlay.shadowed.map(\.name) == ["b"])
        #expect(overlay.folders == [lower, upper])
        #expect(overlay.root == lower)
        // verify covers every folder's entries, the replaced one too.
        #expect(overlay.verify().count == 4)
        #expect(overlay.verify().allSatisfy { $0.passed })
        // A folder given twice counts once.
        let twice = DatasetManifest(overlaying: [try DatasetManifest(root: lower), try DatasetManifest(root: lower)])
        #expect(twice.entries.count == 2 && twice.shadowed.isEmpty)
    }

    @Test func theBundledFolderComesFirstThenTheEnvironmentThenTheOptions() {
        let cwd = URL(fileURLWithPath: "/home/user/work", isDirectory: true)
        let (bundled, user) = DatasetsLocation.overlay(
            options: ["mine", "/abs/other", "mine"], environment: ["FIELDTEST_DATASETS": "/env/a::/env/b"],
            currentDirectory: cwd, executable: nil,
            fileExists: { $0 == "/home/user/work/Datasets/MANIFEST.csv" })
        #expect(bundled?.path == "/home/user/work/Datasets")
        #expect(user.map(\.path) == ["/env/a", "/env/b", "/home/user/work/mine", "/abs/other"])
        // One folder for the commands that need one: the first of the variable's.
        let one = DatasetsLocation.resolve(
            option: nil, environment: ["FIELDTEST_DATASETS": "/env/a:/env/b"], currentDirectory: cwd, executable: nil)
        #expect(one.path == "/env/a")
    }

    static let heads: [(file: String, format: DatasetFormat)] = [
        ("weather/LCD_08449013025_Rota_2018.csv", .noaaLCD),
        ("weather/LCD_USW00014939_Lincoln_2023JanFeb.csv", .noaaLCD),
        ("weather/703165TY.csv", .tmy3),
        ("weather/isd-history.csv", .isdHistory),
        ("weather/seattle-weather.csv", .seattleDaily),
        ("weather/PRSA_data_2010.1.1-2014.12.31.csv", .beijingPM25),
        ("weather/12839.tm2", .tmy2),
        ("maps/universidad_central_del_ecuador_campus.osm", .osmXML),
        ("positioning/ujiindoorloc_train_a.csv", .ujiIndoorLoc),
        ("positioning/geolife_trajectories_40.csv", .geolifeCSV),
        ("positioning/20081023025304.plt", .geolifePLT),
        ("tweets/airline_Tweets.csv", .airlineTweets),
        ("places/us_cities_geonames_cities500.csv", .usCities),
        ("places/world_cities_geonames_cities15000.csv", .worldCities),
        ("places/countries.json", .json),
    ]

    @Test(arguments: heads)
    func eachDownloadedLayoutShowsItsFormat(file: String, format: DatasetFormat) throws {
        let outcome = DatasetFormatDetection.detect(url: Self.bundled.appendingPathComponent(file))
        guard case .detected(let found, _) = outcome else {
            Issue.record("\(file): \(outcome)")
            return
        }
        #expect(found == format)
    }

    @Test(arguments: [
        "tweets/tweeteval_val_text.txt", "tweets/sentiment140_positive.txt",
        "tweets/vader_tweets_GroundTruth.train.txt",
        "lexicons/AFINN-111.txt",
    ])
    func layoutsNoHeaderMarksAreNotGuessed(file: String) {
        if case .detected(let format, let because) = DatasetFormatDetection.detect(
            url: Self.bundled.appendingPathComponent(file))
        {
            Issue.record("\(file) taken for \(format.rawValue) (\(because))")
        }
    }

    /// SemEval tweets as the organisers distribute them (a headerless `.txt`) show their format by their
    /// first row, and a manifest row files every tweet format under classification.
    @Test func semEvalRowsShowTheirFormat() throws {
        let dir = try temporaryFolder()
        let file = dir.appendingPathComponent("SemEval2017-task4-test.subtask-A.english.txt")
        try "811989080477154001\tneutral\tbus at 8\n811989080477154002\tpositive\tlove it\t\n".write(
            to: file, atomically: false, encoding: .utf8)
        guard case .detected(let format, _) = DatasetFormatDetection.detect(url: file) else {
            Issue.record("not detected")
            return
        }
        #expect(format == .semEvalTweets)
        #expect(try DatasetLoaders.countRecords(format: format, url: file, displayName: "f") == 2)
        for tweets in [DatasetFormat.semEvalTweets, .tweetsCSV, .sentiment140CSV, .airlineTweets] {
            #expect(DatasetRegistration.core(of: tweets) == "classification")
        }
    }

    @Test func addingAFileMeasuresItsRowAndCreatesTheManifest() throws {
        let dir = try temporaryFolder()
        let input = dir.appendingPathComponent("outside/map.txt")
        try FileManager.default.createDirectory(
            at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.mapping.write(to: input, atomically: false, encoding: .utf8)
        let into = dir.appendingPathComponent("mine")
        let added = try DatasetRegistration.add(
            file: input, name: "labels", format: .tweetevalMapping, into: into, existing: nil)
        #expect(added.entry.rows == 3 && added.entry.sha256 == Self.mappingSHA)
        #expect(added.copiedTo?.path == into.appendingPathComponent("map.txt").path)
        #expect(try String(contentsOf: input, encoding: .utf8) == Self.mapping)
        let manifest = try DatasetManifest(root: into)
        #expect(manifest.entries.map(\.name) == ["labels"])
        #expect(manifest.verify().allSatisfy { $0.passed })
        #expect(manifest.entries.first?.origin.hasPrefix("added from ") == true)

        // A second file, already inside the folder, is listed in place; the manifest keeps its rows.
        let inside = into.appendingPathComponent("sub/again.txt")
        try FileManager.default.createDirectory(
            at: inside.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.mapping.write(to: inside, atomically: false, encoding: .utf8)
        let second = try DatasetRegistration.add(
            file: inside, name: "labels-2", format: .tweetevalMapping, into: into, existing: nil)
        #expect(second.copiedTo == nil && second.entry.file == "sub/again.txt")
        #expect(try DatasetManifest(root: into).entries.map(\.name) == ["labels", "labels-2"])
    }

    @Test func addingRefusesWhatWouldMisleadOrOverwrite() throws {
        let dir = try temporaryFolder()
        let existing = try folder(["taken"])
        let input = dir.appendingPathComponent("map.txt")
        try Self.mapping.write(to: input, atomically: false, encoding: .utf8)
        let into = dir.appendingPathComponent("mine")
        let overlay = try DatasetManifest(root: existing)
        func failure(_ name: String, _ format: DatasetFormat?, file: URL? = nil) -> String {
            do {
                _ = try DatasetRegistration.add(
                    file: file ?? input, name: name, format: format, into: into, existing: overlay)
                return ""
            } catch { return "\(error)" }
        }
        #expect(failure("taken", .tweetevalMapping).contains("--name taken: error: the name is already used by "))
        #expect(failure("two words", .tweetevalMapping).contains("a dataset name uses letters, digits"))
        #expect(failure("labels", nil).contains("cannot tell the file's format"))
        #expect(
            failure("labels", .tweetevalMapping, file: dir.appendingPathComponent("none.txt")).contains("no such file"))
        // A different file of the same name already in the folder is never written over.
        try FileManager.default.createDirectory(at: into, withIntermediateDirectories: true)
        try "other\n".write(to: into.appendingPathComponent("map.txt"), atomically: false, encoding: .utf8)
        #expect(failure("labels", .tweetevalMapping).contains("a different file of this name is already in the folder"))
        #expect(try String(contentsOf: into.appendingPathComponent("map.txt"), encoding: .utf8) == "other\n")
        #expect(!FileManager.default.fileExists(atPath: into.appendingPathComponent("MANIFEST.csv").path))
    }
}
