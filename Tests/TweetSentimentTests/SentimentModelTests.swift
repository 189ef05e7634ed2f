import FieldtestData
import Foundation
import Testing

@testable import TweetSentiment

/// A small labelled corpus built in code.
func smallCorpus() -> TrainingCorpus {
    let positive = [
        "I love this so much", "great day with friends :)", "awesome game tonight!", "happy happy joy",
        "best coffee ever", "what a wonderful morning", "love love love it", "so excited for the trip",
        "thank you, amazing service", "beautiful sunset tonight",
    ]
    let negative = [
        "I hate mondays", "worst flight ever :(", "so sad and tired", "this is terrible",
        "awful service, never again", "my phone broke, horrible day", "I am so angry right now",
        "lost my bag again, ugh", "bad news today", "feeling sick and miserable",
    ]
    let neutral = [
        "the bus leaves at 8", "meeting moved to room 4", "new episode airs thursday", "flight 123 to boston",
        "the store opens at noon", "reading the news", "train schedule for today", "weather update for the city",
        "lunch menu posted", "conference starts next week",
    ]
    var c = TrainingCorpus()
    for (texts, label) in [(positive, SentimentLabel.positive), (negative, .negative), (neutral, .neutral)] {
        c.add(texts.enumerated().map { LabelledTweet(text: $1, label: label, line: $0 + 1) }, source: .labelledCSV)
    }
    return c
}

/// A tiny lexicon built in code.
let smallLexicon = SentimentLexicon(
    vader: [
        VaderLexiconEntry(token: "love", meanValence: 3.2, standardDeviation: 0.4, ratings: []),
        VaderLexiconEntry(token: "hate", meanValence: -2.7, standardDeviation: 0.6, ratings: []),
        VaderLexiconEntry(token: "good", meanValence: 1.9, standardDeviation: 0.9, ratings: []),
        VaderLexiconEntry(token: ":)", meanValence: 2.0, standardDeviation: 1.2, ratings: []),
    ],
    emoji: [EmojiLexiconEntry(emoji: "😍", description: "smiling face with heart-eyes love")],
    afinn: [[AFINNEntry(term: "bad luck", valence: -2), AFINNEntry(term: "great", valence: 3)]])

func trainSmall(_ kind: SentimentModelKind, seed: UInt64 = 9, bits: Int = 12) -> SentimentModel {
    var c = TrainingConfiguration()
    c.kind = kind
    c.hashBits = bits
    c.logisticRegression.epochs = 20
    var rng = SeededGenerator(seed: seed)
    return SentimentTrainer.train(corpus: smallCorpus(), lexicon: smallLexicon, configuration: c, using: &rng)
}

@Suite("Lexicon features")
struct LexiconFeatureTests {
    let featurizer = SentimentFeaturizer(hashBits: 8, lexicon: smallLexicon)

    @Test func negationFlipsAndDampsValence() {
        let plain = featurizer.lexiconScores(TweetTokenizer().tokenize("good"))
        let negated = featurizer.lexiconScores(TweetTokenizer().tokenize("not good"))
        // Tolerance 1e-12: products of the listed constants.
        #expect(abs(plain.vaderPositive - 1.9) < 1e-12)
        #expect(abs(negated.vaderNegative - 1.9 * 0.74) < 1e-12)
        #expect(negated.vaderPositive == 0)
        #expect(negated.negatedHits == 1)
    }

    @Test func afinnPhrasesAndEmoji() {
        let s = featurizer.lexiconScores(TweetTokenizer().tokenize("such bad luck 😍"))
        #expect(abs(s.afinnNegative - 2) < 1e-12)
        #expect(abs(s.vaderPositive - 3.2) < 1e-12)  // emoji → "love" via its description
    }

    @Test func featuresAreSortedAndUnique() {
        let f = featurizer.features("love love love it :)")
        #expect(f.indices == f.indices.sorted())
        #expect(Set(f.indices).count == f.indices.count)
        #expect(f.indices.count == f.values.count)
        #expect(f.indices.contains(Int32(1 << 8)))  // first lexicon feature
    }
}

@Suite("Character n-grams")
struct CharacterGramTests {
    let featurizer = SentimentFeaturizer(
        hashBits: 8, charBits: 10, charGramLengths: 2...5, normalizesGrams: true, lexicon: smallLexicon)

