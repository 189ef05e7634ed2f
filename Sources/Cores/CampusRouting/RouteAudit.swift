/// An accessibility audit of a route: what a wheelchair user should know about it (NAV-F15).
public struct RouteAudit: Sendable, Equatable {
    /// Edges tagged `highway=steps`.
    public var stepsEdges = 0
    /// Nodes passed with `kerb=raised`.
    public var raisedKerbs = 0
    /// Nodes passed with `barrier=stile|turnstile|kissing_gate`.
    public var barriers = 0
    /// Edges or nodes tagged `wheelchair=no`.
    public var wheelchairNo = 0
    /// Edges without a `wheelchair` tag (unknown accessibility), and their length in metres.
    public var unknownAccessibilityEdges = 0
    /// Length of unknown-accessibility edges in metres.
    public var unknownAccessibilityMetres = 0.0
    /// Steepest numeric incline in percent (absolute), if any edge states one.
    public var maxInclinePercent: Double?
    /// Edges whose numeric incline exceeds 8 %.
    public var steepEdges = 0
    /// Distinct `surface` values met, sorted.
    public var surfaces: [String] = []
    /// Length in metres of edges tagged `lit=no`.
    public var unlitMetres = 0.0
    /// Edges a wheelchair cannot pass: tagged steps, `wheelchair=no` or an incline beyond 8 %, or with a
    /// raised kerb, a stile, turnstile or kissing gate, or `wheelchair=no` on any of their nodes (both ends
    /// included, so a blocking junction counts against each edge meeting there).
    public var impassableEdges = 0

    /// Whether the route has nothing a wheelchair cannot pass (steps, raised kerbs, barriers, wheelchair=no, > 8 %).
    public var isWheelchairPassable: Bool {
        stepsEdges == 0 && raisedKerbs == 0 && barriers == 0 && wheelchairNo == 0 && steepEdges == 0
    }

    /// `barrier=*` values a wheelchair cannot pass.
    static let blockingBarriers: Set<String> = ["stile", "turnstile", "kissing_gate"]

    /// Audits `route` on `graph`. Junction nodes are counted once. O(route points).
    public init(route: Route, graph: CampusGraph) {
        var surfaces = Set<String>()
        // Partial edges at the ends count with their walked length; their tags and node tags count whole
        // (a barrier on the part not walked is still next to the user).
        let walked: [(step: RouteStep, metres: Double)] =
            (route.head.map { [(RouteStep(edge: $0.edge, forward: $0.forward), $0.lengthMetres)] } ?? [])
            + route.steps.map { ($0, graph.edges[Int($0.edge)].lengthMetres) }
            + (route.tail.map { [(RouteStep(edge: $0.edge, forward: $0.forward), $0.lengthMetres)] } ?? [])
        for (i, (step, metres)) in walked.enumerated() {
            let e = graph.edges[Int(step.edge)]
            var impassable = e.tags["highway"] == "steps" || e.tags["wheelchair"] == "no"
            if e.tags["highway"] == "steps" { stepsEdges += 1 }
            if e.tags["wheelchair"] == "no" { wheelchairNo += 1 }
            if e.tags["wheelchair"] == nil {
                unknownAccessibilityEdges += 1
                unknownAccessibilityMetres += metres
            }
            if let raw = e.tags["incline"], let g = RoutingProfile.inclinePercent(raw) {
                maxInclinePercent = max(maxInclinePercent ?? 0, abs(g))
                if abs(g) > 8 {
                    steepEdges += 1
                    impassable = true
                }
            }
            if let s = e.tags["surface"] { surfaces.insert(s) }
            if e.tags["lit"] == "no" { unlitMetres += metres }
            // Count each node once: skip the edge's first node except on the first step.
            let lastIndex = e.shape.count - 1
            for (pos, tags) in e.nodeTags {
                let blocking =
                    tags["kerb"] == "raised" || tags["wheelchair"] == "no"
                    || tags["barrier"].map(Self.blockingBarriers.contains) == true
                if blocking { impassable = true }
                let entering = step.forward ? pos == 0 : pos == lastIndex
                if entering && i > 0 { continue }
                if tags["kerb"] == "raised" { raisedKerbs += 1 }
                if let b = tags["barrier"], Self.blockingBarriers.contains(b) { barriers += 1 }
                if tags["wheelchair"] == "no" { wheelchairNo += 1 }
            }
            if impassable { impassableEdges += 1 }
        }
        self.surfaces = surfaces.sorted()
    }
}
