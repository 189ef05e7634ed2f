import CampusRouting
import DeviceEmulation
import FieldtestData
import FieldtestGSL
import Foundation

/// The crowd of a teaching day: a documented mobility model whose true positions are the ground truth of
/// the congestion estimate (NAV-F7) and of route regret (NAV-F4).
///
/// Model: `people` students start in seeded random venues. Classes change every `period` seconds at
/// `start + (k + ½)·period`; a class ends ten minutes before the change. At each change the timetable
/// holds the next classes in `lectureVenues` seeded venues (lecture halls; 0 = every venue), and every
/// student leaves with probability `moveProbability`, at a uniform time in the first `exitSeconds`
/// after the class ended (a lecture hall empties within a couple of minutes), for a uniformly drawn
/// lecture venue other than the current one, along the free-flow shortest walking route, at a personal
/// speed drawn once from a normal distribution (mean and standard deviation calibrated from real GeoLife
/// fixes when a trajectory is given, else Weidmann's free speed 1.34 m/s with 0.26 m/s), truncated to
/// 0.6–2.0 m/s. With hundreds of students per lecture hall the paths into and out of the halls carry
/// crowds of 1–2 persons/m² for a few minutes, where Weidmann's relation slows walking markedly.
/// Walkers ping their GPS position (each phone has its own Gauss–Markov receiver of the chosen
/// environment) at every feed delivery; students inside buildings do not ping.
/// Cost: O(trips) per delivery, one A* search per distinct venue pair.
final class NavUPCrowd {
    struct Trip {
        var person: Int
        var depart: Double
        var speed: Double
        var pair: Int
    }
    /// A route walked: its pieces (the partial edges at the ends included), the metres along each
    /// piece's edge where it begins, and the cumulative metres at the end of each piece.
    struct Leg {
        var steps: [RouteStep]
        var starts: [Double]
        var cumulative: [Double]
        var length: Double
    }
    let campus: NavUPCampus
    private(set) var trips: [Trip] = []
    private(set) var legs: [Leg] = []
    private var receivers: [GPSReceiver]
    private let gpsStream: RandomStream
    /// Mean and standard deviation of walking speeds, m/s.
    let speedMean: Double, speedSD: Double
    /// How often a walker pings, seconds.
    let people: Int

    init(
        campus: NavUPCampus, people: Int, start: Double, end: Double, period: Double, moveProbability: Double = 0.8,
        lectureVenues: Int = 0, exitSeconds: Double = 300, speed: (mean: Double, sd: Double), gps: GPSEnvironment,
        stream: RandomStream, gpsStream: RandomStream
    ) throws {
        self.campus = campus
        self.people = people
        speedMean = speed.mean
        speedSD = speed.sd
        self.gpsStream = gpsStream
        receivers = try (0..<people).map { _ in try GPSReceiver(environment: gps) }
        let n = campus.venues.count
        guard n >= 2 else { return }
        var at = (0..<people).map { _ in stream.uniformInt(below: n) }
        let speeds = (0..<people).map { _ in
            min(2.0, max(0.6, stream.gaussian(mean: speed.mean, standardDeviation: speed.sd)))
        }
        var pairIndex: [Int: Int] = [:]
        // The crowd's walks are the harness's ground truth, not routes the app shows: the built-in router
        // plans them whichever routing system is under test.
        var router = AStarRouter()
        // Each pass plans one class change; a period that is not positive would never advance.
        guard period > 0, period.isFinite else {
            throw NavUPDriverError(description: "class_change_period must be longer than zero (got \(period) s)")
        }
        var change = start + period / 2
        while change - 600 < end {
            // This change's lecture venues: a seeded partial shuffle, or every venue.
            var halls = Array(0..<n)
            let hallCount = lectureVenues > 0 ? min(max(2, lectureVenues), n) : n
            if hallCount < n {
                for i in 0..<hallCount { halls.swapAt(i, i + stream.uniformInt(below: n - i)) }
                halls = Array(halls.prefix(hallCount))
            }
            for p in 0..<people {
                let moves = stream.uniform() < moveProbability
                let leave = change - 600 + stream.uniform() * exitSeconds
                var dest: Int
                if hallCount == n {
                    dest = (at[p] + 1 + stream.uniformInt(below: n - 1)) % n
                } else {
                    let h = stream.uniformInt(below: hallCount)
                    dest = halls[h]
                    if dest == at[p] { dest = halls[(h + 1) % hallCount] }
                }
                guard moves, dest != at[p] else { continue }
                let key = at[p] * n + dest
                if pairIndex[key] == nil {
                    pairIndex[key] = legs.count
                    legs.append(Self.leg(from: at[p], to: dest, campus: campus, router: &router))
                }
                guard let leg = pairIndex[key], legs[leg].length > 0 else { continue }
                trips.append(Trip(person: p, depart: leave, speed: speeds[p], pair: leg))
                at[p] = dest
            }
            change += period
        }
        trips.sort { ($0.depart, $0.person) < ($1.depart, $1.person) }
    }