    func groups(_ f: SparseFeatures) -> (words: [(Int32, Float)], chars: [(Int32, Float)]) {
        let pairs = Array(zip(f.indices, f.values))
        return (pairs.filter { $0.0 < 256 }, pairs.filter { $0.0 >= 256 && $0.0 < 256 + 1024 })
    }

    @Test func gramsOfOneShortWord() {
        // " ab " has 3 two-grams, 2 three-grams, 1 four-gram: 6 grams, fewer if two share a bucket.
        let (words, chars) = groups(featurizer.features("ab"))
        #expect(words.count == 1)
        #expect(chars.count >= 5 && chars.count <= 6)
    }

    @Test func wordsHaveUnitLengthAndCharactersCountOverRootOfTotal() {
        let (words, chars) = groups(featurizer.features("loving the new phone, sooo good"))
        // Grams of a word of n bytes (n + 2 with padding): Σ_{k=2…5} max(0, n + 3 − k).
        // loving 6 → 7+6+5+4 = 22; the, new, soo 3 → 4+3+2+1 = 10 each; phone 5 → 18; good 4 → 14: 84 in all.
        // Values are count/√84, so they sum to 84/√84 = √84. Tolerance 1e-4: Float sums.
        #expect(abs(words.reduce(0) { $0 + $1.1 * $1.1 } - 1) < 1e-5)
        #expect(abs(chars.reduce(0) { $0 + $1.1 } - Float(84).squareRoot()) < 1e-4)
        #expect(featurizer.dimension == 256 + 1024 + SentimentFeaturizer.lexiconFeatureCount)
    }

    @Test func repeatedWordsCountTwice() {
        // " ab " has 6 grams; "ab ab" has 12, each bucket twice (barring collisions): 2/√12.
        let (_, chars) = groups(featurizer.features("ab ab"))
        let total = chars.reduce(0) { $0 + $1.1 }
        #expect(abs(total - 12 / Float(12).squareRoot()) < 1e-5)
        for (_, v) in chars {
            #expect(abs(v - 2 / Float(12).squareRoot()) < 1e-5 || abs(v - 4 / Float(12).squareRoot()) < 1e-5)
        }
    }

    @Test func negatedWordsShareTheirCharacterGrams() {
        let plain = groups(featurizer.features("never good")).chars.map(\.0)
        let tokens = TweetTokenizer().tokenize("never good")
        #expect(tokens == ["never", "not_good"])
        #expect(plain == groups(featurizer.features(tokens: ["never", "good"])).chars.map(\.0))
    }

    @Test func placeholdersHaveNoCharacterGrams() {
        #expect(groups(featurizer.features("@someone http://x.io")).chars.isEmpty)
    }
}

@Suite("Sentiment models")
struct SentimentModelTests {
    @Test(arguments: [SentimentModelKind.naiveBayes, .logisticRegression])
    func fitsTheTrainingSet(kind: SentimentModelKind) {
        let model = trainSmall(kind)
        let corpus = smallCorpus()
        let eval = SentimentTrainer.evaluate(model, on: corpus)
        #expect(eval.count == 1)
        #expect((eval.first?.confusion.accuracy ?? 0) >= 0.9)
        let p = model.predict("love it, great day :)")
        #expect(p.label == .positive)
        #expect(p.score > 0 && p.score <= 1)
        #expect(abs(p.probabilities.reduce(0, +) - 1) < 1e-9)
        #expect(model.predict("hate this terrible day").score < 0)
    }

    @Test func trainingIsReproducible() {
        let a = SentimentModelCodec.encode(trainSmall(.logisticRegression, seed: 5))
        let b = SentimentModelCodec.encode(trainSmall(.logisticRegression, seed: 5))
        let c = SentimentModelCodec.encode(trainSmall(.logisticRegression, seed: 6))
        #expect(a == b)
        #expect(a != c)
    }

    @Test func classBalancingEqualisesTotals() {
        var corpus = smallCorpus()
        corpus.add([LabelledTweet(text: "extra happy", label: .positive, line: 1)], source: .sentiment140)
        let w = SentimentTrainer.weights(for: corpus, configuration: TrainingConfiguration())
        var totals = [0.0, 0.0, 0.0]
        for (i, e) in corpus.examples.enumerated() { totals[e.label.rawValue] += w[i] }
        #expect(abs(totals[0] - totals[1]) < 1e-9 && abs(totals[1] - totals[2]) < 1e-9)
    }

