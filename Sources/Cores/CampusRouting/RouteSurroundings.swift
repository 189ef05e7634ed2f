import FieldtestData

/// A timed campus event at a place.
public struct CampusEvent: Sendable, Equatable {
    /// Title.
    public var title: String
    /// Where it happens, in degrees.
    public var location: GeoPoint
    /// Start time in seconds (UTC epoch shared with the caller's clock).
    public var start: Double
    /// End time in seconds; the event is expired at or after this.
    public var end: Double

    /// Creates an event.
    public init(title: String, location: GeoPoint, start: Double, end: Double) {
        self.title = title
        self.location = location
        self.start = start
        self.end = end
    }
}

/// Points of interest and non-expired events along a route or near a place (NAV-F5).
/// Distances are to the route polyline (local projection). O(items × route points).
public enum RouteSurroundings {
    /// Venues within `metres` of the route, nearest first along distance then name.
    public static func venues(
        along route: Route, in directory: VenueDirectory, kinds: Set<VenueKind> = [.pointOfInterest, .building],
        within metres: Double
    ) -> [Venue] {
        guard !route.points.isEmpty else { return [] }
        return directory.venues.filter { kinds.contains($0.kind) }
            .map { ($0, Geodesy.distanceToPolyline($0.location, route.points).metres) }
            .filter { $0.1 <= metres }
            .sorted { ($0.1, $0.0.name) < ($1.1, $1.0.name) }
            .map(\.0)
    }

    /// Events within `metres` of the route that have not ended at `now` (seconds), by start time.
    public static func events(along route: Route, events: [CampusEvent], now: Double, within metres: Double)
        -> [CampusEvent]
    {
        guard !route.points.isEmpty else { return [] }
        return events.filter { $0.end > now && Geodesy.distanceToPolyline($0.location, route.points).metres <= metres }
            .sorted { ($0.start, $0.title) < ($1.start, $1.title) }
    }

    /// Events within `metres` of `place` that have not ended at `now`, by start time.
    public static func events(near place: GeoPoint, events: [CampusEvent], now: Double, within metres: Double)
        -> [CampusEvent]
    {
        events.filter { $0.end > now && Geodesy.haversineMetres($0.location, place) <= metres }
            .sorted { ($0.start, $0.title) < ($1.start, $1.title) }
    }

    /// Venues of `kinds` within `metres` of `place`, nearest first.
    public static func venues(
        near place: GeoPoint, in directory: VenueDirectory, kinds: Set<VenueKind> = [.pointOfInterest, .building],
        within metres: Double
    ) -> [Venue] {
        directory.venues.filter { kinds.contains($0.kind) }
            .map { ($0, Geodesy.haversineMetres($0.location, place)) }
            .filter { $0.1 <= metres }
            .sorted { ($0.1, $0.0.name) < ($1.1, $1.0.name) }
            .map(\.0)
    }
}
