import CampusRouting
import FieldtestData
import Foundation
import ScenarioEngine

/// What NavUP puts in a run's traces (`RunContext.trace`): the campus, each route and evacuation with
/// its length, duration, profile and snap distances, outdoor tracks beside the true track, and the
/// crowd heat map of the last crowd delivery. Nothing here changes what the app measures.
extension NavUPDriver {
    /// The campus paths and its exits, once per case.
    func traceCampus(_ campus: NavUPCampus, name: String, _ run: RunContext) {
        guard run.trace.isRecording else { return }
        run.trace.feature(
            TraceFeature(
                kind: "campus", time: nil, geometry: .multiLineString(campus.graph.edges.map(\.shape)),
                properties: [
                    TraceProperty("name", .text(name)), TraceProperty("edges", .integer(campus.graph.edges.count)),
                ]), once: "campus")
        if !campus.exits.isEmpty {
            run.trace.feature(
                TraceFeature(
                    kind: "exits", time: nil, geometry: .multiPoint(campus.exits.map(\.location)),
                    properties: [TraceProperty("names", .text(campus.exits.map(\.name).joined(separator: "; ")))]),
                once: "exits")
        }
    }

    /// One route answer on `device`: its length as an event, its line as a feature.
    func traceRoute(_ route: Route, device: String, online: Bool, congestion: String, _ run: RunContext) {
        guard run.trace.isRecording else { return }
        run.trace.event(
            TraceEvent(
                time: run.now, device: device, requirement: "NAV-F4", metric: "route_length",
                value: route.status == .ok ? route.lengthMetres : .nan, unit: "m"))
        guard route.status == .ok, run.trace.acceptsFeatures else { return }
        run.trace.feature(
            TraceFeature(
                kind: "route", time: run.now, device: device, geometry: .lineString(route.points),
                properties: Self.routeProperties(route) + [
                    TraceProperty("online", .bool(online)), TraceProperty("congestion", .text(congestion)),
                ]))
    }

    /// One evacuation: a check that it is as short as the nearest exit (`nearest`, metres, by the
    /// independent Dijkstra), and its line.
    func traceEvacuation(_ route: Route, nearest: Double, ok: Bool, exit: String?, _ run: RunContext) {
        guard run.trace.isRecording else { return }
        run.trace.event(
            TraceEvent(
                time: run.now, device: "", requirement: "NAV-F9", metric: "evacuation_length",
                value: route.status == .ok ? route.lengthMetres : .nan, unit: "m",
                expected: nearest.isFinite ? nearest : nil, comparator: nearest.isFinite ? .equal : .none,
                status: ok ? .pass : .fail))
        guard route.status == .ok else { return }
        run.trace.feature(
            TraceFeature(
                kind: "evacuation", time: run.now, geometry: .lineString(route.points),
                properties: Self.routeProperties(route) + [
                    TraceProperty("exit", .text(exit ?? "")), TraceProperty("ok", .bool(ok)),
                ]))
    }

    /// Length, duration, profile and snap distances of a route, for its feature.
    static func routeProperties(_ route: Route) -> [TraceProperty] {
        [
            TraceProperty("profile", .text(route.profile)), TraceProperty("status", .text(route.status.rawValue)),
            TraceProperty("length_m", .number(route.lengthMetres)),
            TraceProperty("duration_s", .number(route.durationSeconds)),
            TraceProperty("from_snap_m", .number(route.fromSnap?.metres ?? .nan)),
            TraceProperty("to_snap_m", .number(route.toSnap?.metres ?? .nan)),
        ]
    }

    /// An outdoor walk: the true track, the GPS fixes and the fused track (their errors are events,
    /// recorded as the walk goes).
    func traceOutdoorWalk(
        device: String, truth: [GeoPoint], gps: [GeoPoint], fused: [GeoPoint], start: Double, _ run: RunContext
    ) {
        guard run.trace.isRecording, truth.count >= 2 else { return }
        for (kind, points) in [("true_track", truth), ("gps_track", gps), ("fused_track", fused)]
        where points.count >= 2 {
            run.trace.feature(
                TraceFeature(
                    kind: kind, time: start, device: device, geometry: .lineString(points),
                    properties: [TraceProperty("points", .integer(points.count))]))
        }
    }

    /// The heat map the app showed at the last crowd delivery: 50 m cells with the devices the app
    /// counted and the walkers truly there.
    func traceHeatmap(_ run: RunContext) {
        guard run.trace.isRecording, let h = lastHeatmap else { return }
        let half = h.map.cellMetres / 2
        for c in h.map.cells where run.trace.acceptsFeatures {
            let ring = [(-half, -half), (half, -half), (half, half), (-half, half)].map {
                c.centre.offset(eastMetres: $0.0, northMetres: $0.1)
            }
            run.trace.feature(
                TraceFeature(
                    kind: "heatmap_cell", time: h.time, geometry: .polygon(ring),
                    properties: [
                        TraceProperty("devices", .integer(c.devices)), TraceProperty("density", .number(c.density)),
                        TraceProperty("true_walkers", .integer(h.truth[[c.row, c.column]] ?? 0)),
                    ]))
        }
    }
}
