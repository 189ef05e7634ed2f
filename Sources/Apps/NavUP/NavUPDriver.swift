import AccountStore
import CampusRouting
import Capabilities
import DeviceEmulation
import FieldtestData
import FieldtestGSL
import Foundation
import MetricReports
import Positioning
import ScenarioEngine

/// Errors of the NavUP driver, located in the scenario file.
public struct NavUPDriverError: Error, CustomStringConvertible {
    /// The message: what is wrong and how to fix it.
    public var description: String
}

/// Drives the NavUP campus navigation app (navup-srs.txt): the campus graph, congestion and venues of
/// `CampusRouting`, the positioning and step estimators of `Positioning`, emulated phones of
/// `DeviceEmulation` and the access rules of `AccountStore`, on the scenario's virtual clock.
///
/// The campus (`campus` parameter, a manifest name) is loaded once per dataset store and shared by sweep
/// cases. Routing and venue search run on the phone, on the campus map it downloads on first use while
/// online and keeps in its offline cache (NAV-F2: offline they work only from that copy); congestion comes
/// from the server when the phone is online and from its cached snapshot, with its age, when offline
/// (NAV-F4). Route latency is the on-device compute time; the network time of the congestion download is
/// reported beside it. A requirement's rows are recorded only when the run checked something for it, so
/// a listed requirement the scenario never exercises is reported `not_measured`.
public final class NavUPDriver: AppDriver {
    /// The app's metric keys (`NavUPDefinition.Metric`), as the driver records them.
    typealias Metric = NavUPDefinition.Metric

    /// What one user has done, for the checks.
    struct ActorState {
        var name: String
        var device: String
        var location: GeoPoint
        var venue: Int?
        var history: [String] = []
        var walked = false
        var steps: [StepEvent] = []
        var goals: [StepGoal] = []
        var categories: Set<String>?
        var lead = 900.0
        var preferencesSince = 0.0
        var reminded = Set<Int>()
    }
    /// A timetabled campus event.
    struct CampusEvent {
        var id: Int
        var venue: Int
        var category: String
        var start: Double
        var end: Double
        var created: Double
    }

    var campus: NavUPCampus?
    var search: VenueSearch?
    var devices: [String: Device] = [:]
    var cacheFolder: URL?
    /// The built-in router, for what the routing protocol cannot express (congestion weights, the nearest of
    /// many exits) and for the harness's own ground truth (`NavUPDriver+RoutingSystem`).
    var router = AStarRouter()
    /// What answers the app's plain route queries: the built-in router unless the scenario chose a `route` system.
    var routing: (any RoutingSystem)?
    /// The external router, when the scenario chose one.
    var externalRouting: ExternalSystem?
    /// Route queries sent to `routing` (their ids).
    var routeQueries = 0
    /// Campus graph vertex of each OSM node id, to rebuild the routing system's answers.
    var vertexByOSMID: [Int64: Int32] = [:]
    var store = CrowdPingStore(retentionSeconds: 3600)
    var crowd: NavUPCrowd?
    var estimator: CrowdDensityEstimator?
    var congestionCaches: [String: CongestionCache] = [:]
    var actors: [ActorState] = []
    var events: [CampusEvent] = []
    var consentSince: [String: Double] = [:]
    var failure: String?
    var streams: [String: RandomStream] = [:]
    var adjacency: [Int: [[(to: Int32, edge: Int32)]]] = [:]
    /// The exact shortest-path oracle of the campus graph (built on first use).
    var oracle: ShortestPathOracle?
    /// The routing contract per profile (built when an answer first leaves the paths).
    var pathAudits: [Int: PathAudit] = [:]

    /// Manifest name of the campus (the key of the map the phones keep, NAV-F2).
    var campusName = ""
    /// Bytes of the campus map download (the OSM extract's size).
    var mapBytes = 0
    /// When each phone's map download arrived, seconds.
    var mapArrival: [String: Double] = [:]

