import FieldtestData
import Foundation

/// The evaluation entry point used by `fieldtest evaluate sentiment`: a model measured on labelled
/// tweets, per source and in total.
public enum SentimentEvaluation {
    /// Parses a `--classes` list such as `negative,positive` (nil: all three classes).
    public static func classes(_ text: String?) throws(ClassListError) -> Set<SentimentLabel> {
        guard let text else { return Set(SentimentLabel.allCases) }
        var out = Set<SentimentLabel>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let label = SentimentLabel(name: part.trimmingCharacters(in: .whitespaces).lowercased()) else {
                throw .unknownClass(String(part))
            }
            out.insert(label)
        }
        if out.count < 2 { throw .tooFewClasses }
        return out
    }

    /// A `--classes` list that names no valid set of classes.
    public enum ClassListError: Error, Sendable, Equatable, CustomStringConvertible {
        /// A name that is not a class.
        case unknownClass(String)
        /// Fewer than two classes to decide among.
        case tooFewClasses

        public var description: String {
            switch self {
            case .unknownClass(let name):
                "error: --classes: '\(name)' is not a class; use negative, neutral, positive (comma-separated)"
            case .tooFewClasses: "error: --classes needs at least two classes, e.g. negative,positive"
            }
        }
    }

    /// Labelled tweets were found, but the filters (`--reserved-only`, `--classes`) left none to score.
    public struct NoRowsSelected: Error, CustomStringConvertible {
        /// The input files, as displayed.
        public var files: [String]
        /// Labelled tweets read from `files`.
        public var loadedCount: Int
        /// Tweets of the evaluation share, with `--reserved-only`; else nil.
        public var reservedCount: Int?
        /// Classes of the tweets left after `--reserved-only`.
        public var present: Set<SentimentLabel>
        /// The classes asked for.
        public var chosen: Set<SentimentLabel>

        /// The error for `files` (as displayed), of `loadedCount` labelled tweets, `reservedCount` of the
        /// evaluation share (nil without `--reserved-only`), holding the classes `present`.
        public init(
            files: [String], loadedCount: Int, reservedCount: Int?, present: Set<SentimentLabel>,
            chosen: Set<SentimentLabel>
        ) {
            (self.files, self.loadedCount, self.reservedCount) = (files, loadedCount, reservedCount)
            (self.present, self.chosen) = (present, chosen)
        }

        public var description: String {
            func names(_ s: Set<SentimentLabel>) -> String {
                SentimentLabel.allCases.filter(s.contains).map(\.name).joined(separator: ", ")
            }
            let source = files.joined(separator: ", ")
            if reservedCount == 0 {
                return
                    "\(source): error: no rows selected: none of the \(loadedCount) labelled tweets is in the evaluation share "
                    + "(one tweet in ten, by text hash) that --reserved-only scores; drop --reserved-only to evaluate them all"
            }
            return
                "\(source): error: no rows selected: --classes \(names(chosen)) excludes every label present (\(names(present)))"
                + "\(reservedCount == nil ? "" : " in the evaluation share --reserved-only keeps"); include at least one of \(names(present)) in --classes"
        }
    }
}
