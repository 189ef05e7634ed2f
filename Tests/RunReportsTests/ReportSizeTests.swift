import FieldtestData
import FieldtestTestSupport
import Foundation
import MetricReports
import Testing

@testable import RunReports

/// A page's size, and so the memory that renders it, stays bounded however many rows metrics.csv has.
@Suite("HTML report size")
struct ReportSizeTests {
    /// A lone metrics.csv of `count` distinct rows (one case, each row its own metric).
    static func metricsFile(rows count: Int, sweepCases: Int = 1) throws -> URL {
        let folder = TemporaryFiles.url("report-size")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let rows = (0..<count).map { i in
            MetricRow(
                scenario: sweepCases > 1 ? "big[x=\(i % sweepCases)]" : "big", runID: "r", seed: 1,
                requirement: "SKY-P1", metric: "m_\(i / sweepCases)", kind: .accuracy, value: Double(i), unit: "ratio",
                threshold: 0.5, comparator: .greaterOrEqual, samples: 1)
        }
        let file = folder.appendingPathComponent("metrics.csv")
        try AtomicFile.write(MetricsCSV.render(rows), to: file)
        return file
    }

    static func tableRows(_ html: String) -> Int {
        // Every row of a requirement table has its id (the failures list links to it).
        html.components(separatedBy: "<tr id=\"row-").count - 1
    }

    @Test("N12: a metrics.csv of many distinct rows renders at most maximumTableRows of them, and says how many more")
    func n12TablesAreCapped() throws {
        let total = HTMLReport.maximumTableRows + 1_500
        let file = try Self.metricsFile(rows: total)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let html = try HTMLReport.render(inputs: [file.path], requirements: [])
        #expect(Self.tableRows(html) == HTMLReport.maximumTableRows)
        #expect(html.contains("1500 more rows not shown"), "\(html.suffix(2000))")
        #expect(html.contains("\(total) rows"))  // the summary counts every row
        // A sweep's per-metric table is capped the same way.
        let sweep = try Self.metricsFile(rows: 2 * total, sweepCases: 2)
        defer { try? FileManager.default.removeItem(at: sweep.deletingLastPathComponent()) }
        let sweepHTML = try HTMLReport.render(inputs: [sweep.path], requirements: [])
        #expect(sweepHTML.contains("1500 more rows not shown"))
    }

    @Test("N12: a small metrics.csv shows every row and no note")
    func n12SmallTablesAreWhole() throws {
        let file = try Self.metricsFile(rows: 30)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let html = try HTMLReport.render(inputs: [file.path], requirements: [])
        #expect(Self.tableRows(html) == 30)
        #expect(!html.contains("more rows not shown"))
    }
}
