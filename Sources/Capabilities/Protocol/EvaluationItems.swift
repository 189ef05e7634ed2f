import FieldtestData
import Foundation

/// `evaluate … --items FILE`: one row per input item — a tweet, a sun event, a route query, a
/// fingerprint — with the reference, the system's answer, whether it is right and its error, so the
/// items behind every figure can be found. Rows are written as they are scored (the file replaces its
/// target only when the evaluation ends), in input order; the same input gives the same bytes.
///
/// Columns: `id` (the input's id, else its 1-based data row), `expected`, `answer` (empty: no answer),
/// `correct` (`true`/`false`, empty where undefined), `error` (in the capability's unit: seconds,
/// metres; empty where undefined) and `note` (e.g. the first step of a route off the map's paths).
public final class EvaluationItems {
    /// The columns, in order.
    public static let columns = ["id", "scope", "expected", "answer", "correct", "error", "note"]

    private let sink: OutputSink
    private var writer = CSVWriter()

    /// Items written to `path` (`-`: standard output).
    public init(path: String) throws {
        sink = try OutputSink(path: path)
        writer.row(Self.columns)
    }

    /// One item: `scope` is what it is scored for (an event such as `sunset`, `all` otherwise).
    public func add(
        id: String, scope: String = "all", expected: String, answer: String?, correct: Bool? = nil,
        error: Double? = nil, note: String = ""
    ) throws {
        writer.row([
            id, scope, expected, answer ?? "", correct.map { $0 ? "true" : "false" } ?? "",
            error.map { CSVWriter.exactNumber($0) } ?? "", note,
        ])
        if writer.bytes.count >= 1 << 20 { try flush() }
    }

    private func flush() throws {
        try sink.write(writer.bytes)
        writer = CSVWriter()
    }

    /// Writes what is left and puts the file in place.
    public func finish() throws {
        try flush()
        try sink.finish()
    }
}
