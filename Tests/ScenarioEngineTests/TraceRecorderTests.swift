import FieldtestData
import Foundation
import MetricReports
import Testing

@testable import ScenarioEngine

/// The trace recorder's bounds and the trace files' formats.
@Suite("Trace recorder")
struct TraceRecorderTests {
    static func event(_ i: Int) -> TraceEvent {
        TraceEvent(time: Double(i), device: "phone", requirement: "R-1", metric: "m", value: Double(i), unit: "m")
    }

    @Test func eventsPastTheCapAreCountedNotKeptButEndOfRunChecksAlwaysAre() {
        let r = TraceRecorder(app: "demo", level: .summary)
        let cap = TraceLevel.summary.caps.eventsPerCase
        for i in 0..<(cap + 7) { r.event(Self.event(i)) }
        #expect(r.trace.events.count == cap)
        #expect(r.trace.droppedEvents == 7)
        r.summaryEvent(Self.event(-1))
        #expect(r.trace.events.count == cap + 1)
        let csv = TraceFiles.events([TraceFiles.Case(label: "demo", start: 0, trace: r.trace)])
        #expect(csv.contains(",trace_events_dropped,7,count,"))
    }

    @Test func levelNoneRecordsNothing() {
        let r = TraceRecorder(app: "demo", level: .none)
        r.event(Self.event(1))
        r.latency(time: 0, requirement: "R-1", metric: "m", seconds: 0.1)
        r.feature(TraceFeature(kind: "route", time: 0, geometry: .point(GeoPoint(latitude: 1, longitude: 2))))
        #expect(r.trace == CaseTrace(app: "demo"))
        #expect(!r.acceptsFeatures)
    }

    @Test(arguments: [2, 3, 10, 120])
    func thinningKeepsTheEndsAndAtMostTheLimit(limit: Int) {
        let line = (0..<500).map { GeoPoint(latitude: Double($0) * 1e-5, longitude: 0) }
        let thin = TraceRecorder.thin(line, to: limit)
        #expect(thin.count == limit)
        #expect(thin.first == line.first && thin.last == line.last)
        #expect(TraceRecorder.thin(Array(line.prefix(5)), to: limit).count == min(5, max(2, limit)))
    }

    @Test func degenerateGeometriesBecomeValidOnesOrAreLeftOut() {
        let r = TraceRecorder(app: "demo", level: .summary)
        let p = GeoPoint(latitude: 1, longitude: 2)
        r.feature(TraceFeature(kind: "route", time: 0, geometry: .lineString([p])))
        r.feature(TraceFeature(kind: "route", time: 0, geometry: .lineString([])))
        r.feature(TraceFeature(kind: "cell", time: 0, geometry: .polygon([p, p, p])))
        r.feature(TraceFeature(kind: "campus", time: nil, geometry: .multiLineString([[p], [p, p]])))
        #expect(r.trace.features.map(\.geometry) == [.point(p), .multiLineString([[p, p]])])
    }

    @Test func onceKeepsOnlyTheFirstFeatureOfAKey() {
        let r = TraceRecorder(app: "demo", level: .full)
        let a = TraceFeature(kind: "campus", time: nil, geometry: .point(GeoPoint(latitude: 1, longitude: 2)))
        r.feature(a, once: "campus")
        r.feature(a, once: "campus")
        #expect(r.trace.features.count == 1)
    }

    @Test func geoJSONWritesLongitudeFirstClosesRingsAndEscapesText() {
        var t = CaseTrace(app: "demo")
        let p = GeoPoint(latitude: 39.1, longitude: -77.2)
        t.features = [
            TraceFeature(
                kind: "cell", time: 86_400.5,
                geometry: .polygon([
                    p, p.offset(eastMetres: 50, northMetres: 0), p.offset(eastMetres: 50, northMetres: 50),
                ]),
                properties: [TraceProperty("name", .text("a \"quoted\"\nname")), TraceProperty("n", .number(.nan))])
        ]
        let text = TraceFiles.geoJSON([TraceFiles.Case(label: "c", start: 0, trace: t)], level: .summary)
        #expect(text.contains("[-77.2000000,39.1000000]"))
        #expect(text.contains("\"time\":\"1970-01-02T00:00:00.500Z\""))
        #expect(text.contains("\"name\":\"a \\\"quoted\\\"\\nname\""))
        #expect(text.contains("\"n\":null"))
        let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let ring =
            ((object?["features"] as? [[String: Any]])?.first?["geometry"] as? [String: Any])?["coordinates"]
            as? [[[Double]]]
        #expect(ring?.first?.count == 4)
        #expect(ring?.first?.first == ring?.first?.last)
    }

    @Test func geoJSONStylesKindsAndWritesALineOfOnePositionAsAPoint() throws {
        var t = CaseTrace(app: "demo")
        let p = GeoPoint(latitude: 39.1, longitude: -77.2)
        let q = p.offset(eastMetres: 30, northMetres: 0)
        t.features = [
            TraceFeature(
                kind: "route", time: 0, geometry: .lineString([p, p]),
                properties: [TraceProperty("online", .bool(false))]),
            TraceFeature(
                kind: "route", time: 0, geometry: .lineString([p, q]),
                properties: [TraceProperty("online", .bool(true))]),
            TraceFeature(kind: "campus", time: nil, geometry: .multiLineString([[p, q], [q, q]])),
            TraceFeature(
                kind: "heatmap_cell", time: 0, geometry: .polygon([p, q, q.offset(eastMetres: 0, northMetres: 30)]),
                properties: [TraceProperty("devices", .integer(4))]),
        ]
        let text = TraceFiles.geoJSON([TraceFiles.Case(label: "c", start: 0, trace: t)], level: .summary)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let features = try #require(object["features"] as? [[String: Any]])
        let geometries = features.map { $0["geometry"] as? [String: Any] ?? [:] }
        let properties = features.map { $0["properties"] as? [String: Any] ?? [:] }
        #expect(geometries[0]["type"] as? String == "Point")
        #expect(geometries[1]["type"] as? String == "LineString")
        #expect((geometries[2]["coordinates"] as? [[[Double]]])?.count == 1)
        #expect(properties[0]["stroke"] as? String == "#CC79A7")
        #expect(properties[1]["stroke"] as? String == "#0072B2")
        #expect(properties[1]["title"] as? String == "route (c)")
        #expect(properties[3]["fill"] as? String == "#CC3311")
        #expect(properties[3]["fill-opacity"] as? Double == 0.3)
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"), (1_674_540_000.25, "2023-01-24T06:00:00.250Z"),
        (-0.5, "1969-12-31T23:59:59.500Z"),
    ])
    func isoTimeIsUTCToTheMillisecond(seconds: Double, text: String) {
        #expect(TraceFiles.isoTime(seconds) == text)
    }
}
