import FieldtestApps
import FieldtestData
import Foundation
import ScenarioEngine
import Testing

@testable import RunReports

/// A NavUP run's traces: GeoJSON any reader takes (checked by parsing it here as plain JSON against
/// RFC 7946's rules), bounded, and the same bytes from two runs.
@Suite("NavUP traces")
struct NavUPTraceTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The trace files' text of one run of `file` at `level`.
    static func traces(_ file: String, level: TraceLevel = .summary) throws -> (
        events: String, geo: String, latency: String
    ) {
        let manifest = try DatasetManifest(root: repo.appendingPathComponent("Datasets"))
        let scenario = try ScenarioLoader(manifest: manifest, registry: .bundled)
            .load(repo.appendingPathComponent("Scenarios/" + file), displayName: "Scenarios/" + file)
        let results = try ScenarioRunner.run(
            ScenarioRunner.cases(of: scenario), jobs: 1, runID: "trace-test",
            datasets: DatasetStore(manifest: manifest),
            apps: .bundled, trace: level)
        let cases = results.map {
            TraceFiles.Case(label: $0.scenarioCase.label, start: $0.scenarioCase.scenario.start, trace: $0.trace)
        }
        return (TraceFiles.events(cases), TraceFiles.geoJSON(cases, level: level), TraceFiles.latency(cases))
    }

    /// Checks `text` as an RFC 7946 FeatureCollection and returns its features' kinds and every position.
    static func validate(_ text: String) throws -> (kinds: [String], positions: [[Double]]) {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(root["type"] as? String == "FeatureCollection")
        let features = try #require(root["features"] as? [[String: Any]])
        var kinds: [String] = []
        var positions: [[Double]] = []
        func position(_ v: Any) {
            guard let p = v as? [Double], p.count == 2 else {
                Issue.record("a position is not [longitude, latitude]: \(v)")
                return
            }
            positions.append(p)
        }
        for f in features {
            #expect(f["type"] as? String == "Feature")
            let g = try #require(f["geometry"] as? [String: Any])
            let props = try #require(f["properties"] as? [String: Any])
            kinds.append(try #require(props["kind"] as? String))
            let c = try #require(g["coordinates"])
            switch g["type"] as? String {
            case "Point": position(c)
            case "MultiPoint", "LineString":
                let list = try #require(c as? [Any])
                if g["type"] as? String == "LineString" { #expect(list.count >= 2) }
                list.forEach(position)
            case "MultiLineString": try #require(c as? [[Any]]).forEach { $0.forEach(position) }
            case "Polygon":
                let rings = try #require(c as? [[[Double]]])
                for ring in rings {
                    #expect(ring.count >= 4 && ring.first == ring.last, "a polygon ring must be closed")
                    ring.forEach(position)
                }
            default: Issue.record("geometry type \(String(describing: g["type"])) is not one fieldtest writes")
            }
        }
        return (kinds, positions)
    }

    @Test func emergencyTracesAreGeoJSONInLongitudeLatitudeOrder() throws {
        let t = try Self.traces("navup-emergency.yaml")
        let (kinds, positions) = try Self.validate(t.geo)
        #expect(kinds.contains("campus"))
        #expect(kinds.contains("evacuation"))
        #expect(!positions.isEmpty)
        // [longitude, latitude]: the campus lies within a few km of its own centre; swapped axes would not.
        let manifest = try DatasetManifest(root: Self.repo.appendingPathComponent("Datasets"))
        let entry = try #require(manifest.entry(named: "campus-montgomery"))
        let campus = try NavUPCampus(url: manifest.url(of: entry), displayName: "campus-montgomery")
        for p in positions {
            #expect((-180...180).contains(p[0]) && (-90...90).contains(p[1]))
            #expect(abs(p[0] - campus.origin.longitude) < 0.05 && abs(p[1] - campus.origin.latitude) < 0.05)
        }
        // The reader the report uses takes it as it is.
        let features = try TraceGeoJSON.parse(Data(t.geo.utf8), file: "traces.geojson")
        #expect(features.count == kinds.count)
    }

    @Test func positioningTracesHoldTrueAndEstimatedTracks() throws {
        let t = try Self.traces("navup-positioning.yaml")
        let (kinds, _) = try Self.validate(t.geo)
        for kind in ["true_track", "gps_track", "fused_track"] { #expect(kinds.contains(kind), "no \(kind)") }
        #expect(t.events.contains(",NAV-L1,gps_error,"))
    }

    @Test func twoRunsWriteIdenticalEventsAndGeoJSON() throws {
        let a = try Self.traces("navup-emergency.yaml")
        let b = try Self.traces("navup-emergency.yaml")
        #expect(a.events == b.events)
        #expect(a.geo == b.geo)
        #expect(a.events.split(separator: "\n").count > 10)
    }

    @Test func noneWritesNothingAndEveryCheckIsAnEvent() throws {
        let none = try Self.traces("navup-emergency.yaml", level: .none)
        #expect(none.events.split(separator: "\n").count == 1)
        #expect(try Self.validate(none.geo).kinds.isEmpty)
        let summary = try Self.traces("navup-emergency.yaml")
        // Every non-latency row of metrics.csv is an event at the end of the run.
        #expect(summary.events.contains(",NAV-F9,invalid_emergency_routes,"))
    }
}
