import FieldtestData
import Foundation
import Plot
import ScenarioEngine
import Testing

@testable import RunReports

/// Trace maps tell online from offline routes, name every kind they draw, give the heat map a scale
/// and count in their captions what they draw and what the feature cap left out.
@Suite("Map legend and counts")
struct MapLegendTests {
    static let a = GeoPoint(latitude: -25.7545, longitude: 28.2314)
    static let b = GeoPoint(latitude: -25.7530, longitude: 28.2330)

    static func html(_ node: SVG.Node) -> String { Node<HTML.BodyContext>.div(node).render() }

    static func route(online: Bool) -> MapFeature {
        MapFeature(kind: "route", lines: [[a, b]], numbers: ["online": online ? 1 : 0, "length_m": 230])
    }

    static func cell(_ devices: Double) -> MapFeature {
        let ring = [a, a.offset(eastMetres: 50, northMetres: 0), a.offset(eastMetres: 50, northMetres: 50), a]
        return MapFeature(kind: "heatmap_cell", lines: [ring], isPolygon: true, numbers: ["devices": devices])
    }

    @Test func offlineRoutesAreDrawnApartAndNamedInTheLegend() {
        let features = [
            MapFeature(kind: "campus", lines: [[Self.a, Self.b]]), Self.route(online: true), Self.route(online: false),
        ]
        #expect(Charts.mapClass(features[1]) == "route")
        #expect(Charts.mapClass(features[2]) == "route offline")
        let legend = Charts.mapLegend(for: features).map(\.text)
        #expect(legend.contains("campus paths"))
        #expect(legend.contains { $0.hasPrefix("online route") })
        #expect(legend.contains { $0.hasPrefix("offline route") })
        let svg = Self.html(Charts.map(title: "m", features: features))
        #expect(svg.contains("class=\"route offline\""))
        #expect(svg.contains("class=\"route\""))
        // Only online routes: no offline entry.
        #expect(!Charts.mapLegend(for: [Self.route(online: true)]).contains { $0.cls == "route offline" })
    }

    @Test func everyKindDrawnHasALegendEntry() {
        let kinds = ["campus", "evacuation", "true_track", "gps_track", "fused_track", "exits"]
        let features = kinds.map { MapFeature(kind: $0, lines: [[Self.a, Self.b]]) } + [Self.cell(3)]
        let legend = Set(Charts.mapLegend(for: features).map(\.cls))
        #expect(legend == ["campus", "evacuation", "true-track", "gps-track", "fused-track", "exit", "heat"])
    }

    @Test func heatMapHasALabelledScaleOfDeviceCounts() {
        #expect(Charts.heatSteps([Self.cell(1), Self.cell(3)]) == [1, 2, 3])
        #expect(Charts.heatSteps([Self.cell(2), Self.cell(41)]) == [1, 11, 21, 31, 41])
        #expect(Charts.heatSteps([Self.route(online: true)]).isEmpty)
        let features = [Self.cell(2), Self.cell(41)]
        let svg = Self.html(Charts.map(title: "m", features: features))
        #expect(svg.contains("aria-label=\"heat-map colour scale: 1, 11, 21, 31, 41 devices per 50 m cell"))
        let heat = Charts.mapLegend(for: features).first { $0.cls == "heat" }
        #expect(heat?.text == "crowd heat map: 1 (light) to 41 (dark) devices per 50 m cell")
        let one = Charts.mapLegend(for: [Self.cell(1)]).first { $0.cls == "heat" }
        #expect(one?.text == "crowd heat map: 1 device per 50 m cell")
        #expect(!Self.html(Charts.map(title: "m", features: [Self.route(online: true)])).contains("colour scale"))
    }

    @Test func captionCountsWhatIsDrawnAndWhatTheCapLeftOut() {
        let features = [Self.route(online: true), Self.route(online: true), Self.route(online: false), Self.cell(2)]
        #expect(Charts.mapCounts(features) == "3 routes (2 online, 1 offline), 0 evacuations, 1 heat-map cell")
        let capped = TraceGeoJSON.Dropped(features: 9, kinds: ["route": 7, "heatmap_cell": 2])
        #expect(
            Charts.mapCounts(features, dropped: capped)
                == "3 of 10 routes drawn (2 online, 1 offline), 0 evacuations, 1 of 3 heat-map cells drawn")
        // A file from before kinds were counted: the total, not a silent undercount.
        #expect(
            Charts.mapCounts(features, dropped: .init(features: 4)).hasSuffix(
                ", 4 more features left out by the trace cap"))
    }

    @Test func droppedKindsRoundTripThroughTracesGeoJSON() throws {
        var trace = CaseTrace(app: "navup")
        trace.droppedFeatures = 5
        trace.droppedFeatureKinds = ["route": 4, "gps_track": 1]
        let text = TraceFiles.geoJSON([TraceFiles.Case(label: "c[1]", start: 0, trace: trace)], level: .summary)
        let dropped = TraceGeoJSON.dropped(Data(text.utf8))
        #expect(dropped["c[1]"] == TraceGeoJSON.Dropped(features: 5, kinds: ["route": 4, "gps_track": 1]))
        #expect(try TraceGeoJSON.parse(Data(text.utf8), file: "t").isEmpty)
    }

    @Test func recorderCountsDroppedFeaturesByKind() {
        let recorder = TraceRecorder(app: "navup", level: .summary)
        let cap = TraceLevel.summary.caps.featuresPerCase
        for _ in 0...cap {
            recorder.feature(TraceFeature(kind: "route", time: 0, geometry: .lineString([Self.a, Self.b])))
        }
        recorder.feature(TraceFeature(kind: "heatmap_cell", time: 0, geometry: .point(Self.a)))
        #expect(recorder.trace.droppedFeatures == 2)
        #expect(recorder.trace.droppedFeatureKinds == ["route": 1, "heatmap_cell": 1])
    }
}