    /// Within-source balancing: each source's classes weigh the same within it, the source keeps
    /// its total weight, and the global balancing still equalises the class totals afterwards.
    @Test func withinSourceBalancingEqualisesEachSourcesClasses() {
        var corpus = TrainingCorpus()
        let airline: [(String, SentimentLabel)] = [
            ("late", .negative), ("lost bag", .negative), ("rude", .negative), ("ok", .neutral), ("thanks", .positive),
        ]
        corpus.add(airline.enumerated().map { LabelledTweet(text: $1.0, label: $1.1, line: $0 + 1) }, source: .airline)
        corpus.add(
            [
                LabelledTweet(text: "yay", label: .positive, line: 1),
                LabelledTweet(text: "meh", label: .neutral, line: 2),
            ], source: .semEval)
        var c = TrainingConfiguration()
        c.balancesClassesWithinSources = true
        c.balancesClasses = false
        let w = SentimentTrainer.weights(for: corpus, configuration: c)
        var airlineTotals = [0.0, 0.0, 0.0]
        for (i, e) in corpus.examples.enumerated() where e.source == .airline {
            airlineTotals[e.label.rawValue] += w[i]
        }
        // 5 airline tweets of weight 0.1 → 0.5 in all, 1/6 to each class.
        for t in airlineTotals { #expect(abs(t - 0.5 / 3) < 1e-12) }
        // SemEval has two classes here: each gets half of its total (2 × 1).
        #expect(abs(w[5] - 1) < 1e-12 && abs(w[6] - 1) < 1e-12)
        c.balancesClasses = true
        let both = SentimentTrainer.weights(for: corpus, configuration: c)
        var totals = [0.0, 0.0, 0.0]
        for (i, e) in corpus.examples.enumerated() { totals[e.label.rawValue] += both[i] }
        #expect(abs(totals[0] - totals[1]) < 1e-9 && abs(totals[1] - totals[2]) < 1e-9)
        #expect(both != SentimentTrainer.weights(for: corpus, configuration: TrainingConfiguration()))
    }

    /// Averaging the last epochs' parameters gives their mean: a one-epoch average is the plain
    /// model, and averaging two epochs lies between the models trained for one and for two epochs.
    @Test func averagedEpochsAreTheMeanOfTheEpochEndParameters() {
        let corpus = smallCorpus()
        let lexicon = SentimentLexicon(vader: [:], afinn: [:], afinnPhrases: [:])
        func model(epochs: Int, averaged: Int) -> LogisticRegressionClassifier {
            var c = TrainingConfiguration()
            c.hashBits = 8
            c.charBits = 0
            c.logisticRegression.epochs = epochs
            c.logisticRegression.averagedEpochs = averaged
            var rng = SeededGenerator(seed: 5)
            guard
                case .logisticRegression(let m) = SentimentTrainer.train(
                    corpus: corpus, lexicon: lexicon, configuration: c, using: &rng)
            else {
                Issue.record("expected a logistic regression")
                return LogisticRegressionClassifier(
                    featurizer: SentimentFeaturizer(lexicon: lexicon), weights: [], bias: [], lexiconScoreWeight: 0)
            }
            return m
        }
        #expect(model(epochs: 2, averaged: 1) == model(epochs: 2, averaged: 0))
        let one = model(epochs: 1, averaged: 0)
        let two = model(epochs: 2, averaged: 0)
        let mean = model(epochs: 2, averaged: 2)
        #expect(mean != two)
        for k in mean.weights.indices {
            #expect(abs(mean.weights[k] - (one.weights[k] + two.weights[k]) / 2) <= 1e-6)
        }
        for c in 0..<3 { #expect(abs(mean.bias[c] - (one.bias[c] + two.bias[c]) / 2) <= 1e-9) }
    }

    /// A source read as positive-versus-negative only (partial labels) trains the choice between
    /// the two polar classes and never the neutral class: its neutral weights and bias stay 0. The
    /// same tweets from a source with full labels do move the neutral class, and with the option
    /// off a Sentiment140 corpus trains exactly as that source's does.
    @Test func partialLabelsTrainOnlyThePolarChoice() {
        let tweets: [(String, SentimentLabel)] = [
            ("love it", .positive), ("great day", .positive), ("hate it", .negative), ("awful day", .negative),
        ]
        func corpus(_ source: CorpusSource) -> TrainingCorpus {
            var corpus = TrainingCorpus()
            corpus.add(tweets.enumerated().map { LabelledTweet(text: $1.0, label: $1.1, line: $0 + 1) }, source: source)
            return corpus
        }
        let lexicon = SentimentLexicon(vader: [:], afinn: [:], afinnPhrases: [:])
        func model(_ corpus: TrainingCorpus, posNegOnly: Set<CorpusSource>) -> LogisticRegressionClassifier? {
            var c = TrainingConfiguration()
            c.hashBits = 8
            c.charBits = 0
            c.posNegOnlySources = posNegOnly
            c.sourceWeights[.sentiment140] = c.sourceWeights[.semEval]
            var rng = SeededGenerator(seed: 9)
            guard
                case .logisticRegression(let m) = SentimentTrainer.train(
                    corpus: corpus, lexicon: lexicon, configuration: c, using: &rng)
            else { return nil }
            return m
        }
        #expect(TrainingConfiguration().posNegOnlySources == [.sentiment140])
        guard let partial = model(corpus(.sentiment140), posNegOnly: [.sentiment140]),
            let full = model(corpus(.semEval), posNegOnly: [.sentiment140]),
            let off = model(corpus(.sentiment140), posNegOnly: [])
        else {
            Issue.record("expected logistic regressions")
            return
        }
        #expect(partial.bias[1] == 0)
        #expect(stride(from: 1, to: partial.weights.count, by: 3).allSatisfy { partial.weights[$0] == 0 })
        for (text, label) in tweets {
            let p = partial.probabilities(partial.featurizer.features(text))
            #expect(label == .positive ? p[2] > p[0] : p[0] > p[2], "\(text): \(p)")
        }
        #expect(full.bias[1] < 0)
        #expect(stride(from: 1, to: full.weights.count, by: 3).contains { full.weights[$0] < 0 })
        #expect(off == full)
        #expect(partial != full)
    }

    @Test func developmentSplitIsStratifiedAndSeeded() {
        var r1 = SeededGenerator(seed: 3)
        var r2 = SeededGenerator(seed: 3)
        let (t1, d1) = smallCorpus().split(developmentFraction: 0.2, using: &r1)
        let (_, d2) = smallCorpus().split(developmentFraction: 0.2, using: &r2)
        #expect(d1 == d2)
        #expect(d1.examples.count == 6 && t1.examples.count == 24)
        for label in SentimentLabel.allCases { #expect(d1.examples.filter { $0.label == label }.count == 2) }
    }

    /// "tweet 0" … "tweet 99" with their members worked out by an independent FNV-1a 64 (Python).
    static let numberedTweets = (0..<100).map { "tweet \($0)" }
    static let numberedMembers = [
        "tweet 2", "tweet 13", "tweet 19", "tweet 35", "tweet 44", "tweet 53", "tweet 60", "tweet 75", "tweet 91",
    ]

    @Test func evaluationShareIsOneInTenByTextHash() {
        #expect(Self.numberedTweets.filter(EvaluationShare.contains) == Self.numberedMembers)
        #expect(!EvaluationShare.contains("I love this so much"))  // FNV-1a 64 ≡ 1 (mod 10)
    }

    @Test func reservingSetsAsideTheShareOfTheChosenSourcesOnly() {
        var corpus = smallCorpus()
        corpus.add(
            Self.numberedTweets.enumerated().map { LabelledTweet(text: $1, label: .positive, line: $0 + 1) },
            source: .airline)
        corpus.add(
            Self.numberedTweets.enumerated().map { LabelledTweet(text: $1, label: .negative, line: $0 + 1) },
            source: .tweetEval)
        let (train, reserved) = corpus.reservingEvaluationShare(of: [.airline])
        #expect(reserved.examples.map(\.text) == Self.numberedMembers)
        #expect(reserved.examples.allSatisfy { $0.source == .airline })
        #expect(train.examples.count == corpus.examples.count - Self.numberedMembers.count)
        #expect(train.examples.filter { $0.source == .tweetEval }.count == 100)
        #expect(corpus.reservingEvaluationShare(of: []).training == corpus)
    }
}

@Suite("Model file")
struct SentimentModelCodecTests {
    @Test(arguments: [SentimentModelKind.naiveBayes, .logisticRegression])
    func roundTrips(kind: SentimentModelKind) throws {
        let model = trainSmall(kind)
        let decoded = try SentimentModelCodec.decode(SentimentModelCodec.encode(model), file: "m.ftsm")
        #expect(decoded == model)
    }

    @Test func wrongVersionIsRejected() {
        var bytes = SentimentModelCodec.encode(trainSmall(.naiveBayes))
        bytes[8] = 2
        #expect(
            throws: SentimentError.invalidModel(
                file: "m.ftsm",
                reason:
                    "format version 2 is not supported (this build reads version 4); retrain the model with this build")
        ) {
            try SentimentModelCodec.decode(bytes, file: "m.ftsm")
        }
    }

    @Test func corruptionIsDetected() {
        var bytes = SentimentModelCodec.encode(trainSmall(.logisticRegression))
        bytes[bytes.count / 2] ^= 0x40
        #expect(
            throws: SentimentError.invalidModel(
                file: "m.ftsm", reason: "checksum mismatch: the file is corrupted; re-copy or retrain it")
        ) {
            try SentimentModelCodec.decode(bytes, file: "m.ftsm")
        }
    }

    @Test func truncationAndBadMagicAreDetected() {
        let bytes = SentimentModelCodec.encode(trainSmall(.logisticRegression))
        #expect(throws: SentimentError.self) { try SentimentModelCodec.decode(Array(bytes.dropLast(3)), file: "m") }
        #expect(
            throws: SentimentError.invalidModel(
                file: "m",
                reason: "not a Fieldtest sentiment model (bad magic); train one with 'fieldtest train sentiment'")
        ) {
            try SentimentModelCodec.decode(Array("id,text\n1,hi\n".utf8), file: "m")
        }
    }
}

