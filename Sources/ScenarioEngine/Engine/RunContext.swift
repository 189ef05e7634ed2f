import FieldtestData
import FieldtestGSL
import Foundation
import MetricReports

/// An app under test, driven through one scenario run.
///
/// `start` schedules the scenario's actions and feeds on the simulation;
/// the engine then runs the virtual clock; `finish` records the final metrics.
public protocol AppDriver: AnyObject {
    /// Schedules actions and feeds; may record metrics already.
    func start(_ run: RunContext) throws
    /// Records the metrics that summarise the run.
    func finish(_ run: RunContext) throws
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

    public init(_ driver: any AppDriver) { self.driver = driver }

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
}

/// Everything a driver sees during one run: the scenario, the virtual clock,
/// the metric collector, seeded random streams and the datasets.
public final class RunContext {
    /// The scenario (sweep parameters already applied).
    public let scenario: Scenario
    /// The virtual clock and event queue.
    public let simulation: Simulation
    /// Where measurements go.
    public let metrics = MetricCollector()
    /// The datasets, by manifest name.
    public let datasets: DatasetStore
    /// Root stream of the scenario seed.
    private let root: RandomStream

    public init(scenario: Scenario, datasets: DatasetStore) {
        self.scenario = scenario
        self.datasets = datasets
        self.simulation = Simulation(start: scenario.start, end: scenario.end)
        self.root = RandomStream(seed: scenario.seed)
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
public final class DatasetStore: @unchecked Sendable {
    /// The manifest.
    public let manifest: DatasetManifest
    private let lock = NSLock()
    private var cache: [String: Any] = [:]

    public init(manifest: DatasetManifest) { self.manifest = manifest }

    /// The file of the dataset called `name`.
    public func url(_ name: String) throws(DataError) -> URL {
        guard let e = manifest.entry(named: name) else {
            throw .badLayout(file: DatasetManifest.display(manifest.root.appendingPathComponent("MANIFEST.csv")), line: 0, reason: "no dataset named '\(name)'")
        }
        return manifest.url(of: e)
    }

    /// A path inside the datasets folder.
    public func url(path: String) -> URL { manifest.root.appendingPathComponent(path) }

    /// The value cached under `key`, computed once by `load`.
    public func cached<T>(_ key: String, _ load: () throws -> T) throws -> T {
        lock.lock()
        if let v = cache[key] as? T { lock.unlock(); return v }
        lock.unlock()
        let v = try load()
        lock.lock()
        cache[key] = v
        lock.unlock()
        return v
    }
}
