import FieldtestData
import Foundation
import TweetSentiment

extension SentimentTrainer {
    /// Evaluations as CSV rows `source,classes,metric,value` (metrics: n, accuracy, binary_accuracy,
    /// macro_f1, macro_recall, precision_/recall_/f1_<class> for each evaluated class, pearson_r;
    /// figures in shortest round-trip form, missing ones left out).
    public static func reportCSV(_ evaluations: [SourceEvaluation]) -> String {
        var w = CSVWriter()
        w.row(["source", "classes", "metric", "value"])
        for e in evaluations {
            let source = e.source?.rawValue ?? "all"
            let classes = e.orderedClasses.map(\.name).joined(separator: "+")
            func put(_ metric: String, _ value: Double?) {
                if let value { w.row([source, classes, metric, "\(value)"]) }
            }
            w.row([source, classes, "n", String(e.confusion.total)])
            put("accuracy", e.confusion.accuracy)
            put("binary_accuracy", e.binaryAccuracy)
            put("macro_f1", e.macroF1)
            put("macro_recall", e.macroRecall)
            for c in e.orderedClasses {
                put("precision_\(c.name)", e.confusion.precision(c))
                put("recall_\(c.name)", e.confusion.recall(c))
                put("f1_\(c.name)", e.confusion.f1(c))
            }
            put("pearson_r", e.pearsonR)
        }
        return w.text
    }
}

extension TrainedTextIndex {
    /// The index file of the model at `model`: the same path with the extension `.trained`.
    public static func url(besideModel model: URL) -> URL {
        model.deletingPathExtension().appendingPathExtension("trained")
    }
}