    // What the checks need beyond what they record straight into `run.metrics` as they are made.
    /// The heat map of the last crowd delivery and the walkers truly in each cell ([row, column]), for the trace.
    var lastHeatmap: (time: Double, map: CrowdHeatmap, truth: [[Int]: Int])?
    /// Writes a mobile user tried (NAV-F26: the number that must be denied).
    var mobileWrites = 0
    /// Collections the server and the phones refused without consent, as already recorded (NAV-PR1).
    var refusalsRecorded = 0
    /// The reminders that fired: actor, event id and time (NAV-F19, checked when the run ends).
    var reminderLog: [(actor: Int, event: Int, time: Double)] = []
    /// NAV-L1 indoors: the system's estimates and the true fingerprints, of phones seen in training and new ones.
    var indoorEstimates: [FingerprintEstimate] = [], indoorTruth: [FingerprintSample] = []
    /// What locates the Wi-Fi scans (the built-in locator unless the scenario chose a system), once asked.
    var positioning: (any PositioningSystem)?
    /// The external locator, when the scenario chose one.
    var externalPositioning: ExternalSystem?
    /// Scans sent to the locator (their ids).
    var locateQueries = 0
    var newPhoneEstimates: [FingerprintEstimate] = [], newPhoneTruth: [FingerprintSample] = []
    /// NAV-L1 outdoors: errors of the fused and GPS-only tracks, metres (the GPS p95 is the fused p95's threshold).
    var outdoorFused: [Double] = [], outdoorGPS: [Double] = []

    /// Creates a driver; all state is built in `start`.
    public init() {}

    func stream(_ run: RunContext, _ name: String) -> RandomStream {
        if let s = streams[name] { return s }
        let s = run.stream("navup-" + name)
        streams[name] = s
        return s
    }

    func fail(_ message: String) { if failure == nil { failure = message } }

