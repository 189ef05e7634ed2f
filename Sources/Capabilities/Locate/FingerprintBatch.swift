import FieldtestData
import Foundation
import Positioning

/// The `locate` batch: train on labelled UJIIndoorLoc records, locate query
/// records, render `row,longitude,latitude,floor,building,status` and, when the
/// queries carry ground truth, evaluate. No I/O: records in, text and values out.
///
/// A query in which no access point was detected (every RSSI is +100) carries no
/// information about where it was taken, so it is not located: its status is
/// `no_signal`, its estimate columns are empty and it is left out of the evaluation.
public enum FingerprintBatch {
    /// What became of one query record.
    public enum RowStatus: String, Sendable, Equatable {
        /// Located: the estimate columns hold the position.
        case ok
        /// No access point detected (every RSSI +100): not located, estimate columns empty.
        case noSignal = "no_signal"
    }

    /// What a batch produced.
    public struct Result: Sendable {
        /// One estimate per located query record, in input order; nil for a `no_signal` record.
        public var estimates: [FingerprintEstimate?]
        /// One status per query record, in input order.
        public var statuses: [RowStatus]
        /// Accuracy against the queries' ground truth, over the located records; nil when
        /// the queries have no ground truth or none was located.
        public var evaluation: FingerprintEvaluation?
        /// CSV text: header `row,longitude,latitude,floor,building,status`, row = 1-based data row
        /// of the input, coordinates in the input's projected metres, status `ok` or `no_signal`.
        public var csv: String
        /// Number of `no_signal` records.
        public var noSignalCount: Int { statuses.filter { $0 == .noSignal }.count }
    }

    /// Whether `rssi` has at least one detected access point (a value other than +100).
    public static func hasSignal(_ rssi: [Int8]) -> Bool { FingerprintSample.hasSignal(rssi) }

    /// Trains `FingerprintLocator` on `training` and locates `queries` (those with a signal, see
    /// `RowStatus`). O(n·d + q·(postings + n·k)).
    public static func run(
        training: [UJIIndoorLocRecord], queries: [UJIIndoorLocRecord],
        configuration: FingerprintLocator.Configuration = .tuned
    ) throws(PositioningError) -> Result {
        let model = try FingerprintLocator(
            training: try FingerprintSample.fromUJIIndoorLoc(training),
            configuration: configuration)
        return try run(model, queries: queries)
    }

    /// Locates `queries` with a trained `model`, as `run(training:queries:configuration:)`;
    /// `firstRow` is the 1-based row of the first query in its file (a run of a streamed file), used
    /// for the `row` column and in messages.
    public static func run(
        _ model: FingerprintLocator, queries: [UJIIndoorLocRecord], firstRow: Int = 1
    ) throws(PositioningError) -> Result {
        let statuses: [RowStatus] = queries.map { hasSignal($0.rssi) ? .ok : .noSignal }
        let locatedIndices = queries.indices.filter { statuses[$0] == .ok }
        let located: [FingerprintEstimate]
        do throws(PositioningError) {
            located = try model.locateAll(
                locatedIndices.map { queries[$0].rssi }, jobs: ProcessInfo.processInfo.activeProcessorCount)
        } catch {
            // Report the record's position in the whole input, not among the located ones.
            if case .wrongFingerprintLength(let k, let e, let f) = error {
                throw .wrongFingerprintLength(index: firstRow - 1 + locatedIndices[k], expected: e, found: f)
            }
            throw error
        }
        var estimates = [FingerprintEstimate?](repeating: nil, count: queries.count)
        for (k, i) in locatedIndices.enumerated() { estimates[i] = located[k] }
        var evaluation: FingerprintEvaluation? = nil
        let locatedQueries = locatedIndices.map { queries[$0] }
        if queries.allSatisfy({ $0.label != nil }), let truth = try? FingerprintSample.fromUJIIndoorLoc(locatedQueries)
        {
            evaluation = FingerprintEvaluation(estimates: located, truth: truth)
        }
        var w = CSVWriter()
        w.row(header)
        w.append(records: rows(estimates, firstRow: firstRow))
        return Result(estimates: estimates, statuses: statuses, evaluation: evaluation, csv: w.text)
    }

    /// The output header.
    public static let header = ["row", "longitude", "latitude", "floor", "building", "status"]

    /// Renders estimates as RFC 4180 CSV with locale-free numbers (millimetre precision);
    /// a nil estimate is a `no_signal` row with empty estimate columns.
    public static func csv(_ estimates: [FingerprintEstimate?]) -> String {
        var w = CSVWriter()
        w.row(header)
        w.append(records: rows(estimates, firstRow: 1))
        return w.text
    }

    /// The output rows (no header), numbered from `firstRow`.
    public static func rows(_ estimates: [FingerprintEstimate?], firstRow: Int) -> CSVWriter {
        var w = CSVWriter()
        for (i, e) in estimates.enumerated() {
            if let e {
                w.row([
                    String(firstRow + i), fixed(e.xMetres), fixed(e.yMetres), String(e.floor), String(e.building),
                    RowStatus.ok.rawValue,
                ])
            } else {
                w.row([String(firstRow + i), "", "", "", "", RowStatus.noSignal.rawValue])
            }
        }
        return w
    }

    /// `value` with three decimals, locale-free. Never traps: magnitudes beyond what the
    /// millimetre integer path holds (≥ 9·10¹⁵ m) are printed by `%.3f`, non-finite values as `nan`/`inf`/`-inf`.
    static func fixed(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        guard abs(value) < 9e15 else { return String(format: "%.3f", value) }
        let scaled = (value * 1000).rounded()
        let negative = scaled < 0
        let magnitude = Int64(abs(scaled))
        let frac = magnitude % 1000
        let fracText = String(frac)
        return (negative ? "-" : "") + String(magnitude / 1000) + "."
            + String(repeating: "0", count: 3 - fracText.count) + fracText
    }
}
