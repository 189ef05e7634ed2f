import ArgumentParser
import Capabilities
import FieldtestData
import Foundation
import TweetSentiment

// The sentiment commands: train, evaluate and classify (TweetSentiment).

/// `fieldtest train`: trains models from labelled data.
struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train a model from labelled data.",
        subcommands: [Sentiment.self]
    )

    /// `fieldtest train sentiment`.
    struct Sentiment: JobCommand {
        static let configuration = CommandConfiguration(
            commandName: "sentiment",
            abstract:
                "Train a three-class tweet sentiment model (reproducible: same inputs and seed give the same bytes).",
            discussion: """
                Inputs are recognised by name and header (Sentiment140, airline, TweetEval, VADER *GroundTruth*, or \
                any CSV with 'text' and 'label' columns) and together must hold all three classes. One tweet in ten \
                of the --reserve sources is never trained on; development and reserved figures go to stderr. \
                The shipped model's command and figures: Datasets/models/README.md.
                Example: fieldtest train sentiment --input Datasets/tweets/sentiment140_positive.txt \
                Datasets/tweets/airline_Tweets.csv Datasets/tweets/tweeteval_val_text.txt --output model.ftsm
                """
        )

        @Option(parsing: .upToNextOption, help: "Training files.", completion: .file()) var input: [String]
        @Option(help: "Model file to write (.ftsm); required unless --hold-out is given.", completion: .file())
        var output: String?
        @Option(help: "Random seed for the split and the training order.") var seed: UInt64 = 42
        @Option(help: "Model family: nb or logreg.") var model: String = "logreg"
        @Option(help: "Fraction of each source held out for the development report (0 = train on all).")
        var devFraction: Double = 0.2
        @Option(help: "Logistic regression: passes over the data, 1…1000 (default 6).") var epochs: Int?
        @Option(help: "Logistic regression: L2 penalty per example step, 0…1 (default 1e-05).") var l2: Double?
        @Option(help: "Logistic regression: AdaGrad base learning rate, above 0 and at most 10 (default 0.02).")
        var learningRate: Double?
        @Option(help: "log2 of the character n-gram buckets, 0 (no character n-grams) or 4…26 (default 18).")
        var charBits: Int?
        @Option(help: "Logistic regression: final epochs whose parameters are averaged, 0…epochs (default 0).")
        var averagedEpochs: Int?
        @Option(
            help:
                "Sources whose labels train only the positive-vs-negative choice (partial labels), comma-separated, or 'none' (default: sentiment140)."
        )
        var posNegOnly: String?
        @Flag(help: "Balance each source's classes within it before the global class balancing.")
        var balanceWithinSources = false
        @Option(
            parsing: .upToNextOption,
            help:
                "Source weights before class balancing, each in 0…1000000 (0 leaves the source out), e.g. semEval=2 sentiment140=0.1 (defaults: sentiment140 0.1, airline 0.1, tweetEval 1, semEval 1, vader 1.5, labelledCSV 1)."
        )
        var sourceWeight: [String] = []
        @Option(
            help:
                "Sources whose evaluation share (one tweet in ten, by text hash) is never trained on, comma-separated, or 'none'."
        )
        var reserve: String = "airline"
        @Option(
            parsing: .upToNextOption,
            help:
                "Leave-one-out evaluation instead of training a model: hold out each SOURCE or SOURCE:GROUP in turn (e.g. semEval:2015, the SemEval tweets posted in 2015, or vader), train on the rest and report on it."
        )
        var holdOut: [String] = []
        @Option(
            parsing: .upToNextOption,
            help:
                "With --hold-out: the held-out parts on which to choose the --class-offsets that maximise their mean macro-recall (default: none)."
        )
        var calibrateOn: [String] = []
        @Option(
            help:
                "Log-odds added to the negative,neutral,positive biases after training, each in -10…10 (default 0,0,0)."
        )
        var classOffsets: String?
        @Option(help: "Lexicon folder (default: <datasets>/lexicons).", completion: .directory) var lexicons: String?
        @OptionGroup var folder: DatasetFolders

        /// The options as the library reads them.
        var options: TrainingOptions {
            var o = TrainingOptions()
            (o.model, o.epochs, o.l2, o.learningRate, o.charBits) = (model, epochs, l2, learningRate, charBits)
            (o.sourceWeights, o.reserve, o.classOffsets, o.holdOut, o.calibrateOn) = (
                sourceWeight, reserve, classOffsets, holdOut, calibrateOn
            )
            (o.developmentFraction, o.writesModel) = (devFraction, output != nil)
            (o.averagedEpochs, o.balancesClassesWithinSources) = (averagedEpochs, balanceWithinSources)
            o.posNegOnly = posNegOnly
            return o
        }

        func validate() throws {
            do {
                if input.isEmpty { throw TrainingOptionsError(message: "give at least one --input file") }
                _ = try TrainingConfiguration(options: options)
            } catch {
                CommandSupport.printError(String(describing: error))
                throw CommandSupport.invalidInput
            }
        }

        func job() throws -> any CommandJob {
            SentimentTrainingJob.Request(
                input: input, lexicons: lexicons, datasetFolders: folder.datasets, options: options, seed: seed,
                output: output)
        }
    }
}

