import FieldtestData
import FieldtestGSL
import Foundation
import MetricReports

/// An app under test, driven through one scenario run.
///
/// `start` builds the app's state (and may refuse a scenario it cannot run);
/// the engine then schedules the scenario's timeline (`ScenarioTimeline`) and
/// runs the virtual clock, calling `perform`, `deliver`, `restart` and
/// `connectivityChanged` at their times; `finish` records the final metrics.
/// The timeline calls do nothing unless the app implements them.
public protocol AppDriver: AnyObject {
    /// Builds the app's state; may record metrics already.
    func start(_ run: RunContext) throws
    /// One occurrence of `action` by actor number `actor` (index in `scenario.actors`), at virtual time `time`.
    func perform(_ action: ActionSpec, actor: Int, at time: Double, _ run: RunContext)
    /// One delivery of `feed` at virtual time `time`.
    func deliver(_ feed: FeedSpec, at time: Double, _ run: RunContext)
    /// A reboot of the device called `device` at virtual time `time`.
    func restart(device: String, at time: Double, _ run: RunContext)
    /// The device called `device` changes to connectivity `state` (`online`, `offline`, …) at `time`.
    func connectivityChanged(device: String, to state: String, at time: Double, _ run: RunContext)
    /// Records the metrics that summarise the run.
    func finish(_ run: RunContext) throws
}

extension AppDriver {
    public func perform(_ action: ActionSpec, actor: Int, at time: Double, _ run: RunContext) {}
    public func deliver(_ feed: FeedSpec, at time: Double, _ run: RunContext) {}
    public func restart(device: String, at time: Double, _ run: RunContext) {}
    public func connectivityChanged(device: String, to state: String, at time: Double, _ run: RunContext) {}
}

/// Builds the driver for a scenario's app.
public typealias AppDriverFactory = @Sendable (Scenario) throws -> any AppDriver

/// A driver that keeps files (device caches, app databases) in temporary
/// folders while it runs.
public protocol TemporaryFolderOwning: AppDriver {
    /// The folders the driver may create for this run; every one is removed when the run ends.
    var temporaryFolders: [URL] { get }
}

/// Wraps an app driver with what every run needs whichever app it drives:
/// the driver's temporary folders are removed however the run ends (an error
/// from `start`, from a feed reported by `finish`, or from `finish` itself), and
/// once the driver has recorded everything, the scenario's threshold overrides
/// must name metrics their requirements report
/// (`MetricCollector.checkThresholdOverrides`).
public final class ManagedAppDriver: AppDriver {
    /// The wrapped driver.
    public let driver: any AppDriver

    public init(_ driver: any AppDriver) {
        self.driver = driver
        Self.live.add(self)
    }

    deinit { Self.live.remove(self) }

    /// The wrapped driver's temporary folders (none when it keeps no files).
    public var temporaryFolders: [URL] { (driver as? any TemporaryFolderOwning)?.temporaryFolders ?? [] }

    public func start(_ run: RunContext) throws {
        do {
            try driver.start(run)
        } catch {
            removeTemporaryFolders()
            throw error
        }
    }

    public func perform(_ action: ActionSpec, actor: Int, at time: Double, _ run: RunContext) {
        driver.perform(action, actor: actor, at: time, run)
    }

    public func deliver(_ feed: FeedSpec, at time: Double, _ run: RunContext) { driver.deliver(feed, at: time, run) }

    public func restart(device: String, at time: Double, _ run: RunContext) {
        driver.restart(device: device, at: time, run)
    }

    public func connectivityChanged(device: String, to state: String, at time: Double, _ run: RunContext) {
        driver.connectivityChanged(device: device, to: state, at: time, run)
    }

    public func finish(_ run: RunContext) throws {
        defer { removeTemporaryFolders() }
        try driver.finish(run)
        try run.metrics.checkThresholdOverrides(run.scenario.requirements, file: run.scenario.file)
    }

