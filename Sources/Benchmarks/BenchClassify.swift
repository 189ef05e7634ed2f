import ArgumentParser
import Capabilities
import FieldtestData
import Foundation
import TweetSentiment

/// `fieldtest-bench classify`: tweet classification throughput on 1 million
/// tweets (the bundled tweets repeated) beside VADER (`vaderSentiment`) and
/// scikit-learn (`HashingVectorizer` with 2^18 features, unigrams + bigrams,
/// + `SGDClassifier(loss="log_loss")` trained on the same bundled tweets) on
/// the same tweets in the same run, single-threaded (rates from wall-clock time,
/// and per core from CPU time); plus training time on the full bundled data, and the rate of a
/// single pass over the different tweets with a new scorer (nothing memoised yet). Goals: ≥ 25× VADER per core, ≥ 3× scikit-learn, training < 60 s.
struct BenchClassify: ParsableCommand, ChecksGoals {
    static let configuration = CommandConfiguration(
        commandName: "classify", abstract: "Tweets classified per second beside VADER and scikit-learn; training time.")

    @OptionGroup var goals: GoalOptions

    @Option(
        help:
            "Datasets folder (default: $FIELDTEST_DATASETS, else ./Datasets, else the Datasets folder of the checkout this executable was built in)."
    ) var datasets: String?
    @Option(help: "Model file (default: the shipped default model).") var model: String?
    @Option(help: "Tweets to classify.") var tweets = 1_000_000
    @Option(help: "Tweets given to VADER (default: all; VADER needs minutes per million).") var vaderTweets: Int?
    @Option(
        help: ArgumentHelp(
            "How many different bundled tweets are cycled (default: all of them).",
            discussion:
                "Evenly spaced through the bundled files. A few thousand fit in the CPU caches: compare with the default to see how much of the throughput is memory."
        ))
    var sources: Int?
    @Flag(help: "Skip timing the training run.") var skipTraining = false

    func validate() throws {
        if tweets < 1 { throw ValidationError("--tweets must be at least 1") }
        if let sources, sources < 1 { throw ValidationError("--sources must be at least 1") }
        if let vaderTweets, vaderTweets < 1 { throw ValidationError("--vader-tweets must be at least 1") }
    }

