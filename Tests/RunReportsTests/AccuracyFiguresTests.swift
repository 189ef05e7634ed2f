import FieldtestData
import Foundation
import MetricReports
import Testing

@testable import RunReports

/// Accuracy figures from items.csv: a confusion matrix of a classifier's labels and the CDF of numeric errors.
@Suite("HTML report: accuracy figures")
struct AccuracyFiguresTests {
    /// A one-case folder with `items` as its items.csv rows (after the header).
    static func folder(items: String) throws -> URL {
        let folder = try HTMLReportFailuresTests.caseFolder(allPass: true)
        try AtomicFile.write(ItemsCSV.header + items, to: folder.appendingPathComponent(ItemsCSV.fileName))
        return folder
    }

    @Test func aClassifierSeriesGetsAConfusionMatrixCountingExpectedAgainstAnswer() throws {
        var items = ""
        for (i, (expected, answer)) in [
            ("positive", "positive"), ("positive", "negative"), ("negative", "negative"), ("neutral", ""),
            ("negative", "negative"), ("positive", "positive"),
        ].enumerated() {
            items += "demo,MIC-14,sentiment_accuracy,\(i),\(expected),\(answer),\(expected == answer),\n"
        }
        let dir = try Self.folder(items: items)
        defer { try? FileManager.default.removeItem(at: dir) }
        let digest = try ItemDigest.read(dir.appendingPathComponent(ItemsCSV.fileName))
        let c = try #require(digest.confusions.first)
        #expect(c.labels == ["positive", "negative", "neutral"])
        #expect(c.counts["negative"]?["negative"] == 2 && c.counts["positive"]?["negative"] == 1)
        #expect(c.counts["neutral"]?[""] == 1 && c.total == 6)
        let html = try HTMLReport.render(inputs: [dir.path], requirements: [])
        #expect(
            html.contains(
                "aria-label=\"confusion matrix of MIC-14 sentiment_accuracy: 4 of 6 items answered as expected\""))
        #expect(html.contains(">none</th>"))
    }

    @Test func answersOutsideTheExpectedLabelsAreNoClassifier() throws {
        let items = """
            demo,SKY-P2,sun_event,Lincoln sunrise,2023-01-24T13:31:00Z,2023-01-24T13:32:00Z,false,
            demo,SKY-P2,sun_event,Lincoln sunset,none,none,true,
            demo,SKY-P2,polar_mismatch,Lincoln sunrise,2023-01-24T13:31:00Z,2023-01-24T13:31:00Z,true,
            demo,SKY-P2,polar_mismatch,Lincoln sunset,2023-01-24T23:34:00Z,2023-01-24T23:34:00Z,true,

            """
        let dir = try Self.folder(items: items)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try ItemDigest.read(dir.appendingPathComponent(ItemsCSV.fileName)).confusions.isEmpty)
    }

    @Test func numericErrorsGetADistributionOfTheirAbsoluteValues() throws {
        var items = ""
        for i in 0..<40 { items += "demo,SKY-P1,dropped_ratio,e\(i),x,y,,\(i % 2 == 0 ? -Double(i) : Double(i))\n" }
        let dir = try Self.folder(items: items)
        defer { try? FileManager.default.removeItem(at: dir) }
        let e = try #require(try ItemDigest.read(dir.appendingPathComponent(ItemsCSV.fileName)).errors.first)
        #expect(e.values == (0..<40).map(Double.init) && e.total == 40)
        let html = try HTMLReport.render(inputs: [dir.path], requirements: [])
        #expect(
            html.contains(
                "aria-label=\"error distribution of SKY-P1 dropped_ratio: 40 items, median 19.5, 95th percentile 37"))
        #expect(html.contains("class=\"series s0\""))
    }

    @Test func aRunWithoutItemsDrawsNoAccuracyFigures() throws {
        let dir = try HTMLReportFailuresTests.caseFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let html = try HTMLReport.render(inputs: [dir.path], requirements: [])
        #expect(!html.contains("confusion matrix") && !html.contains("error distribution"))
    }
}