    /// Loads the campus, builds the phones, schedules feeds and actions.
    public func start(_ run: RunContext) throws {
        let s = run.scenario
        let (campusName, url, campus) = try Self.loadCampus(run)
        self.campusName = campusName
        mapBytes = ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? Int) ?? 0
        guard campus.venues.count >= 2 else {
            throw NavUPDriverError(
                description:
                    "\(s.file): error: campus '\(campusName)' has fewer than two named venues near its paths; choose another campus"
            )
        }
        self.campus = campus
        traceCampus(campus, name: campusName, run)
        search = Self.venueSearch(campus.venues)
        estimator = CrowdDensityEstimator(graph: campus.graph)
        store = CrowdPingStore(retentionSeconds: run.number("ping_retention", default: 3600))
        let folder = EmulatedDevices.temporaryFolder()
        cacheFolder = folder
        devices = try EmulatedDevices.make(for: run, cacheFolder: folder)
        for spec in s.devices {
            if spec.consent { grantConsent(device: spec.name, at: s.start) }
            congestionCaches[spec.name] = CongestionCache()
        }
        let placement = stream(run, "placement")
        for a in s.actors {
            let spec = s.devices.first { $0.name == a.device }
            var state = ActorState(name: a.name, device: a.device, location: campus.venues[0].location, venue: 0)
            if let p = spec?.position {
                state.location = GeoPoint(latitude: p.latitude, longitude: p.longitude)
                state.venue = nil
            } else {
                let v = placement.uniformInt(below: campus.venues.count)
                state.location = campus.venues[v].location
                state.venue = v
            }
            actors.append(state)
        }
        for feed in s.feeds { try prepareFeed(feed, run) }
        try startRouting(campus: campus, url: url, run)
    }

    // MARK: Timeline (scheduled by the engine)

    public func restart(device: String, at time: Double, _ run: RunContext) {
        do { try devices[device]?.restart(at: time) } catch {
            fail("\(run.scenario.file): error: restart of '\(device)': \(error)")
        }
    }

    public func deliver(_ feed: FeedSpec, at time: Double, _ run: RunContext) {
        switch feed.kind {
        case "crowd-pings": crowdTick(at: time, window: feed.every, run)
        case "campus-events": eventsTick(at: time, count: feed.parameters["count"]?.int ?? 5, run)
        default: return
        }
    }

    public func perform(_ action: ActionSpec, actor i: Int, at time: Double, _ run: RunContext) {
        do { try perform(action, actor: i, run) } catch {
            fail("\(run.scenario.file):\(action.line): error: '\(action.kind)' failed: \(error)")
        }
    }

    /// Builds what a feed needs before its first delivery (the crowd model), or refuses a feed NavUP has not.
    func prepareFeed(_ feed: FeedSpec, _ run: RunContext) throws {
        let s = run.scenario
        guard let campus else { return }
        switch feed.kind {
        case "crowd-pings":
            let people = feed.parameters["people"]?.int ?? 100
            var speed = (mean: 1.34, sd: 0.26)
            if let name = feed.parameters["dataset"]?.string {
                guard let calibrated = NavUPCrowd.walkingSpeed(fixes: try Self.loadFixes(name, run)) else {
                    throw NavUPDriverError(
                        description:
                            "\(s.file):\(feed.line): error: dataset '\(name)' has fewer than 20 walking-speed fix pairs; use a GeoLife .plt trajectory with timestamps"
                    )
                }
                speed = calibrated
            }
            let gps = try GPSEnvironment.named(feed.parameters["gps"]?.string ?? "urban")
            let crowd = try NavUPCrowd(
                campus: campus, people: people, start: s.start, end: s.end,
                period: run.number("class_change_period", default: 3600),
                lectureVenues: feed.parameters["lecture_venues"]?.int ?? 0,
                exitSeconds: feed.parameters["exit_window"]?.double ?? 300, speed: speed, gps: gps,
                stream: stream(run, "crowd"), gpsStream: stream(run, "crowd-gps"))
            self.crowd = crowd
            for p in 0..<people { store.grantConsent("crowd-\(p)") }
        case "campus-events":
            return
        default:
            throw NavUPDriverError(
                description:
                    "\(s.file):\(feed.line): error: feed '\(feed.kind)' is not a NavUP feed; use crowd-pings or campus-events"
            )
        }
    }

    func perform(_ action: ActionSpec, actor i: Int, _ run: RunContext) throws {
        let p = action.parameters
        switch action.kind {
        case "route":
            guard let campus else { return }
            for key in ["from", "to"] {
                if let why = Self.unknownPlace(p[key]?.string ?? "", campus: campus, campusName: campusName) {
                    throw NavUPDriverError(description: "'\(key)': \(why)")
                }
            }
            guard let from = campus.place(p["from"]?.string ?? ""), let to = campus.place(p["to"]?.string ?? "")
            else { return }
            try route(actor: i, from: from, to: to, profile: p["profile"]?.string ?? "walk", run)
        case "random-routes":
            guard let campus else { return }
            let rng = stream(run, "routes")
            let profile = p["profile"]?.string ?? "walk"
            let contested = p["contested"]?.bool == true
            for _ in 0..<(p["routes"]?.int ?? 1) {
                let pair = contested ? contestedPair(profile: profile, rng: rng, at: run.now) : randomPair(rng)
                if contested { run.metrics.add(Metric.contestedRequestsNotMade, pair == nil ? 1 : 0) }
                guard let (a, b) = pair else { continue }
                try route(
                    actor: i, from: campus.venues[a].location, to: campus.venues[b].location, profile: profile, run)
            }
        case "search-venue": try searchVenue(actor: i, query: p["query"]?.string, count: p["queries"]?.int, run)
        case "emergency":
            guard let campus else { return }
            if let why = Self.unknownPlace(p["from"]?.string ?? "", campus: campus, campusName: campusName) {
                throw NavUPDriverError(description: "'from': \(why)")
            }
            guard let from = campus.place(p["from"]?.string ?? "") else { return }
            try emergency(from: from, profile: p["profile"]?.string ?? "walk", run)
        case "walk":
            let pace = WalkingPace(rawValue: p["pace"]?.string ?? "normal") ?? .normal
            try walk(actor: i, seconds: p["duration"]?.double ?? 600, pace: pace, run)
        case "locate":
            if p["environment"]?.string == "indoor" {
                try locateIndoor(samples: p["samples"]?.int ?? 20, run)
            } else {
                try locateOutdoor(actor: i, seconds: Double(p["samples"]?.int ?? 120), run)
            }
        case "consent":
            let device = actors[i].device
            if p["granted"]?.bool == true {
                grantConsent(device: device, at: run.now)
            } else {
                withdrawConsent(device: device, at: run.now, run)
            }
        case "write-congestion": writeCongestion(role: p["role"]?.string ?? "mobile", run)
        case "set-goal":
            actors[i].goals.append(
                StepGoal(
                    id: "\(actors[i].name)-\(actors[i].goals.count + 1)", measure: .steps,
                    target: Double(p["steps"]?.int ?? 1000), startSeconds: run.now,
                    endSeconds: run.scenario.end))
        case "set-preferences":
            actors[i].categories = Set((p["categories"]?.array ?? []).compactMap(\.string))
            actors[i].lead = p["lead"]?.double ?? 900
            actors[i].preferencesSince = run.now
            listPreferred(actor: i, run)
            scheduleReminders(run)
        default:
            throw NavUPDriverError(description: "action '\(action.kind)' is not a NavUP action")
        }
    }

    /// Records the metrics of every requirement the scenario lists and removes the phones' databases.
    public func finish(_ run: RunContext) throws {
        defer { if let cacheFolder { try? FileManager.default.removeItem(at: cacheFolder) } }
        SystemSelection.finish(externalPositioning, run: run)
        SystemSelection.finish(externalRouting, run: run)
        if let failure { throw NavUPDriverError(description: failure) }
        traceHeatmap(run)
        checkAtEnd(run)
    }
}
