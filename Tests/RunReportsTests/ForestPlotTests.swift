import Foundation
import Plot
import Testing

@testable import RunReports

/// The forest plot of `compare --report`: a zero line, one bar per system from its interval's ends.
@Suite("Forest plot")
struct ForestPlotTests {
    func svg(_ lines: [ForestLine]) -> String {
        let node = Charts.forestPlot(
            title: "forest plot of REQ m", xLabel: "difference (s)", lines: lines, format: { v, d in "\(v)" })
        return Node<HTML.BodyContext>.div(node).render()
    }

    @Test func eachSystemIsABarFromItsIntervalAroundTheZeroLine() throws {
        let text = svg([
            ForestLine(label: "a", delta: 1, low: 0.5, high: 1.5, cls: "worse", tip: "a: Δ 1"),
            ForestLine(label: "a-very-long-system-name", delta: -0.2, low: -0.4, high: 0.1, cls: "same", tip: "b"),
        ])
        #expect(text.contains("aria-label=\"forest plot of REQ m\""))
        #expect(text.contains("class=\"zero\""))
        #expect(text.components(separatedBy: "class=\"ci worse\"").count - 1 == 3)  // bar and two caps
        #expect(text.components(separatedBy: "class=\"point ").count - 1 == 2)
        // A long name is cut so it stays inside the chart; its tooltip keeps the rest.
        #expect(text.contains("a-very-long-s…"))
        #expect(!text.contains(">a-very-long-system-name<"))
    }

    @Test func theZeroLineLiesBetweenANegativeAndAPositiveDifference() throws {
        let text = svg([
            ForestLine(label: "a", delta: -2, low: nil, high: nil, cls: "same", tip: ""),
            ForestLine(label: "b", delta: 3, low: nil, high: nil, cls: "same", tip: ""),
        ])
        func x(of cls: String) throws -> Double {
            let part = try #require(text.components(separatedBy: "class=\"\(cls)\"").first)
            let field = try #require(part.components(separatedBy: "x1=\"").last?.split(separator: "\"").first)
            return try #require(Double(field))
        }
        func cx(_ n: Int) throws -> Double {
            let parts = text.components(separatedBy: "cx=\"")
            return try #require(Double(parts[n].split(separator: "\"")[0]))
        }
        let zero = try x(of: "zero")
        #expect(try cx(1) < zero && zero < cx(2))
    }
}
