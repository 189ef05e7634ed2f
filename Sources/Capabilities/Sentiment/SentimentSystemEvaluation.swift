import FieldtestData
import Foundation
import TweetSentiment

/// `evaluate sentiment --system …`: a sentiment system's labels against labelled tweets, read as
/// `fieldtest evaluate sentiment` reads them (`SentimentCorpusFiles.load`: Sentiment140, airline,
/// TweetEval, SemEval, VADER ground truth, or any CSV with `text,label`).
///
/// Figures: `tweets`, `no_answer`; over the answered: `accuracy`, `macro_recall` (the SemEval-2017
/// measure), `macro_f1`, per class `precision`, `recall` and `f1` (scope: the class), and, where the
/// inputs carry human ratings (VADER's mean rating, −4…4), `pearson_r` of the system's score with them.
enum SentimentSystemEvaluation {
    static func run(_ r: SystemEvaluation.Request, choice: SystemChoice) throws -> (String, [SystemEvaluation.Figure]) {
        let corpus = try SentimentCorpusFiles.load(
            r.inputs.map { URL(fileURLWithPath: $0) }, displayName: { $0.relativePath })
        let texts = corpus.examples.map(\.text)
        let name: String
        let answers: [SentimentAnswer?]
        switch choice {
        case .builtin:
            let model = try SentimentModelFile.load(nil, datasets: r.datasets)
            (name, answers) = ("builtin", SystemEvaluation.batched(texts, model.classify))
        case .external(let spec):
            let system = try SystemEvaluation.start(.sentiment, spec: spec, request: r)
            defer { system.close() }
            let sentiment = ExternalSentimentSystem(system)
            (name, answers) = (SystemEvaluation.name(system), SystemEvaluation.batched(texts, sentiment.classify))
        }
        var matrix = ConfusionMatrix()
        var scores: [Double] = []
        var ratings: [Double] = []
        for (k, (example, answer)) in zip(corpus.examples, answers).enumerated() {
            try r.itemLog?.add(
                id: String(k + 1), expected: example.label.name, answer: answer?.label.name,
                correct: answer.map { $0.label == example.label })
            guard let answer else { continue }
            matrix.add(actual: example.label, predicted: answer.label)
            if let rating = example.meanRating {
                scores.append(answer.score)
                ratings.append(rating)
            }
        }
        let n = matrix.total
        func defined(_ v: Double) -> Double? { n == 0 ? nil : v }
        var figures: [SystemEvaluation.Figure] = [
            .init("tweets", Double(texts.count), unit: "count", rows: texts.count),
            .init("no_answer", Double(texts.count - n), unit: "count", rows: texts.count),
            .init("accuracy", defined(matrix.accuracy), unit: "rate", rows: n),
            .init("macro_recall", defined(matrix.macroRecall), unit: "rate", rows: n),
            .init("macro_f1", defined(matrix.macroF1), unit: "rate", rows: n),
        ]
        for label in SentimentLabel.allCases {
            let support = matrix.counts[label.rawValue].reduce(0, +)
            let predicted = matrix.counts.reduce(0) { $0 + $1[label.rawValue] }
            figures += [
                .init("precision", scope: label.name, defined(matrix.precision(label)), unit: "rate", rows: predicted),
                .init("recall", scope: label.name, defined(matrix.recall(label)), unit: "rate", rows: support),
                .init("f1", scope: label.name, defined(matrix.f1(label)), unit: "rate", rows: support),
            ]
        }
        if !ratings.isEmpty {
            figures.append(.init("pearson_r", Correlation.pearson(scores, ratings), unit: "r", rows: ratings.count))
        }
        return (name, figures)
    }
}