    func run() throws {
        let root = BenchSupport.datasetsRoot(datasets)
        let modelURL =
            model.map { URL(fileURLWithPath: $0) }
            ?? root.appendingPathComponent("models").appendingPathComponent(SentimentModelFile.defaultFileName)
        let clock = ContinuousClock()
        let classifier = try BenchSupport.guarded { try SentimentModelFile.load(modelURL, displayName: modelURL.path) }
        let corpus = try BenchSupport.guarded {
            try SentimentCorpusFiles.load(SentimentCorpusFiles.bundledInputs(datasets: root))
        }
        let input = SentimentBenchmarkInput.replicate(corpus, count: tweets, sources: sources)
        guard !input.isEmpty else { throw ValidationError("the bundled tweet files hold no tweets") }
        let distinct = min(sources ?? corpus.examples.count, corpus.examples.count, input.count)

        // One pass over the different tweets with a new scorer (empty memo), as a stream of new tweets meets it.
        let firstStart = clock.now
        _ = SentimentBenchmarkInput.classifyAll(Array(input.prefix(distinct)), model: classifier)
        let firstPassRate = Double(distinct) / Self.seconds(clock.now - firstStart)

        let start = clock.now
        let cpuStart = PythonBaseline.cpuSeconds()
        let result = SentimentBenchmarkInput.classifyAll(input, model: classifier)
        let cpuRate = Double(input.count) / max(PythonBaseline.cpuSeconds() - cpuStart, 1e-9)
        let seconds = Self.seconds(clock.now - start)
        let rate = Double(input.count) / seconds
        BenchSupport.printError(
            String(
                format: "classified %d tweets in %.2f s (negative %d, neutral %d, positive %d)",
                input.count, seconds, result.labels[0], result.labels[1], result.labels[2]))
        // What `fieldtest classify` does with the same tweets: CSV bytes in, CSV text out (in memory).
        var csv = CSVWriter(capacity: input.count * 90)
        csv.row(["id", "text"])
        for (i, t) in input.enumerated() { csv.row([String(i), t]) }
        let csvBytes = csv.bytes
        csv = CSVWriter()
        let csvStart = clock.now
        let csvOut = try BenchSupport.guarded {
            try SentimentCSV.classify(csvBytes, file: "bench.csv", model: classifier)
        }
        let csvRate = Double(input.count) / Self.seconds(clock.now - csvStart)
        guard csvOut.utf8.count > input.count else { throw BenchSupport.failed }
        // The same with one thread per core (`fieldtest classify`'s default), which must give the same bytes.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let parallelStart = clock.now
        let parallelOut = try BenchSupport.guarded {
            try SentimentCSV.classify(csvBytes, file: "bench.csv", model: classifier, jobs: cores)
        }
        let parallelRate = Double(input.count) / Self.seconds(clock.now - parallelStart)
        guard parallelOut == csvOut else {
            BenchSupport.printError("error: classifying on \(cores) threads changed the output")
            throw BenchSupport.failed
        }

        // Inputs for the Python baselines: the same tweets, and the same labelled training tweets.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fieldtest-bench-classify-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tweetsURL = dir.appendingPathComponent("tweets.txt")
        let trainURL = dir.appendingPathComponent("train.tsv")
        try BenchSupport.guarded {
            try AtomicFile.write(input.joined(separator: "\n"), to: tweetsURL)
            try AtomicFile.write(
                corpus.examples.map {
                    "\($0.label.rawValue)\t"
                        + $0.text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
                }.joined(separator: "\n"), to: trainURL)
        }
        setenv("OMP_NUM_THREADS", "1", 1)
        setenv("OPENBLAS_NUM_THREADS", "1", 1)
        let vaderCount = min(vaderTweets ?? input.count, input.count)
        let vaderLines =
            PythonBaseline.run(
                "classify_vader", arguments: [tweetsURL.path, String(vaderCount)], needs: ["vaderSentiment"])?
            .split(separator: "\n").compactMap { Double($0) } ?? []
        let vader = vaderLines.first
        let sk = PythonBaseline.run("classify_sklearn", arguments: [tweetsURL.path, trainURL.path], needs: ["sklearn"])
        let skLines = sk?.split(separator: "\n").compactMap { Double($0) } ?? []

        print(
            "tweets: \(input.count) (\(distinct) different bundled tweets repeated); VADER timed on the first \(vaderCount)"
        )
        PythonBaseline.report(
            name: "classify vs VADER", unit: "tweets", fieldtest: rate, baseline: vader, baselineName: "VADER", goal: 25
        )
        // Repetition lets the token memo and the caches warm up; a single pass shows the cost for tweets never seen before.
        print(
            String(
                format: "first pass over the %d different tweets (new scorer, empty memo): %.0f tweets/s%@", distinct,
                firstPassRate,
                vader.map { String(format: " = %.1f× VADER", firstPassRate / $0) } ?? ""))
        print(
            String(
                format:
                    "end to end as `fieldtest classify --jobs 1` (CSV bytes in, CSV text out, in memory): %.0f tweets/s",
                csvRate))
        print(
            String(
                format:
                    "end to end as `fieldtest classify --jobs %d` (all cores; not per core): %.0f tweets/s = %.2f× one thread",
                cores, parallelRate, parallelRate / csvRate))
        PythonBaseline.report(
            name: "classify vs scikit-learn", unit: "tweets", fieldtest: rate, baseline: skLines.first,
            baselineName: "HashingVectorizer+SGDClassifier", goal: 3)
        // Per core: CPU time of this thread vs the Python processes' CPU time (robust to other load on the machine).
        PythonBaseline.report(
            name: "classify vs VADER, CPU time", unit: "tweets", fieldtest: cpuRate,
            baseline: vaderLines.count > 1 ? vaderLines[1] : nil, baselineName: "VADER", goal: 25)
        PythonBaseline.report(
            name: "classify vs scikit-learn, CPU time", unit: "tweets", fieldtest: cpuRate,
            baseline: skLines.count > 2 ? skLines[2] : nil, baselineName: "HashingVectorizer+SGDClassifier", goal: 3)
        if !skipTraining {
            var configuration = TrainingConfiguration()
            configuration.kind = classifier.kind
            let trainStart = clock.now
            let outcome = try BenchSupport.guarded {
                try SentimentTraining.run(
                    inputs: SentimentCorpusFiles.bundledInputs(datasets: root),
                    lexiconDirectory: root.appendingPathComponent("lexicons"),
                    configuration: configuration, seed: 42, developmentFraction: 0)
            }
            let trainSeconds = Self.seconds(clock.now - trainStart)
            BenchOutput.measured(
                String(
                    format: "training (%@, %d tweets, load + featurize + fit): %.1f s (goal < 60 s: %@)",
                    classifier.kind.rawValue, outcome.trainingCount, trainSeconds,
                    Goals.verdict(trainSeconds < 60, "training < 60 s")),
                [BenchOutput.fact("goal", "training", trainSeconds, "s", goal: "< 60", met: trainSeconds < 60)])
            if skLines.count > 1 {
                print(String(format: "scikit-learn SGDClassifier fit on the same tweets: %.1f s", skLines[1]))
            }
        }
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
