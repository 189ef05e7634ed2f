import FieldtestData
import Foundation
import Testing

@testable import TweetSentiment

/// Training refuses settings, data and results that would give a useless or broken model,
/// and model loading refuses parameters that are not numbers.
@Suite("Training validation")
struct TrainingValidationTests {
    @Test("hyper-parameters outside their documented ranges are rejected, naming the option")
    func hyperparameterRanges() throws {
        try TrainingConfiguration().validate()
        var c = TrainingConfiguration()
        c.logisticRegression.learningRate = 1e300
        #expect(
            throws: SentimentError.invalidConfiguration(
                parameter: "--learning-rate", reason: "is 1e+300; it must be above 0 and at most 10 (default 0.02)")
        ) {
            try c.validate()
        }
        c = TrainingConfiguration()
        c.logisticRegression.l2 = 1e300
        #expect(
            throws: SentimentError.invalidConfiguration(
                parameter: "--l2", reason: "is 1e+300; it must be in 0…1 (default 1e-05)")
        ) {
            try c.validate()
        }
        c = TrainingConfiguration()
        c.sourceWeights[.labelledCSV] = 1e308
        #expect(
            throws: SentimentError.invalidConfiguration(
                parameter: "--source-weight",
                reason: "labelledCSV=1e+308 is out of range; a weight must be in 0…1000000")
        ) {
            try c.validate()
        }
        c = TrainingConfiguration()
        c.logisticRegression.averagedEpochs = 7
        #expect(
            throws: SentimentError.invalidConfiguration(
                parameter: "--averaged-epochs", reason: "is 7; it must be in 0…6 (the epochs trained; default 0)")
        ) {
            try c.validate()
        }
        var sources = TrainingOptions()
        sources.posNegOnly = "none"
        #expect(try TrainingConfiguration(options: sources).posNegOnlySources.isEmpty)
        sources.posNegOnly = "sentiment140, airline"
        #expect(try TrainingConfiguration(options: sources).posNegOnlySources == [.sentiment140, .airline])
        sources.posNegOnly = "emoticons"
        #expect(throws: TrainingOptionsError.self) { try TrainingConfiguration(options: sources) }
        var options = TrainingOptions()
        options.averagedEpochs = 3
        options.balancesClassesWithinSources = true
        let parsed = try TrainingConfiguration(options: options)
        #expect(parsed.logisticRegression.averagedEpochs == 3 && parsed.balancesClassesWithinSources)
        c = TrainingConfiguration()
        c.logisticRegression.learningRate = 10
        c.logisticRegression.l2 = 1
        c.logisticRegression.averagedEpochs = 6
        c.sourceWeights[.labelledCSV] = 0
        try c.validate()
    }

    @Test("all-zero weights and classes whose every example weighs 0 are rejected before training")
    func zeroWeights() {
        var c = TrainingConfiguration()
        c.hashBits = 10
        c.charBits = 0
        c.sourceWeights[.labelledCSV] = 0
        var rng = SeededGenerator(seed: 1)
        #expect(throws: SentimentError.zeroTotalWeight) {
            try SentimentTrainer.checkedTrain(
                corpus: smallCorpus(), lexicon: smallLexicon, configuration: c, using: &rng)
        }
        // Neutral tweets only from a source weighted 0: the neutral class would never be learnt.
        var corpus = TrainingCorpus()
        corpus.add(
            smallCorpus().examples.filter { $0.label != .neutral }.enumerated().map {
                LabelledTweet(text: $1.text, label: $1.label, line: $0 + 1)
            },
            source: .labelledCSV)
        corpus.add([LabelledTweet(text: "the bus leaves at 8", label: .neutral, line: 1)], source: .sentiment140)
        c.sourceWeights[.labelledCSV] = 1
        c.sourceWeights[.sentiment140] = 0
        #expect(throws: SentimentError.missingClasses([.neutral], heldOut: false)) {
            try SentimentTrainer.checkedTrain(corpus: corpus, lexicon: smallLexicon, configuration: c, using: &rng)
        }
    }

    @Test("a class whose every example has a blank text is refused with counts, before any model is written")
    func blankTexts() throws {
        var c = TrainingConfiguration()
        c.hashBits = 10
        c.charBits = 0
        var corpus = TrainingCorpus()
        let rows = smallCorpus().examples.enumerated().map { i, e in
            LabelledTweet(text: e.label == .negative ? "  " : e.text, label: e.label, line: i + 1)
        }
        corpus.add(rows, source: .labelledCSV)
        let blank = rows.filter { $0.label == .negative }.count
        var rng = SeededGenerator(seed: 1)
        #expect(throws: SentimentError.blankTexts([.negative], blank: blank, total: rows.count)) {
            try SentimentTrainer.checkedTrain(corpus: corpus, lexicon: smallLexicon, configuration: c, using: &rng)
        }
        // One real negative tweet is enough to learn the class from.
        corpus.add([LabelledTweet(text: "awful delay again", label: .negative, line: 1)], source: .sentiment140)
        rng = SeededGenerator(seed: 1)
        _ = try SentimentTrainer.checkedTrain(corpus: corpus, lexicon: smallLexicon, configuration: c, using: &rng)
    }

    @Test("training that diverges to non-finite weights throws instead of returning the model")
    func divergenceIsCaught() throws {
        var c = TrainingConfiguration()
        c.hashBits = 10
        c.charBits = 10
        c.logisticRegression.learningRate = 1e300  // out of range; validate() would refuse it, checkedTrain must too
        var rng = SeededGenerator(seed: 1)
        #expect(
            !SentimentTrainer.train(corpus: smallCorpus(), lexicon: smallLexicon, configuration: c, using: &rng)
                .parametersAreFinite)
        rng = SeededGenerator(seed: 1)
        #expect(throws: SentimentError.nonFiniteModel) {
            try SentimentTrainer.checkedTrain(
                corpus: smallCorpus(), lexicon: smallLexicon, configuration: c, using: &rng)
        }
        // Within range the same data trains a finite model.
        c.logisticRegression.learningRate = 0.02
        rng = SeededGenerator(seed: 1)
        #expect(
            try SentimentTrainer.checkedTrain(
                corpus: smallCorpus(), lexicon: smallLexicon, configuration: c, using: &rng
            ).parametersAreFinite)
    }

    @Test("a model file with NaN or infinite parameters is rejected when loaded, naming the file")
    func decodeRejectsNonFiniteParameters() throws {
        guard case .logisticRegression(var lr) = trainSmall(.logisticRegression) else {
            Issue.record("expected logreg")
            return
        }
        let reason =
            "its bias or weights include NaN or infinite values (training diverged); retrain it with a smaller --learning-rate, --l2 or --source-weight"
        lr.bias[1] = .nan
        #expect(throws: SentimentError.invalidModel(file: "m.ftsm", reason: reason)) {
            try SentimentModelCodec.decode(SentimentModelCodec.encode(.logisticRegression(lr)), file: "m.ftsm")
        }
        lr.bias[1] = 0
        lr.weights[7] = .infinity
        #expect(throws: SentimentError.invalidModel(file: "m.ftsm", reason: reason)) {
            try SentimentModelCodec.decode(SentimentModelCodec.encode(.logisticRegression(lr)), file: "m.ftsm")
        }
        guard case .naiveBayes(var nb) = trainSmall(.naiveBayes) else {
            Issue.record("expected nb")
            return
        }
        nb.logPriors[0] = -.infinity
        #expect(
            throws: SentimentError.invalidModel(
                file: "nb.ftsm",
                reason:
                    "its log priors or likelihoods include NaN or infinite values (training diverged); retrain it with a smaller --learning-rate, --l2 or --source-weight"
            )
        ) {
            try SentimentModelCodec.decode(SentimentModelCodec.encode(.naiveBayes(nb)), file: "nb.ftsm")
        }
        // A finite model still round-trips.
        let good = trainSmall(.logisticRegression)
        #expect(try SentimentModelCodec.decode(SentimentModelCodec.encode(good), file: "m.ftsm") == good)
    }
}
