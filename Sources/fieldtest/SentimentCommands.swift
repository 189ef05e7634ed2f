import ArgumentParser
import Capabilities
import FieldtestData
import Foundation
import TweetSentiment

struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train a model from labelled data.",
        subcommands: [Sentiment.self]
    )

    struct Sentiment: JobCommand {
        static let configuration = CommandConfiguration(
            commandName: "sentiment",
            abstract: "Train a three-class tweet sentiment model (same inputs and seed: the same bytes).",
            discussion: SentimentTrainingJob.discussion
        )

        @Option(parsing: .upToNextOption, help: "Training files.", completion: .file()) var input: [String]
        @Option(help: "Model file to write (.ftsm); required unless --hold-out is given.", completion: .file())
        var output: String?
        @Option(help: "Random seed for the split and the training order.") var seed: UInt64 = 42
        @Option(help: "Model family: nb or logreg.") var model: String = "logreg"
        @Option(help: "Fraction of each source held out for the development report (0: none).") var devFraction = 0.2
        @Option(help: "logreg: passes over the data, 1…1000 (default 6).") var epochs: Int?
        @Option(help: "logreg: L2 penalty per example step, 0…1 (default 1e-05).") var l2: Double?
        @Option(help: "logreg: AdaGrad base learning rate, in (0, 10] (default 0.02).") var learningRate: Double?
        @Option(help: "log2 of the character n-gram buckets, 0 (none) or 4…26 (default 18).") var charBits: Int?
        @Option(help: "logreg: final epochs whose parameters are averaged, 0…epochs (default 0).")
        var averagedEpochs: Int?
        @Option(help: "Sources trained on positive vs negative only, comma-separated, or none (default: sentiment140).")
        var posNegOnly: String?
        @Flag(help: "Balance each source's classes within it before the global class balancing.")
        var balanceWithinSources = false
        @Option(parsing: .upToNextOption, help: "SOURCE=WEIGHT before class balancing, 0…1000000 (see above).")
        var sourceWeight: [String] = []
        @Option(help: "Sources whose evaluation share is never trained on, comma-separated or 'none'.")
        var reserve: String = "airline"
        @Option(parsing: .upToNextOption, help: "Evaluate leaving out each SOURCE or SOURCE:GROUP in turn (see above).")
        var holdOut: [String] = []
        @Option(parsing: .upToNextOption, help: "--hold-out parts on which to choose the --class-offsets (see above).")
        var calibrateOn: [String] = []
        @Option(help: "Log-odds added to the negative,neutral,positive biases, each in -10…10 (default 0,0,0).")
        var classOffsets: String?
        @Option(help: "Lexicon folder (default: <datasets>/lexicons).", completion: .directory) var lexicons: String?
        @OptionGroup var folder: DatasetFolders

        /// The options as the library reads them.
        var options: TrainingOptions {
            var o = TrainingOptions()
            (o.model, o.epochs, o.l2, o.learningRate, o.charBits) = (model, epochs, l2, learningRate, charBits)
            (o.sourceWeights, o.reserve, o.classOffsets) = (sourceWeight, reserve, classOffsets)
            (o.holdOut, o.calibrateOn, o.developmentFraction, o.writesModel) = (
                holdOut, calibrateOn, devFraction, output != nil
            )
            (o.averagedEpochs, o.balancesClassesWithinSources, o.posNegOnly) = (
                averagedEpochs, balanceWithinSources, posNegOnly
            )
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

struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score a system (built-in or external) or a sentiment model on labelled data; CSV figures.",
        discussion: CapabilityRegistry.bundled.evaluationList,
        subcommands: [Sentiment.self, EvaluateSystem.self],
        defaultSubcommand: EvaluateSystem.self
    )

    struct Sentiment: JobCommand {
        static let configuration = CommandConfiguration(
            commandName: "sentiment",
            abstract:
                "Accuracy, per-class precision/recall/F1, macro-F1/recall, Pearson r of a model on labelled tweets.",
            discussion: SentimentEvaluation.Job.discussion
        )

        @Option(parsing: .upToNextOption, help: "Labelled files.", completion: .file()) var input: [String]
        @Option(help: "Model file (.ftsm; default: the shipped default model).", completion: .file()) var model: String?
        @Option(help: "Classes to decide among, comma-separated (default: all three).") var classes: String?
        @Option(help: "Also write the figures as CSV (source,classes,metric,value) to this file.", completion: .file())
        var output: String?
        @Flag(help: "Score only the share 'train sentiment --reserve' keeps out of training (see above).")
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

struct EvaluateSystem: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "capability", abstract: "Score a system of one capability on a labelled file.",
        discussion: CapabilityRegistry.bundled.evaluationHelp(
            excluding: [EvaluateCommand.Sentiment.configuration.commandName].compactMap { $0 }),
        shouldDisplay: false)

    @Argument(help: "The capability (fieldtest evaluate --help lists them).") var capability: String
    @Option(help: "The labelled file.", completion: .file()) var input: String
    @Option(help: "builtin (default) or the command of an external system, e.g. 'python3 my.py'.")
    var system = "builtin"
    @Option(help: "route: the map (.osm or .geojson).", completion: .file()) var graph: String?
    @Option(help: "locate: a UJIIndoorLoc training file; repeatable.", completion: .file()) var train: [String] = []
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
    @Option(help: "Keep an external system's standard error (first and last 1 MiB) here.", completion: .file())
    var stderr: String?
    @Option(help: "Also write a row per item (id, expected, answer, correct, error) here.", completion: .file())
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

struct ClassifyCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "classify",
        abstract: "Classify tweets: input CSV 'id,text' → output CSV 'id,label,score' (score: polarity in [-1, 1]).",
        discussion: SentimentCSV.ClassifyJob.discussion)

    @Option(help: "Model file (.ftsm).", completion: .file()) var model: String?
    @Option(help: "Input CSV with header and columns id,text (RFC 4180).", completion: .file()) var input: String
    @OptionGroup var out: OutputCSV
    @Option(help: "Classes a label may take, comma-separated (default: all three).") var classes: String?
    @Option(help: "Threads classifying in parallel (default: all cores; the output is the same for any number).")
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