    private func removeTemporaryFolders() {
        for folder in temporaryFolders where FileManager.default.fileExists(atPath: folder.path) {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// Removes the temporary folders of every driver that has not finished yet, e.g. when
    /// the process is interrupted (SIGINT, SIGTERM) in the middle of a run and is about to exit.
    /// Call it from an ordinary thread (such as a `DispatchSource` signal handler's queue), not
    /// from a signal handler itself.
    public static func removeAllTemporaryFolders() {
        for driver in live.drivers() { driver.removeTemporaryFolders() }
    }

    /// The drivers alive in this process, held weakly.
    private static let live = LiveDrivers()

    private final class LiveDrivers: @unchecked Sendable {
        private struct Weak { weak var driver: ManagedAppDriver? }
        private let lock = NSLock()
        private var byID: [ObjectIdentifier: Weak] = [:]

        func add(_ d: ManagedAppDriver) {
            lock.lock()
            byID[ObjectIdentifier(d)] = Weak(driver: d)
            lock.unlock()
        }

        func remove(_ d: ManagedAppDriver) {
            lock.lock()
            byID[ObjectIdentifier(d)] = nil
            lock.unlock()
        }

        func drivers() -> [ManagedAppDriver] {
            lock.lock()
            defer { lock.unlock() }
            return byID.values.compactMap(\.driver)
        }
    }
}

/// Everything a driver sees during one run: the scenario, the virtual clock,
/// the metric collector, seeded random streams and the datasets.
public final class RunContext {
    /// The scenario (sweep parameters already applied).
    public let scenario: Scenario
    /// The virtual clock and event queue.
    public let simulation: Simulation
    /// Where measurements go; it knows the app's requirement definitions.
    public let metrics: MetricCollector
    /// The datasets, by manifest name.
    public let datasets: DatasetStore
    /// Where drivers record what the cores did (events, map features); latency samples arrive
    /// through `metrics`.
    public let trace: TraceRecorder
    /// The external systems this run used (drivers append one per system they start), for
    /// `run.json` and the `system_errors` rows.
    public var systems: [SystemRunRecord] = []
    /// Root stream of the scenario seed.
    private let root: RandomStream

    /// A context for one run of `scenario`; `requirements` are the definitions of
    /// the requirements the app reports (`AppDefinition.requirements`), whose metric
    /// units, kinds and default thresholds `metrics.expect`/`latency` apply. `trace` is how much
    /// the run keeps of what the cores did (`TraceRecorder`).
    public init(
        scenario: Scenario, datasets: DatasetStore, requirements: [RequirementDefinition] = [],
        trace: TraceLevel = .summary
    ) {
        self.scenario = scenario
        self.datasets = datasets
        self.metrics = MetricCollector(requirements: requirements)
        let simulation = Simulation(start: scenario.start, end: scenario.end)
        self.simulation = simulation
        self.root = RandomStream(seed: scenario.seed)
        let recorder = TraceRecorder(app: scenario.app, level: trace)
        self.trace = recorder
        if recorder.isRecording {
            metrics.latencySampled = { requirement, metric, seconds in
                recorder.latency(time: simulation.now, requirement: requirement, metric: metric, seconds: seconds)
            }
            // Each exact check of a requirement the scenario lists, at the virtual time it was made:
            // 1 when it held, 0 when not, against 1.
            let listed = Set(scenario.requirements.map(\.id))
            metrics.checked = { requirement, _, ok in
                guard listed.contains(requirement) else { return }
                recorder.event(
                    TraceEvent(
                        time: simulation.now, device: "", requirement: requirement, metric: "check",
                        value: ok ? 1 : 0, unit: "", expected: 1, comparator: .equal, status: ok ? .pass : .fail))
            }
        }
    }

    /// The named sub-stream of the scenario seed: each component draws from
    /// its own, so adding one never changes another's draws.
    public func stream(_ name: String) -> RandomStream { root.substream(named: name) }

    /// Current virtual time, seconds since 1970 UTC.
    public var now: Double { simulation.now }

    /// A requirement's threshold override from the scenario, if any.
    public func thresholdOverride(_ requirement: String, metric: String? = nil) -> Double? {
        scenario.requirements.first { $0.id == requirement && ($0.metric == nil || $0.metric == metric) }?.threshold
    }

    /// Whether the scenario reports `requirement`.
    public func reports(_ requirement: String) -> Bool { scenario.requirements.contains { $0.id == requirement } }

    /// An app parameter as a number.
    public func number(_ name: String, default value: Double) -> Double { scenario.parameters[name]?.double ?? value }

    /// An app parameter as text.
    public func text(_ name: String, default value: String) -> String { scenario.parameters[name]?.scalarText ?? value }
}

/// Resolves manifest names to files and keeps parsed datasets for reuse across
/// the cases of a sweep. Thread-safe.
///
/// Every file resolved through `url(_:)` or `url(path:)` is recorded in `filesRead`,
/// so a run can report (and hash) every dataset it actually read, including ones a
/// driver reads by default without the scenario listing them. `session()` gives a
/// store that shares the parsed-dataset cache but records its own reads; a value
/// taken from the cache counts the files its loading read as read again.
public final class DatasetStore: @unchecked Sendable {
    /// The parsed datasets, shared by a store and its sessions.
    private final class SharedCache: @unchecked Sendable {
        let lock = NSLock()
        /// Cached value and the files its loading read (label → file).
        var values: [String: (value: Any, reads: [String: URL])] = [:]
        /// What loaders reported of the files they read (rows skipped, first reasons), by file path.
        var loadReports: [String: LoadReport] = [:]
    }

    /// The files read by the `cached` loads running on one thread (innermost last).
    private final class ReadFrame {
        var reads: [String: URL] = [:]
    }

    /// One thread's `ReadFrame`s.
    private final class FrameStack {
        var frames: [ReadFrame] = []
    }

    private static let framesKey = "fieldtest.DatasetStore.readFrames"

    /// The manifest.
    public let manifest: DatasetManifest
    private let lock = NSLock()
    private let cache: SharedCache
    private var reads: [String: URL] = [:]
    /// Prefix of this store's cache keys: empty, or one naming the files a scenario named by path,
    /// so that a name means one file within the keys that contain it.
    private let namespace: String
    /// Whether a row a loader skipped is an error (`run --strict`) rather than a count in `run.json`.
    public var strict = false

    public init(manifest: DatasetManifest) {
        self.manifest = manifest
        self.cache = SharedCache()
        self.namespace = ""
    }

    private init(manifest: DatasetManifest, cache: SharedCache, namespace: String) {
        self.manifest = manifest
        self.cache = cache
        self.namespace = namespace
    }

    /// A store sharing this one's cache of parsed datasets, whose `filesRead` starts empty:
    /// one per scenario, so each scenario's report names exactly the files it read.
    public func session() -> DatasetStore {
        let store = DatasetStore(manifest: manifest, cache: cache, namespace: namespace)
        store.strict = strict
        return store
    }

    /// A session (see `session()`) in which `entries` (a scenario's files named by path) are datasets
    /// too, replacing any of the same name. Drivers key cached values by dataset name, so values
    /// parsed under such a name are cached apart from those of every other set of files.
    public func session(adding entries: [DatasetEntry]) -> DatasetStore {
        guard !entries.isEmpty else { return session() }
        let files = entries.sorted { $0.name < $1.name }.map { "\($0.name)=\(manifest.url(of: $0).path)" }
        let store = DatasetStore(
            manifest: manifest.adding(entries), cache: cache,
            namespace: namespace + "[" + files.joined(separator: ";") + "]")
        store.strict = strict
        return store
    }

    /// Records what a loader reported of reading `url` (rows skipped and why), for `run.json`.
    /// The report is kept with the parsed datasets, so every scenario that reads the file sees it.
    /// Under `strict`, a skipped row is thrown instead: the first reason, with its file and line.
    public func recordLoadReport(_ report: LoadReport, for url: URL) throws(DataError) {
        if strict, report.rowsSkipped > 0 {
            throw report.issues.first
                ?? .badLayout(
                    file: DatasetManifest.display(url), line: 0, reason: "\(report.rowsSkipped) rows cannot be used")
        }
        cache.lock.lock()
        cache.loadReports[url.standardizedFileURL.path] = report
        cache.lock.unlock()
    }

    /// The report a loader recorded for `url` (`recordLoadReport`), if any.
    public func loadReport(for url: URL) -> LoadReport? {
        cache.lock.lock()
        defer { cache.lock.unlock() }
        return cache.loadReports[url.standardizedFileURL.path]
    }

    /// Every file read so far: the manifest name of a dataset (`url(_:)`), or the path
    /// inside the datasets folder (`url(path:)`) → the file.
    public var filesRead: [String: URL] {
        lock.lock()
        defer { lock.unlock() }
        return reads
    }

    /// The file of the dataset called `name`.
    public func url(_ name: String) throws(DataError) -> URL {
        guard let e = manifest.entry(named: name) else {
            throw .badLayout(
                file: DatasetManifest.display(manifest.root.appendingPathComponent("MANIFEST.csv")), line: 0,
                reason: "no dataset named '\(name)'")
        }
        let url = manifest.url(of: e)
        // A FIFO, socket or device listed in a manifest is refused before anything opens it.
        try SpecialFile.requireRegular(url, displayName: DatasetManifest.display(url), role: "a dataset")
        record([name: url])
        return url
    }

    /// A path inside the datasets folder.
    public func url(path: String) -> URL {
        let url = manifest.root.appendingPathComponent(path)
        record([path: url])
        return url
    }

    /// The value cached under `key`, computed once by `load`.
    public func cached<T>(_ key: String, _ load: () throws -> T) throws -> T {
        let key = namespace + key
        cache.lock.lock()
        if let hit = cache.values[key], let v = hit.value as? T {
            cache.lock.unlock()
            record(hit.reads)
            return v
        }
        cache.lock.unlock()
        let frame = ReadFrame()
        let frames = Self.threadFrames()
        frames.frames.append(frame)
        defer { frames.frames.removeAll { $0 === frame } }
        let v = try load()
        cache.lock.lock()
        cache.values[key] = (v, frame.reads)
        cache.lock.unlock()
        return v
    }

    /// Records `files` as read by this store and by every `cached` load running on this thread.
    private func record(_ files: [String: URL]) {
        guard !files.isEmpty else { return }
        lock.lock()
        reads.merge(files) { _, new in new }
        lock.unlock()
        for frame in Self.threadFrames().frames {
            frame.reads.merge(files) { _, new in new }
        }
    }

    /// This thread's stack of `cached` loads in progress.
    private static func threadFrames() -> FrameStack {
        let dictionary = Thread.current.threadDictionary
        if let frames = dictionary[framesKey] as? FrameStack { return frames }
        let frames = FrameStack()
        dictionary[framesKey] = frames
        return frames
    }
}
