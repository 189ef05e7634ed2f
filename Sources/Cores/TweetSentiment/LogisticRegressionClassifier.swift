import FieldtestData
import Foundation

/// Multinomial (softmax) logistic regression over hashed n-grams and lexicon
/// features, trained by stochastic gradient descent with AdaGrad step sizes
/// (Duchi, Hazan & Singer 2011) and L2 regularisation applied to the weights a
/// step touches (a standard sparse approximation). Examples carry weights, used
/// to balance classes and sources. Training: O(epochs × total features × 3);
/// prediction: O(features of the tweet).
public struct LogisticRegressionClassifier: SentimentClassifier, Equatable {
    /// The featurizer.
    public var featurizer: SentimentFeaturizer
    /// Weights, feature-major: `[feature * 3 + class]`, so the three class
    /// weights of a feature share a cache line.
    public var weights: [Float]
    /// Per-class bias.
    public var bias: [Double]
    /// Weight of the lexicon compound in the score.
    public var lexiconScoreWeight: Double

    /// Creates a model from parameters.
    public init(featurizer: SentimentFeaturizer, weights: [Float], bias: [Double], lexiconScoreWeight: Double) {
        self.featurizer = featurizer
        self.weights = weights
        self.bias = bias
        self.lexiconScoreWeight = lexiconScoreWeight
    }

    /// Hyper-parameters of training.
    public struct Hyperparameters: Sendable, Equatable {
        /// Passes over the data.
        public var epochs: Int = 6
        /// AdaGrad base learning rate.
        public var learningRate: Double = 0.2
        /// L2 penalty per example step.
        public var l2: Double = 1e-6
        /// Number of final epochs whose end-of-epoch parameters are averaged into the model
        /// (0 or 1: the last epoch's parameters). Averaging the iterates of stochastic gradient
        /// descent (Polyak & Juditsky 1992) smooths out the last examples' steps.
        public var averagedEpochs: Int = 0
        /// Creates hyper-parameters.
        public init(epochs: Int = 6, learningRate: Double = 0.2, l2: Double = 1e-6, averagedEpochs: Int = 0) {
            self.epochs = epochs
            self.learningRate = learningRate
            self.l2 = l2
            self.averagedEpochs = averagedEpochs
        }
    }

    /// Trains on feature vectors with labels and weights; the visiting order of
    /// each epoch is a shuffle drawn from `rng`, so the result is a pure function
    /// of the inputs and the generator's state.
    ///
    /// An example whose `posNegOnly` entry is true (a source that labels only positive or
    /// negative, such as emoticon-labelled tweets) is a partial label: it says which of the two
    /// polar classes the tweet is, not that it is not neutral. Its loss is −log of its class's
    /// probability among negative and positive (the softmax renormalised over those two), so it
    /// moves the positive-vs-negative decision and leaves the neutral class's weights alone.
    /// Missing entries count as false.
    public static func train(
        featurizer: SentimentFeaturizer, examples: [SparseFeatures], labels: [SentimentLabel],
        weights exampleWeights: [Double], posNegOnly: [Bool] = [], hyperparameters h: Hyperparameters = .init(),
        lexiconScoreWeight: Double = 0,
        using rng: inout some RandomNumberGenerator
    ) -> LogisticRegressionClassifier {
        let d = featurizer.dimension
        var w = [Float](repeating: 0, count: 3 * d)
        var g2 = [Float](repeating: 0, count: 3 * d)
        var b = [Double](repeating: 0, count: 3)
        var gb = [Double](repeating: 0, count: 3)
        let n = min(examples.count, labels.count, exampleWeights.count)
        var order = Array(0..<n)
        let eta = Float(h.learningRate)
        let l2 = Float(h.l2)
        let epochs = max(h.epochs, 0)
        let averaged = min(max(h.averagedEpochs, 1), max(epochs, 1))
        var sumW = [Float](repeating: 0, count: averaged > 1 ? 3 * d : 0)
        var sumB = [Double](repeating: 0, count: 3)
        for epoch in 0..<epochs {
            order.shuffle(using: &rng)
            w.withUnsafeMutableBufferPointer { W in
                g2.withUnsafeMutableBufferPointer { G in
                    for i in order {
                        let f = examples[i]
                        var z = b
                        for (k, j) in f.indices.enumerated() where Int(j) < d {
                            let v = f.values[k]
                            let jj = 3 * Int(j)
                            z[0] += Double(W[jj] * v)
                            z[1] += Double(W[jj + 1] * v)
                            z[2] += Double(W[jj + 2] * v)
                        }
                        var p = softmax3(z[0], z[1], z[2])
                        let y = labels[i].rawValue
                        if i < posNegOnly.count, posNegOnly[i], y != 1 {
                            // Renormalised over the two polar classes; neutral: target 0, p 0, no step.
                            let polar = p[0] + p[2]
                            p = polar > 0 ? [p[0] / polar, 0, p[2] / polar] : [0.5, 0, 0.5]
                        }
                        let ew = exampleWeights[i]
                        for c in 0..<3 {
                            let err = Float(((c == y ? 1 : 0) - p[c]) * ew)
                            let gbias = Double(err)
                            gb[c] += gbias * gbias
                            b[c] += h.learningRate * gbias / (gb[c].squareRoot() + 1e-8)
                            if err == 0 { continue }
                            for (k, j) in f.indices.enumerated() where Int(j) < d {
                                let at = 3 * Int(j) + c
                                let grad = err * f.values[k] - l2 * W[at]
                                G[at] += grad * grad
                                W[at] += eta * grad / (G[at].squareRoot() + 1e-6)
                            }
                        }
                    }
                }
            }
            if averaged > 1, epoch >= epochs - averaged {
                for k in 0..<w.count { sumW[k] += w[k] }
                for c in 0..<3 { sumB[c] += b[c] }
            }
        }
        if averaged > 1 {
            let scale = 1 / Float(averaged)
            w = sumW.map { $0 * scale }
            b = sumB.map { $0 / Double(averaged) }
        }
        return LogisticRegressionClassifier(
            featurizer: featurizer, weights: w, bias: b, lexiconScoreWeight: lexiconScoreWeight)
    }

    /// Softmax class probabilities.
    public func probabilities(_ features: SparseFeatures) -> [Double] {
        let d = featurizer.dimension
        var z0 = 0.0
        var z1 = 0.0
        var z2 = 0.0
        if bias.count == 3 {
            z0 = bias[0]
            z1 = bias[1]
            z2 = bias[2]
        }
        weights.withUnsafeBufferPointer { W in
            guard W.count == 3 * d else { return }
            features.indices.withUnsafeBufferPointer { I in
                features.values.withUnsafeBufferPointer { V in
                    let n = min(I.count, V.count)
                    for k in 0..<n {
                        let j = Int(I[k])
                        guard j >= 0, j < d else { continue }
                        let v = V[k]
                        let jj = 3 * j
                        z0 += Double(W[jj] * v)
                        z1 += Double(W[jj + 1] * v)
                        z2 += Double(W[jj + 2] * v)
                    }
                }
            }
        }
        return softmax3(z0, z1, z2)
    }
}
