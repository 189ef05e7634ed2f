import FieldtestData
import Foundation
import Synchronization

/// A time zone's offsets from UTC as a sorted list of transitions, for fast repeated
/// lookups (a binary search instead of a call into the time-zone database).
///
/// Built from `TimeZone.nextDaylightSavingTimeTransition(after:)`, which reports every
/// change of the zone's total offset (standard-time changes included) over 1900–2100;
/// instants outside that span are answered by `TimeZone` itself. Offsets are seconds east
/// of UTC. Building costs one database query per transition (a few milliseconds for a zone
/// with daylight saving time); `shared(for:)` keeps one table per zone identifier.
public struct ZoneOffsets: Sendable {
    /// The zone.
    public let zone: TimeZone
    /// UTC seconds at which `offsets[i + 1]` takes effect.
    let transitions: [Int]
    /// Offsets, one more than `transitions`.
    let offsets: [Int]
    /// The span the table answers, UTC seconds.
    let span: Range<Int>

    /// 1900-01-01T00:00:00Z and 2101-01-01T00:00:00Z.
    static let standardSpan = -2_208_988_800..<4_133_980_800

    /// Builds the table of `zone` for the standard span (1900–2100).
    public init(zone: TimeZone) {
        self.zone = zone
        let span = Self.standardSpan
        var transitions: [Int] = []
        var offsets = [zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(span.lowerBound)))]
        var cursor = Date(timeIntervalSince1970: Double(span.lowerBound))
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next > cursor,
            next.timeIntervalSince1970 < Double(span.upperBound)
        {
            let offset = zone.secondsFromGMT(for: next)
            if let last = offsets.last, offset != last {
                transitions.append(Int(next.timeIntervalSince1970.rounded()))
                offsets.append(offset)
            }
            cursor = next
        }
        self.transitions = transitions
        self.offsets = offsets
        self.span = span
    }

    /// Offset from UTC in seconds at UTC instant `t` (seconds since 1970-01-01T00:00:00Z).
    /// O(log transitions).
    @inline(__always)
    public func secondsFromGMT(at t: Int) -> Int {
        guard span.contains(t) else { return zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))) }
        var lo = 0
        var hi = transitions.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if transitions[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return offsets[lo]
    }

    /// The constant-offset interval containing UTC instant `t`: its offset (seconds east of
    /// UTC) and its bounds [from, until) in UTC seconds (unbounded ends are `Int.min` /
    /// `Int.max`); nil outside the table's span. O(log transitions).
    @inline(__always)
    public func interval(containing t: Int) -> (offset: Int, from: Int, until: Int)? {
        guard span.contains(t) else { return nil }
        var lo = 0
        var hi = transitions.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if transitions[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return (
            offsets[lo], lo == 0 ? span.lowerBound : transitions[lo - 1],
            lo == transitions.count ? span.upperBound : transitions[lo]
        )
    }

    /// The IANA time zone named `name`; nil for abbreviations and offsets such as
    /// `EST` or `GMT+5` (the rule is `IANATimeZone.zone(named:)`, shared with scenario files).
    public static func ianaZone(named name: String) -> TimeZone? {
        IANATimeZone.zone(named: name)
    }

    private static let cache = Mutex<[String: ZoneOffsets]>([:])

    /// The process-wide table of `zone`, built on first use.
    public static func shared(for zone: TimeZone) -> ZoneOffsets {
        if let hit = cache.withLock({ $0[zone.identifier] }) { return hit }
        let built = ZoneOffsets(zone: zone)
        cache.withLock { $0[zone.identifier] = built }
        return built
    }
}
