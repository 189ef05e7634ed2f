import Foundation

extension SystemCapability {
    /// Campus routing between two points (`fieldtest route`'s columns).
    public static let route = SystemCapability(name: "route", operation: "route")
}

extension CapabilityDefinition {
    /// Campus routing: the A* router (`RoutingSystem`), the `route` batch job (`RouteBatch`), the exact
    /// shortest-path oracle (`ShortestPathOracle`) and its evaluator (`RouteEvaluation`).
    public static let route = CapabilityDefinition(
        capability: .route,
        evaluation: Evaluation(
            abstract: "Score a router against exact shortest paths on the same map (length error, optimality, status).",
            inputs:
                "--input: fieldtest route's queries (id,from_lat,from_lon,to_lat,to_lon,profile); --graph: the map.",
            needsGraph: true,
            run: { r, choice in try RouteEvaluation.run(r, choice: choice) }),
        serveBuiltin: { _, name, version, maxLineBytes in
            var core = ServedRoute()
            SystemServer.serve(&core, name: name, version: version, maxLineBytes: maxLineBytes)
        })
}
