import FieldtestData
import Foundation
import Testing

@testable import RunReports

/// The charting layer's geometry: scales, ticks, bins and the map projection.
@Suite("Chart geometry")
struct ChartGeometryTests {
    /// Pixel positions are compared to a millionth of a pixel: well below anything drawn, above the
    /// rounding of a few floating-point operations.
    static let pixelTolerance = 1e-6

    @Test func linearScaleMapsEndsAndMidpointAndInverts() {
        let s = LinearScale(domain: 10...20, range: (100, 300))
        #expect(abs(s(10) - 100) < Self.pixelTolerance)
        #expect(abs(s(20) - 300) < Self.pixelTolerance)
        #expect(abs(s(15) - 200) < Self.pixelTolerance)
        #expect(abs(s.invert(250) - 17.5) < Self.pixelTolerance)
        // A y axis runs backwards: larger values higher up, at smaller SVG y.
        let y = LinearScale(domain: 0...1, range: (200, 10))
        #expect(y(1) < y(0))
    }

    @Test func emptyDomainIsWidenedSoTheScaleStaysInvertible() {
        let s = LinearScale(domain: 5...5, range: (0, 100))
        #expect(s.domain.lowerBound < 5 && s.domain.upperBound > 5)
        #expect(abs(s(5) - 50) < Self.pixelTolerance)
    }

    @Test(arguments: [
        (0.0, 1.0, 5, [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]),
        (0.0, 100.0, 5, [0.0, 20, 40, 60, 80, 100]),
        (3.0, 97.0, 5, [20.0, 40, 60, 80]),
        (-0.3, 0.3, 6, [-0.3, -0.2, -0.1, 0, 0.1, 0.2, 0.3]),
    ])
    func ticksAreRoundValuesInsideTheDomain(lo: Double, hi: Double, count: Int, expected: [Double]) {
        let ticks = LinearScale(domain: lo...hi, range: (0, 1)).ticks(count: count)
        #expect(ticks == expected)
    }

    @Test func niceWidensTheDomainToTickValues() {
        let s = LinearScale(domain: 0.13...0.87, range: (0, 1)).nice(count: 5)
        #expect(s.domain == 0.0...1.0)
    }

    @Test func histogramCountsEveryFiniteValueOnce() {
        let values = [0.0, 0.1, 0.5, 0.9, 1.0, .nan, 1.0]
        let h = Histogram(values, bins: 4)
        #expect(h.counts.reduce(0, +) == 6)
        #expect(h.counts == [2, 0, 1, 3])
        #expect(abs(h.edges(of: 1).lowerBound - 0.25) < 1e-12)
        #expect(Histogram([2, 2, 2], bins: 3).counts.reduce(0, +) == 3)
    }

    @Test func chartFrameKeepsThePlotInsideTheDrawing() {
        let f = ChartFrame(xDomain: 0...10, yDomain: 3...7, yFromZero: true)
        #expect(f.y.domain.lowerBound == 0)
        #expect(abs(f.x(0) - f.plotLeft) < Self.pixelTolerance)
        #expect(abs(f.x(10) - f.plotRight) < Self.pixelTolerance)
        #expect(f.y(f.y.domain.upperBound) >= f.plotTop - Self.pixelTolerance)
        #expect(f.plotRight <= f.width && f.plotBottom <= f.height)
    }

    @Test func mapProjectionFitsPointsKeepsSquaresSquareAndPutsNorthUp() throws {
        let origin = GeoPoint(latitude: 60, longitude: 10)
        let east = origin.offset(eastMetres: 200, northMetres: 0)
        let north = origin.offset(eastMetres: 0, northMetres: 200)
        let p = try #require(MapProjection(fitting: [origin, east, north], width: 400, height: 300, margin: 10))
        for q in [origin, east, north].map({ p($0) }) {
            #expect(q.x >= 10 - 1e-6 && q.x <= 390 + 1e-6 && q.y >= 10 - 1e-6 && q.y <= 290 + 1e-6)
        }
        let o = p(origin)
        let e = p(east)
        let n = p(north)
        // 200 m east and 200 m north take the same pixels (to 0.5 %, the equirectangular error over 200 m).
        #expect(abs((e.x - o.x) - (o.y - n.y)) < 0.005 * (e.x - o.x))
        #expect(n.y < o.y)
        #expect(abs(p.pixels(metres: 200) - (e.x - o.x)) < 0.005 * (e.x - o.x))
    }

    @Test func svgAttributesAndPointListsAreEscapedAndRounded() {
        #expect(SVG.escape("a<b & \"c\"") == "a&lt;b &amp; &quot;c&quot;")
        #expect(SVG.pointList([(1.04, 2.0), (3.26, -4.24)]) == "1,2 3.3,-4.2")
        #expect(SVG.number(.nan) == "0")
    }

    @Test func formatGivesUnitsAndSensiblePrecision() {
        #expect(ReportFormat.value(0.126, unit: "s") == "126 ms")
        #expect(ReportFormat.value(2.1e-05, unit: "s") == "21 µs")
        #expect(ReportFormat.value(0.9712, unit: "ratio") == "0.971")
        #expect(ReportFormat.value(42, unit: "count") == "42")
        #expect(ReportFormat.value(12.345, unit: "m") == "12.3 m")
        #expect(ReportFormat.threshold("<=", 0.2, unit: "s") == "≤ 200 ms")
        #expect(ReportFormat.anchor("NAV-F4 x<y") == "NAV-F4-x-y")
    }
}
