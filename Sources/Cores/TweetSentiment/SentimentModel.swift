import FieldtestData

/// The model families Fieldtest can train.
public enum SentimentModelKind: String, Sendable, CaseIterable, Codable {
    /// Multinomial Naive Bayes (`NaiveBayesClassifier`).
    case naiveBayes = "nb"
    /// Softmax logistic regression (`LogisticRegressionClassifier`).
    case logisticRegression = "logreg"
}

/// A trained model of either family, usable wherever a `SentimentClassifier` is.
public enum SentimentModel: SentimentClassifier, Equatable {
    /// A Naive Bayes model.
    case naiveBayes(NaiveBayesClassifier)
    /// A logistic-regression model.
    case logisticRegression(LogisticRegressionClassifier)

    /// The family.
    public var kind: SentimentModelKind {
        switch self {
        case .naiveBayes: return .naiveBayes
        case .logisticRegression: return .logisticRegression
        }
    }

    /// The featurizer of the wrapped model.
    public var featurizer: SentimentFeaturizer {
        switch self {
        case .naiveBayes(let m): return m.featurizer
        case .logisticRegression(let m): return m.featurizer
        }
    }

    /// The score blend weight of the wrapped model.
    public var lexiconScoreWeight: Double {
        switch self {
        case .naiveBayes(let m): return m.lexiconScoreWeight
        case .logisticRegression(let m): return m.lexiconScoreWeight
        }
    }

    /// Whether every stored parameter (priors/bias and the likelihood/weight table) is a finite number.
    public var parametersAreFinite: Bool {
        switch self {
        case .naiveBayes(let m): return m.logPriors.allSatisfy(\.isFinite) && m.logLikelihoods.allSatisfy(\.isFinite)
        case .logisticRegression(let m): return m.bias.allSatisfy(\.isFinite) && m.weights.allSatisfy(\.isFinite)
        }
    }

    /// Classifies `text` with the wrapped model.
    public func predict(_ text: String) -> SentimentPrediction {
        switch self {
        case .naiveBayes(let m): return m.predict(text)
        case .logisticRegression(let m): return m.predict(text)
        }
    }

    /// Classifies a tokenized tweet with the wrapped model.
    public func predict(tokens: [String]) -> SentimentPrediction {
        switch self {
        case .naiveBayes(let m): return m.predict(tokens: tokens)
        case .logisticRegression(let m): return m.predict(tokens: tokens)
        }
    }

    /// Class probabilities from the wrapped model.
    public func probabilities(_ features: SparseFeatures) -> [Double] {
        switch self {
        case .naiveBayes(let m): return m.probabilities(features)
        case .logisticRegression(let m): return m.probabilities(features)
        }
    }
}