/// `fieldtest evaluate`: measures a model or any system under test on labelled data.
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score a system (built-in or external) or a sentiment model on labelled data; CSV figures.",
        discussion: "fieldtest evaluate <capability> --input LABELLED [--system COMMAND]; the capabilities:\n"
            + CapabilityRegistry.bundled.capabilities.map { "  \($0.name)  \($0.evaluation.abstract)" }
            .joined(separator: "\n"),
        subcommands: [Sentiment.self, EvaluateSystem.self],
        defaultSubcommand: EvaluateSystem.self
    )

    /// `fieldtest evaluate sentiment`.
    struct Sentiment: JobCommand {
        static let configuration = CommandConfiguration(
            commandName: "sentiment",
            abstract:
                "Accuracy, per-class precision/recall/F1, macro-F1, macro-recall and Pearson r of a sentiment model on labelled tweets.",
            discussion: """
                Inputs are read as 'fieldtest train sentiment' reads them, and the original Sentiment140 CSV (no \
                header; polarity 0/2/4, e.g. testdata.manual.2009.06.14.csv); for VADER *GroundTruth* files, Pearson r \
                is against the mean human rating. One row per source, then 'all'. --classes negative,positive \
                evaluates as Go et al. (2009) did: neutral examples left out, each decision P(positive) vs P(negative).
                Example: fieldtest evaluate sentiment --input testdata.manual.2009.06.14.csv --classes negative,positive
                """
        )

        @Option(parsing: .upToNextOption, help: "Labelled files.", completion: .file()) var input: [String]
        @Option(help: "Model file (.ftsm; default: the shipped default model).", completion: .file()) var model: String?
        @Option(help: "Classes to decide among, comma-separated (default: negative,neutral,positive).")
        var classes: String?
        @Option(help: "Also write the figures as CSV (source,classes,metric,value) to this file.", completion: .file())
        var output: String?
        @Flag(
            help:
                "Score only the evaluation share (one tweet in ten, by text hash) that 'train sentiment --reserve' keeps out of training: the shipped model never saw the airline tweets' share."
        )
        var reservedOnly = false
        @Option(help: "Score this system instead (builtin or a command; see docs/outputs.md).") var system: String?
        @OptionGroup var supervision: SystemSupervisionOptions

        func validate() throws {
            if input.isEmpty { throw ValidationError("give at least one --input file") }
            _ = try CommandSupport.classes(classes)
            try CommandSupport.refuse(
                SentimentEvaluation.Job.usageProblem(
                    system: system, classes: classes, systemOptions: supervision.given, items: supervision.items))
        }

        func job() throws -> any CommandJob {
            let datasets = DatasetsLocation.current(option: nil)
            let request = system.map { system in
                var r = SystemEvaluation.Request(
                    capability: .sentiment, inputs: input, datasets: datasets, output: output)
                r.system = system
                supervision.apply(to: &r)
                return r
            }
            return SentimentEvaluation.Job(
                input: input, model: model, datasets: datasets, classes: try CommandSupport.classes(classes),
                reservedOnly: reservedOnly, output: output, system: request)
        }
    }
}

