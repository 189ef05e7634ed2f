import FieldtestData
import FieldtestGSL
import Foundation
import MetricReports

/// A metric across the seeds of a sweep: one row of `seeds.csv`.
public struct SeedSummaryRow: Sendable, Equatable {
    /// The case label without its seed (`name[param=value]`, or the scenario name).
    public var scenario: String
    /// Requirement ID.
    public var requirement: String
    /// Metric name.
    public var metric: String
    /// Unit of `mean`, `sd` and the interval.
    public var unit: String
    /// Seeds whose row has samples and a finite value.
    public var seeds: Int
    /// The mean of the seeds' values.
    public var mean: Double
    /// The sample standard deviation across seeds (nil for one seed).
    public var sd: Double?
    /// Student's t 95 % interval of the mean (nil for one seed).
    public var ci: ConfidenceInterval?
}

/// `seeds.csv`: how a sweep's figures vary from seed to seed. Per case without its seed, requirement
/// and metric, the mean of the value over the seeds, its standard deviation and the Student-t 95 %
/// interval of the mean (`Intervals.tMean`). Rows of no sample are left out.
public enum SeedSummary {
    /// The file's name in a report folder (written when the sweep has several seeds).
    public static let fileName = "seeds.csv"
    /// The columns, in order.
    public static let columns = [
        "scenario", "requirement", "metric", "unit", "seeds", "mean", "sd", "ci_low", "ci_high",
    ]

    /// `label` without its `seed=N` (`name[a=1,seed=2]` → `name[a=1]`, `name[seed=2]` → `name`); nil
    /// when it names no seed.
    public static func labelWithoutSeed(_ label: String) -> String? {
        guard label.hasSuffix("]"), let at = label.range(of: "seed=", options: .backwards),
            at.lowerBound > label.startIndex
        else { return nil }
        let digits = label[at.upperBound..<label.index(before: label.endIndex)]
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), UInt64(digits) != nil else { return nil }
        let before = label.index(before: at.lowerBound)
        switch label[before] {
        case "[": return String(label[..<before])
        case ",": return String(label[..<before]) + "]"
        default: return nil
        }
    }

    /// The summary of `rows` (a sweep's `metrics.csv`), in order of first appearance; empty when no
    /// group spans two seeds.
    public static func summarise(_ rows: [MetricRow]) -> [SeedSummaryRow] {
        var order: [String] = []
        var groups: [String: (head: MetricRow, label: String, values: [Double])] = [:]
        for row in rows {
            guard let label = labelWithoutSeed(row.scenario) else { continue }
            let key = label + "\u{1F}" + row.requirement + "\u{1F}" + row.metric
            if groups[key] == nil {
                order.append(key)
                groups[key] = (row, label, [])
            }
            if row.samples > 0, row.value.isFinite { groups[key]!.values.append(row.value) }
        }
        let summary = order.compactMap { key -> SeedSummaryRow? in
            let g = groups[key]!
            guard let mean = Quantiles.mean(g.values) else { return nil }
            return SeedSummaryRow(
                scenario: g.label, requirement: g.head.requirement, metric: g.head.metric, unit: g.head.unit,
                seeds: g.values.count, mean: mean, sd: g.values.count > 1 ? Quantiles.standardDeviation(g.values) : nil,
                ci: Intervals.tMean(g.values))
        }
        return summary.contains { $0.seeds > 1 } ? summary : []
    }

    /// RFC 4180 CSV with a header; numbers in full precision, empty where undefined.
    public static func render(_ rows: [SeedSummaryRow]) -> String {
        func number(_ v: Double?) -> String { v.map { CSVWriter.exactNumber($0) } ?? "" }
        var w = CSVWriter()
        w.row(columns)
        for r in rows {
            w.row([
                r.scenario, r.requirement, r.metric, r.unit, String(r.seeds), number(r.mean), number(r.sd),
                number(r.ci?.low), number(r.ci?.high),
            ])
        }
        return w.text
    }
}
