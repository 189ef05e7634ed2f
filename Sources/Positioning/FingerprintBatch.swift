import FieldtestData

/// The `locate` batch: train on labelled UJIIndoorLoc records, locate query
/// records, render `row,longitude,latitude,floor,building` and, when the
/// queries carry ground truth, evaluate. No I/O: records in, text and values out.
public enum FingerprintBatch {
    /// What a batch produced.
    public struct Result: Sendable {
        /// One estimate per query record, in input order.
        public var estimates: [FingerprintEstimate]
        /// Accuracy against the queries' ground truth; nil when they have none.
        public var evaluation: FingerprintEvaluation?
        /// CSV text: header `row,longitude,latitude,floor,building`, row = 1-based data row
        /// of the input, coordinates in the input's projected metres.
        public var csv: String
    }

    /// Trains `FingerprintLocator` on `training` and locates `queries`. O(n·d + q·(postings + n·k)).
    public static func run(training: [UJIIndoorLocRecord], queries: [UJIIndoorLocRecord],
                           configuration: FingerprintLocator.Configuration = .tuned) throws(PositioningError) -> Result {
        let model = try FingerprintLocator(training: try FingerprintSample.fromUJIIndoorLoc(training),
                                           configuration: configuration)
        let estimates = try model.locateAll(queries.map(\.rssi))
        var evaluation: FingerprintEvaluation? = nil
        if queries.allSatisfy({ $0.label != nil }), let truth = try? FingerprintSample.fromUJIIndoorLoc(queries) {
            evaluation = FingerprintEvaluation(estimates: estimates, truth: truth)
        }
        return Result(estimates: estimates, evaluation: evaluation, csv: csv(estimates))
    }

    /// Renders estimates as RFC 4180 CSV with locale-free numbers (millimetre precision).
    public static func csv(_ estimates: [FingerprintEstimate]) -> String {
        var w = CSVWriter()
        w.row(["row", "longitude", "latitude", "floor", "building"])
        for (i, e) in estimates.enumerated() {
            w.row([String(i + 1), fixed(e.xMetres), fixed(e.yMetres), String(e.floor), String(e.building)])
        }
        return w.text
    }

    /// `value` with three decimals, locale-free.
    static func fixed(_ value: Double) -> String {
        let scaled = (value * 1000).rounded()
        let negative = scaled < 0
        let magnitude = Int64(abs(scaled))
        let frac = magnitude % 1000
        let fracText = String(frac)
        return (negative ? "-" : "") + String(magnitude / 1000) + "." +
            String(repeating: "0", count: 3 - fracText.count) + fracText
    }
}