    /// The walk between venues `from` and `to` as the crowd walks it (no steps when there is no route),
    /// with the partial edges at both ends from the projected points.
    static func leg(from: Int, to dest: Int, campus: NavUPCampus, router: inout AStarRouter) -> Leg {
        let r = router.route(
            in: campus.graph, from: campus.venues[from].location, to: campus.venues[dest].location,
            profile: campus.walk)
        var pieces: [(step: RouteStep, start: Double, metres: Double)] = []
        if let h = r.head, let s = r.fromSnap {
            pieces.append((RouteStep(edge: h.edge, forward: h.forward), s.metresFromStart, h.lengthMetres))
        }
        for s in r.steps {
            let length = campus.graph.edges[Int(s.edge)].lengthMetres
            pieces.append((s, s.forward ? 0 : length, length))
        }
        if let t = r.tail {
            let length = campus.graph.edges[Int(t.edge)].lengthMetres
            pieces.append((RouteStep(edge: t.edge, forward: t.forward), t.forward ? 0 : length, t.lengthMetres))
        }
        var cum: [Double] = []
        var total = 0.0
        for piece in pieces {
            total += piece.metres
            cum.append(total)
        }
        let ok = r.status == .ok
        return Leg(
            steps: ok ? pieces.map(\.step) : [], starts: ok ? pieces.map(\.start) : [], cumulative: cum,
            length: ok ? total : 0)
    }

    /// True positions of everyone walking at `time`: person, edge and point, in person order.
    func walkers(at time: Double) -> [(person: Int, edge: Int32, point: GeoPoint)] {
        var out: [(person: Int, edge: Int32, point: GeoPoint)] = []
        for trip in trips {
            if trip.depart > time { break }
            let leg = legs[trip.pair]
            let d = trip.speed * (time - trip.depart)
            guard d < leg.length else { continue }
            var lo = 0
            var hi = leg.cumulative.count - 1
            while lo < hi {
                let mid = (lo + hi) / 2
                if leg.cumulative[mid] > d { hi = mid } else { lo = mid + 1 }
            }
            let step = leg.steps[lo]
            let edge = campus.graph.edges[Int(step.edge)]
            let before = lo == 0 ? 0 : leg.cumulative[lo - 1]
            let along = step.forward ? leg.starts[lo] + (d - before) : leg.starts[lo] - (d - before)
            out.append((trip.person, step.edge, Self.point(on: edge.shape, metres: along)))
        }
        out.sort { $0.person < $1.person }
        return out
    }

    /// The point `metres` along `shape` (haversine), clamped to its ends.
    static func point(on shape: [GeoPoint], metres: Double) -> GeoPoint {
        guard var prev = shape.first else { return GeoPoint(latitude: 0, longitude: 0) }
        var left = max(0, metres)
        for p in shape.dropFirst() {
            let seg = Geodesy.haversineMetres(prev, p)
            if seg > 0 && left <= seg {
                let f = left / seg
                return GeoPoint(
                    latitude: prev.latitude + f * (p.latitude - prev.latitude),
                    longitude: prev.longitude + f * (p.longitude - prev.longitude))
            }
            left -= seg
            prev = p
        }
        return prev
    }

    /// True persons per m² on every edge at `time`.
    func trueDensities(at time: Double, estimator: CrowdDensityEstimator) -> [Double] {
        var counts = [Int](repeating: 0, count: campus.graph.edges.count)
        for w in walkers(at: time) { counts[Int(w.edge)] += 1 }
        return counts.enumerated().map { e, c in c == 0 ? 0 : Double(c) / estimator.areaSquareMetres(edge: e) }
    }

    /// GPS pings of every walker at `time` (pseudonymous ids `crowd-<n>`); walkers in a GPS dropout send none.
    func pings(at time: Double) -> [CrowdPing] {
        var out: [CrowdPing] = []
        var rng = gpsStream
        for w in walkers(at: time) {
            let truth = w.point
            guard let fix = receivers[w.person].fix(at: time, truePosition: truth, using: &rng) else { continue }
            out.append(
                CrowdPing(
                    device: "crowd-\(w.person)", time: time,
                    location: fix.coordinate,
                    accuracyMetres: fix.horizontalAccuracyMetres))
        }
        return out
    }

    /// Mean and standard deviation (m/s) of walking-band speeds (0.5–2.5 m/s over gaps of 1–30 s) between
    /// consecutive fixes of a GeoLife trajectory; nil when fewer than 20 such pairs exist.
    static func walkingSpeed(fixes: [GeoLifeFix]) -> (mean: Double, sd: Double)? {
        var speeds: [Double] = []
        for (a, b) in zip(fixes, fixes.dropFirst()) {
            let dt = b.time - a.time
            guard dt >= 1, dt <= 30 else { continue }
            let v =
                Geodesy.haversineMetres(
                    GeoPoint(latitude: a.latitude, longitude: a.longitude),
                    GeoPoint(latitude: b.latitude, longitude: b.longitude)) / dt
            if v >= 0.5 && v <= 2.5 { speeds.append(v) }
        }
        guard speeds.count >= 20 else { return nil }
        let mean = speeds.reduce(0, +) / Double(speeds.count)
        let variance = speeds.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(speeds.count - 1)
        return (mean, variance.squareRoot())
    }
}
