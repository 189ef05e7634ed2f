import Capabilities
import FieldtestData
import FieldtestTestSupport
import Foundation
import ScenarioEngine
import Testing
import TweetSentiment

/// The capabilities' command jobs declare the files they read and write, so the tool refuses an
/// output over an input before anything runs.
@Suite("Command jobs: capability files")
struct CommandJobFilesTests {
    let folder: URL

    init() throws {
        folder = TemporaryFiles.url("cap-jobs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "id\n".write(toFile: path("in.csv"), atomically: true, encoding: .utf8)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    @Test func sunRefusesItsOutputOverItsInput() throws {
        let ok = SunBatch.Job(input: path("in.csv"), output: path("out.csv"))
        #expect(ok.files.inputs.map(\.option) == ["--input"])
        try ok.files.check()
        #expect(throws: OutputPathCheck.OverwritesInput.self) {
            try SunBatch.Job(input: path("in.csv"), output: path("in.csv")).files.check()
        }
    }

    @Test func routeAndLocateNameEachInputByItsOption() throws {
        let route = RouteBatch.Job(
            graph: path("g.osm"), queries: path("in.csv"), congestion: nil, profiles: path("p.yaml"),
            printProfiles: false, output: nil)
        #expect(route.files.inputs.map(\.option) == ["--graph", "--queries", "--profiles"])
        let locate = FingerprintLocateJob.Request(
            training: [path("a.csv"), path("b.csv")], input: path("in.csv"), crossValidate: nil, method: .tuned,
            output: path("in.csv"))
        #expect(locate.files.inputs.map(\.option) == ["--train", "--train", "--input"])
        #expect(throws: OutputPathCheck.OverwritesInput.self) { try locate.files.check() }
    }

    @Test func trainingDeclaresTheModelAndItsTrainedTextIndex() throws {
        let job = SentimentTrainingJob.Request(
            input: [path("in.csv")], lexicons: folder.path, datasetFolders: [], options: TrainingOptions(), seed: 1,
            output: path("m.ftsm"))
        let files = job.files
        #expect(files.outputs.map(\.option) == ["--output", "--output's index"])
        #expect(
            files.outputs.last?.url.path
                == TrainedTextIndex.url(besideModel: URL(fileURLWithPath: path("m.ftsm"))).path)
        // The lexicon folder's files are inputs, named by the option that chose the folder.
        #expect(files.inputs.contains { $0.option == "--lexicons" && $0.url.lastPathComponent == "in.csv" })
        let toStdout = SentimentTrainingJob.Request(
            input: [path("in.csv")], lexicons: folder.path, datasetFolders: [], options: TrainingOptions(), seed: 1,
            output: "-")
        #expect(toStdout.files.outputs.map(\.option) == ["--output"])
    }

    @Test func anEvaluationDeclaresItsItemsAndStderrFiles() throws {
        var request = SystemEvaluation.Request(
            capability: .sentiment, inputs: [path("in.csv")], datasets: folder, output: path("fig.csv"))
        (request.items, request.stderr) = (path("items.csv"), path("in.csv"))
        #expect(request.files.outputs.map(\.option) == ["--output", "--items", "--stderr"])
        #expect(throws: OutputPathCheck.OverwritesInput.self) { try request.files.check() }
        let model = SentimentEvaluation.Job(
            input: [path("in.csv")], model: path("m.ftsm"), datasets: folder, classes: [.negative, .positive],
            reservedOnly: false, output: path("fig.csv"), system: nil)
        #expect(model.files.inputs.prefix(2).map(\.option) == ["--input", "--model"])
        #expect(model.files.outputs.map(\.option) == ["--output"])
    }

    @Test func compareAndEvaluateUsageProblemsSayWhatToDo() {
        #expect(
            SystemComparison.usageProblem(
                capability: "sentiment", candidates: ["a=builtin", "b=builtin"], system: [], keepsFolders: true) == nil)
        #expect(
            SystemComparison.usageProblem(
                capability: "sentiment", candidates: ["a=builtin"], system: ["sentiment=builtin"], keepsFolders: false)?
                .hasPrefix("compare takes --candidate NAME=COMMAND") == true)
        #expect(
            SystemComparison.usageProblem(
                capability: "sentiment", candidates: [".hidden=builtin"], system: [], keepsFolders: true)?
                .contains("cannot name a folder under --out") == true)
        #expect(
            SystemComparison.usageProblem(
                capability: "sentiment", candidates: [".x=builtin"], system: [], keepsFolders: false)
                == nil)
        #expect(
            SystemComparison.usageProblem(capability: "nope", candidates: [], system: [], keepsFolders: false) != nil)
        #expect(
            SentimentEvaluation.Job.usageProblem(
                system: nil, classes: "negative,positive", systemOptions: false, items: nil) == nil)
        #expect(
            SentimentEvaluation.Job.usageProblem(
                system: "builtin", classes: "negative", systemOptions: false, items: nil)?
                .hasPrefix("--classes applies to the built-in model only") == true)
        #expect(
            SentimentEvaluation.Job.usageProblem(system: nil, classes: nil, systemOptions: true, items: nil)?
                .hasPrefix("--timeout and --stderr") == true)
        #expect(
            SentimentEvaluation.Job.usageProblem(system: nil, classes: nil, systemOptions: false, items: "i.csv")?
                .hasPrefix("--items scores a system") == true)
    }
}
