import Foundation

/// The options of `fieldtest train sentiment` as a user types them, before they are parsed:
/// `TrainingConfiguration(options:)` checks them and builds the configuration, so every front end
/// (the CLI, a test, another tool) gets the same rules and messages.
public struct TrainingOptions: Sendable, Equatable {
    /// Model family: `nb` or `logreg`.
    public var model = "logreg"
    /// Logistic regression: passes over the data (nil: the default).
    public var epochs: Int?
    /// Logistic regression: L2 penalty per example step (nil: the default).
    public var l2: Double?
    /// Logistic regression: AdaGrad base learning rate (nil: the default).
    public var learningRate: Double?
    /// log2 of the character n-gram buckets (nil: the default).
    public var charBits: Int?
    /// Logistic regression: final epochs whose parameters are averaged (nil: the default, none).
    public var averagedEpochs: Int?
    /// Whether each source's classes are balanced within it before the global balancing
    /// (`TrainingConfiguration.balancesClassesWithinSources`; default off).
    public var balancesClassesWithinSources = false
    /// Sources read as positive-versus-negative only, comma-separated, or `none` (nil: the default).
    public var posNegOnly: String?
    /// `SOURCE=WEIGHT` pairs.
    public var sourceWeights: [String] = []
    /// Reserved sources, comma-separated, or `none`.
    public var reserve = "airline"
    /// Log-odds added to the negative, neutral and positive biases: `N,N,N` (nil: none).
    public var classOffsets: String?
    /// Parts held out in turn for a leave-one-out report (`SOURCE` or `SOURCE:GROUP`).
    public var holdOut: [String] = []
    /// Held-out parts on which the class offsets are chosen.
    public var calibrateOn: [String] = []
    /// Fraction of each source held out for the development report, in [0, 1).
    public var developmentFraction = 0.2
    /// Whether a model file is to be written (required unless `holdOut` is given, refused with it).
    public var writesModel = true

    /// Options with every default.
    public init() {}

    /// The parsed `classOffsets`: three numbers, or nil when absent or malformed.
    public var parsedClassOffsets: [Double]? {
        guard let classOffsets else { return nil }
        let values = classOffsets.split(separator: ",", omittingEmptySubsequences: false)
            .compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        return values.count == 3 ? values : nil
    }

    /// The held-out parts, parsed (those that parse).
    public var heldOutParts: [HeldOutPart] { holdOut.compactMap(HeldOutPart.init) }
    /// The calibration parts, parsed (those that parse).
    public var calibrationParts: Set<HeldOutPart> { Set(calibrateOn.compactMap(HeldOutPart.init)) }
}

/// Options of `train sentiment` that do not make sense, with what to give instead.
public struct TrainingOptionsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    public var message: String
    /// An error saying `message`.
    public init(message: String) { self.message = message }
    public var description: String { "error: \(message)" }
}

extension TrainingConfiguration {
    /// The configuration `options` describe (defaults for those not given), after checking every
    /// option and range (`validate()`); throws `TrainingOptionsError` or `SentimentError` saying
    /// which option is wrong.
    public init(options o: TrainingOptions) throws {
        func usage(_ message: String) -> TrainingOptionsError { TrainingOptionsError(message: message) }
        let sources = CorpusSource.allCases.map(\.rawValue).joined(separator: ", ")
        if !o.writesModel, o.holdOut.isEmpty {
            throw usage("give --output (the model file to write), or --hold-out for a leave-one-out report")
        }
        if o.writesModel, !o.holdOut.isEmpty {
            throw usage(
                "--hold-out reports on held-out parts and writes no model; leave out --output "
                    + "(train the model in a second run, without --hold-out)")
        }
        if let bad = (o.holdOut + o.calibrateOn).first(where: { HeldOutPart($0) == nil }) {
            throw usage("'\(bad)' is not SOURCE or SOURCE:GROUP with SOURCE one of \(sources)")
        }
        if let stray = o.calibrateOn.first(where: { !o.holdOut.contains($0) }) {
            throw usage("--calibrate-on \(stray) is not among the --hold-out parts")
        }
        if o.classOffsets != nil, o.parsedClassOffsets == nil {
            throw usage("--class-offsets takes three numbers separated by commas: negative,neutral,positive")
        }
        guard let kind = SentimentModelKind(rawValue: o.model) else { throw usage("--model must be 'nb' or 'logreg'") }
        if !(0..<1).contains(o.developmentFraction) { throw usage("--dev-fraction must be in [0, 1)") }
        guard let reserved = Self.reservedSources(parsing: o.reserve) else {
            throw usage("--reserve takes 'none' or sources separated by commas, each one of \(sources)")
        }
        guard let weights = Self.sourceWeights(parsing: o.sourceWeights) else {
            throw usage(
                "--source-weight takes SOURCE=WEIGHT with SOURCE one of \(sources) and WEIGHT a number in 0…1000000")
        }
        let posNegOnly = try o.posNegOnly.map { text throws(TrainingOptionsError) in
            guard let set = Self.reservedSources(parsing: text) else {
                throw usage("--pos-neg-only takes 'none' or sources separated by commas, each one of \(sources)")
            }
            return set
        }
        self.init()
        self.kind = kind
        if let posNegOnly { posNegOnlySources = posNegOnly }
        if let epochs = o.epochs { logisticRegression.epochs = epochs }
        if let l2 = o.l2 { logisticRegression.l2 = l2 }
        if let rate = o.learningRate { logisticRegression.learningRate = rate }
        if let bits = o.charBits { charBits = bits }
        if let averaged = o.averagedEpochs { logisticRegression.averagedEpochs = averaged }
        balancesClassesWithinSources = o.balancesClassesWithinSources
        for (source, w) in weights { sourceWeights[source] = w }
        reservedSources = reserved
        if let offsets = o.parsedClassOffsets { classLogOffsets = offsets }
        try validate()
    }
}