/// `fieldtest evaluate <capability>`: a system scored on a labelled file by the evaluator of the
/// capability the registry names (`CapabilityDefinition.evaluation`); `evaluate sentiment` is its own
/// command, which scores model files too.
struct EvaluateSystem: JobCommand {
    static var configuration: CommandConfiguration {
        let own = [EvaluateCommand.Sentiment.configuration.commandName]
        let listed = CapabilityRegistry.bundled.capabilities.filter { !own.contains($0.name) }
        return CommandConfiguration(
            commandName: "capability",
            abstract: "Score a system of one capability on a labelled file.",
            discussion: listed.map { "\($0.name): \($0.evaluation.abstract) \($0.evaluation.inputs)" }
                .joined(separator: "\n") + "\n" + SystemEvaluation.systemHelp, shouldDisplay: false)
    }

    @Argument(help: "The capability (fieldtest evaluate --help lists them).") var capability: String
    @Option(help: "The labelled file.", completion: .file()) var input: String
    @Option(help: "builtin (default) or the command of an external system, e.g. 'python3 my.py'.")
    var system = "builtin"
    @Option(help: "route: the map (.osm or .geojson).", completion: .file()) var graph: String?
    @Option(help: "locate: a training file (UJIIndoorLoc layout); repeat to add files.", completion: .file()) var train:
        [String] = []
    @Option(help: "sun: seconds within which an event time counts as right.") var tolerance: Double = 60
    @OptionGroup var supervision: SystemSupervisionOptions
    @OptionGroup var out: OutputCSV

    /// The capability named, from the registry.
    func definition() throws -> CapabilityDefinition {
        do { return try CapabilityRegistry.bundled.named(capability) } catch {
            guard case .usage(let message) = error else { throw error }
            throw ValidationError(message)
        }
    }

    func validate() throws { _ = try definition() }

    func job() throws -> any CommandJob {
        var r = SystemEvaluation.Request(
            capability: try definition(), inputs: [input], datasets: DatasetsLocation.current(option: nil),
            output: out.output)
        (r.system, r.graph, r.training, r.toleranceSeconds) = (system, graph, train, tolerance)
        supervision.apply(to: &r)
        return r
    }
}

/// `--timeout` and `--stderr` of `evaluate --system`.
struct SystemSupervisionOptions: ParsableArguments {
    @Option(help: "Seconds an external system may take per answer (more than 0, at most 86400; default 10).")
    var timeout: Double?
    @Option(
        help: "Keep an external system's standard error (first and last 1 MiB) in this file.", completion: .file())
    var stderr: String?
    @Option(
        help: "Also write one row per input item (id, expected, answer, correct, error) to this file.",
        completion: .file())
    var items: String?

    /// Whether an option of an external system was given.
    var given: Bool { timeout != nil || stderr != nil }

    func validate() throws {
        if let timeout, let problem = ExternalSystemSpec.timeoutProblem(timeout) {
            throw ValidationError("--timeout \(problem)")
        }
    }

    func apply(to r: inout SystemEvaluation.Request) {
        if let timeout { r.timeoutSeconds = timeout }
        (r.stderr, r.items) = (stderr, items)
    }
}

/// `fieldtest classify`: labels tweets with a sentiment model.
struct ClassifyCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "classify",
        abstract: "Classify tweets: input CSV 'id,text' → output CSV 'id,label,score' (score: polarity in [-1, 1]).",
        discussion:
            "Without --model the shipped Datasets/models/\(SentimentModelFile.defaultFileName) is used (found under $FIELDTEST_DATASETS or ./Datasets). "
            + "label is the most probable class; score is a graded polarity (the model's P(pos) - P(neg) blended with the "
            + "lexicon compound), so its sign can differ from the label when they disagree or neutral is most probable."
    )

    @Option(help: "Model file (.ftsm).", completion: .file()) var model: String?
    @Option(help: "Input CSV with header and columns id,text (RFC 4180).", completion: .file()) var input: String
    @OptionGroup var out: OutputCSV
    @Option(
        help:
            "Classes a label may take, comma-separated (default: negative,neutral,positive; negative,positive for a binary decision)."
    )
    var classes: String?
    @Option(
        help:
            "Threads classifying in parallel, each on its own run of rows (default: all cores; the output is the same for any value)."
    )
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        _ = try CommandSupport.classes(classes)
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func job() throws -> any CommandJob {
        SentimentCSV.ClassifyJob(
            input: input, model: model, datasets: DatasetsLocation.current(option: nil),
            classes: try CommandSupport.classes(classes), jobs: jobs, output: out.output)
    }
}
