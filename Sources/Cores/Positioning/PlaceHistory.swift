import Foundation

/// A named place with a circular footprint in local projected metres.
public struct Place: Sendable, Equatable {
    /// Place identifier (e.g. a venue id).
    public var id: String
    /// Centre easting, metres.
    public var xMetres: Double
    /// Centre northing, metres.
    public var yMetres: Double
    /// Radius in metres.
    public var radiusMetres: Double

    /// Creates a place; metres.
    public init(id: String, xMetres: Double, yMetres: Double, radiusMetres: Double) {
        self.id = id
        self.xMetres = xMetres
        self.yMetres = yMetres
        self.radiusMetres = radiusMetres
    }
}

/// A timestamped position fix in local projected metres.
public struct PositionFix: Sendable, Equatable {
    /// UNIX time in seconds (UTC).
    public var timeSeconds: Double
    /// Easting, metres.
    public var xMetres: Double
    /// Northing, metres.
    public var yMetres: Double

    /// Creates a fix; seconds (UTC) and metres.
    public init(timeSeconds: Double, xMetres: Double, yMetres: Double) {
        self.timeSeconds = timeSeconds
        self.xMetres = xMetres
        self.yMetres = yMetres
    }
}

/// A stay at a place: from the first to the last fix inside it.
public struct PlaceVisit: Sendable, Equatable {
    /// The place visited.
    public var placeID: String
    /// Arrival, UNIX seconds (UTC).
    public var arrivalSeconds: Double
    /// Departure, UNIX seconds (UTC).
    public var departureSeconds: Double
    /// Length of the stay in seconds.
    public var dwellSeconds: Double { departureSeconds - arrivalSeconds }
}

/// History of places visited (NAV-F21) from a track of position fixes.
///
/// Each fix is assigned to the nearest place whose circle contains it; runs of
/// fixes at the same place form a visit, a gap of fixes elsewhere shorter than
/// `maximumGapSeconds` does not end it (GPS jitter), and visits shorter than
/// `minimumDwellSeconds` are dropped (walking past). Stay-point detection after
/// Li et al., "Mining user similarity based on location history", ACM GIS 2008.
/// O(n·p) for n fixes and p places.
public struct PlaceHistory: Sendable, Equatable {
    /// Shortest stay that counts as a visit, seconds.
    public var minimumDwellSeconds: Double
    /// Longest excursion that does not split a visit, seconds.
    public var maximumGapSeconds: Double

    /// Creates the history builder; seconds.
    public init(minimumDwellSeconds: Double = 120, maximumGapSeconds: Double = 60) {
        self.minimumDwellSeconds = minimumDwellSeconds
        self.maximumGapSeconds = maximumGapSeconds
    }

    /// Visits in time order from `fixes` (sorted by time first) against `places`.
    public func visits(fixes: [PositionFix], places: [Place]) -> [PlaceVisit] {
        var out: [PlaceVisit] = []
        var current: PlaceVisit? = nil
        for fix in fixes.sorted(by: { $0.timeSeconds < $1.timeSeconds }) {
            var best: (id: String, d: Double)? = nil
            for p in places {
                let d = hypot(fix.xMetres - p.xMetres, fix.yMetres - p.yMetres)
                if d <= p.radiusMetres, d < (best?.d ?? .infinity) { best = (p.id, d) }
            }
            if let id = best?.id {
                if var c = current, c.placeID == id, fix.timeSeconds - c.departureSeconds <= maximumGapSeconds {
                    c.departureSeconds = fix.timeSeconds
                    current = c
                } else {
                    if let c = current, c.dwellSeconds >= minimumDwellSeconds { out.append(c) }
                    current = PlaceVisit(placeID: id, arrivalSeconds: fix.timeSeconds, departureSeconds: fix.timeSeconds)
                }
            } else if let c = current, fix.timeSeconds - c.departureSeconds > maximumGapSeconds {
                if c.dwellSeconds >= minimumDwellSeconds { out.append(c) }
                current = nil
            }
        }
        if let c = current, c.dwellSeconds >= minimumDwellSeconds { out.append(c) }
        return out
    }
}