@Suite("Index sort")
struct IndexSortTests {
    @Test(arguments: [0, 1, 2, 23, 24, 25, 63, 64, 65, 100, 300, 1_000, 5_000])
    func matchesTheStandardSort(count: Int) {
        var rng = SeededGenerator(seed: UInt64(count) + 1)
        for range in [
            Int32(0)...3, Int32(0)...1_000_000, Int32(7)...7, Int32(262_144)...524_287, Int32(0)...Int32.max,
            Int32(-5)...300,
        ] {
            var a = (0..<count).map { _ in Int32.random(in: range, using: &rng) }
            let expected = a.sorted()
            IndexSort.sort(&a)
            #expect(a == expected)
        }
        var descending = (0..<Int32(count)).reversed().map { $0 }
        IndexSort.sort(&descending)
        #expect(descending == (0..<Int32(count)).map { $0 })
    }
}

@Suite("Scorer")
struct SentimentScorerTests {
    let texts = [
        "I love this so much!!", "worst flight ever :( not good", "the bus leaves at 8",
        "#NotHappy with @bob http://x.co",
        "Café ÜBER 😍😍 soooo good", "never again... bad luck", "", "love love love it", "I don't like it, at all",
        "not supercalifragilisticexpialidocious, supercalifragilisticexpialidocious! 👨‍👩‍👧 abcdefghijklmnop abcdefghijklmnoq",
    ]

    @Test func scorerMatchesPlainPredictionExactly() {
        let model = trainSmall(.logisticRegression)
        for capacity in [0, 3, 1 << 10] {
            var scorer = SentimentScorer(model: model, memoCapacity: capacity)
            for _ in 0..<3 {
                for t in texts { #expect(scorer.predict(t) == model.predict(t)) }
            }
        }
    }

    @Test func scorerAgreesWithTheFeatureVectorPath() {
        guard case .logisticRegression(let m) = trainSmall(.logisticRegression) else { return }
        for t in texts {
            let fast = m.predict(t).probabilities
            let slow = m.probabilities(m.featurizer.features(t))
            // Tolerance 1e-5: the same sums in another order, with Float weights.
            for c in 0..<3 { #expect(abs(fast[c] - slow[c]) < 1e-5) }
        }
    }

    @Test func tokenBufferRoundTrips() {
        let tokens = TweetTokenizer().tokenize("I don't like it 😍 #SoHappy")
        #expect(TweetTokens(tokens).strings == tokens)
        var buffer = TweetTokens()
        TweetTokenizer().tokenize("I don't like it 😍 #SoHappy", into: &buffer)
        #expect(buffer.strings == tokens)
        #expect(buffer.count == tokens.count)
    }
}
