import FieldtestData
import Foundation

/// Multinomial Naive Bayes over hashed unigram + bigram indicators with Laplace
/// (add-α) smoothing — the baseline of Go, Bhayani & Huang (2009), after
/// McCallum & Nigam (1998), "A Comparison of Event Models for Naive Bayes Text
/// Classification". Lexicon features are not used (they are not counts).
/// Training: O(total features); prediction: O(features of the tweet).
public struct NaiveBayesClassifier: SentimentClassifier, Equatable {
    /// The featurizer.
    public var featurizer: SentimentFeaturizer
    /// log P(class), indexed by class.
    public var logPriors: [Double]
    /// log P(bucket | class), class-major: `[class * buckets + bucket]`.
    public var logLikelihoods: [Float]
    /// Weight of the lexicon compound in the score.
    public var lexiconScoreWeight: Double

    /// Creates a model from parameters.
    public init(
        featurizer: SentimentFeaturizer, logPriors: [Double], logLikelihoods: [Float], lexiconScoreWeight: Double
    ) {
        self.featurizer = featurizer
        self.logPriors = logPriors
        self.logLikelihoods = logLikelihoods
        self.lexiconScoreWeight = lexiconScoreWeight
    }

    /// Trains on feature vectors with labels and example weights.
    /// - Parameters:
    ///   - alpha: Laplace smoothing pseudo-count per bucket.
    ///   - uniformPriors: use equal class priors (recommended when classes were re-weighted).
    public static func train(
        featurizer: SentimentFeaturizer, examples: [SparseFeatures], labels: [SentimentLabel],
        weights: [Double], alpha: Double = 1, uniformPriors: Bool = true,
        lexiconScoreWeight: Double = 0
    ) -> NaiveBayesClassifier {
        let buckets = 1 << featurizer.hashBits
        var counts = [Double](repeating: 0, count: 3 * buckets)
        var classTotals = [Double](repeating: 0, count: 3)
        var classWeights = [Double](repeating: 0, count: 3)
        for (i, f) in examples.enumerated() where i < labels.count && i < weights.count {
            let c = labels[i].rawValue
            let w = weights[i]
            classWeights[c] += w
            for j in f.indices where Int(j) < buckets {
                counts[c * buckets + Int(j)] += w
                classTotals[c] += w
            }
        }
        var logL = [Float](repeating: 0, count: 3 * buckets)
        for c in 0..<3 {
            let denom = Foundation.log(classTotals[c] + alpha * Double(buckets))
            for b in 0..<buckets {
                logL[c * buckets + b] = Float(Foundation.log(counts[c * buckets + b] + alpha) - denom)
            }
        }
        let totalWeight = classWeights.reduce(0, +)
        let priors: [Double] = (0..<3).map { c in
            uniformPriors || totalWeight == 0
                ? Foundation.log(1.0 / 3) : Foundation.log(max(classWeights[c], 1e-9) / totalWeight)
        }
        return NaiveBayesClassifier(
            featurizer: featurizer, logPriors: priors, logLikelihoods: logL,
            lexiconScoreWeight: lexiconScoreWeight)
    }

    /// Posterior class probabilities.
    public func probabilities(_ features: SparseFeatures) -> [Double] {
        let buckets = 1 << featurizer.hashBits
        var s = logPriors.count == 3 ? logPriors : [0, 0, 0]
        logLikelihoods.withUnsafeBufferPointer { l in
            guard l.count == 3 * buckets else { return }
            for j in features.indices where Int(j) < buckets {
                let b = Int(j)
                s[0] += Double(l[b])
                s[1] += Double(l[buckets + b])
                s[2] += Double(l[2 * buckets + b])
            }
        }
        return softmax3(s[0], s[1], s[2])
    }
}
