/// Everything Fieldtest knows about one app under test, in one value: the
/// scenario vocabulary it understands (actions, feeds, parameters, with their
/// schema), the requirements it reports (with their metrics and default
/// thresholds) and how to build its driver.
///
/// The engine never names an app: the scenario loader, the JSON Schema, the
/// requirement catalogue and the runner all read the definitions of an
/// `AppRegistry` they are handed.
public struct AppDefinition: Sendable {
    /// App name used in `app:`.
    public var name: String
    /// What the app is (its source specification).
    public var doc: String
    /// Actions an actor may take (`do:` values) and their parameters; build them with `action(_:_:_:)`.
    public var actions: [(String, ObjectSchema)]
    /// Background feeds (`kind:` values) and their parameters; build them with `feed(_:_:_:)`.
    public var feeds: [(String, ObjectSchema)]
    /// App parameters (`parameters:`), overridable by a sweep.
    public var parameters: [SchemaField]
    /// The requirements the app reports, in catalogue order.
    public var requirements: [RequirementDefinition]
    /// Builds the app's driver for one scenario case.
    public var makeDriver: AppDriverFactory
    /// Whether, at one instant, the app's users act before a feed delivers (the app
    /// shows what it had), rather than after (`ScenarioTimeline`).
    public var actionsBeforeFeeds: Bool
    /// Checks of a scenario the schema cannot express (e.g. a bound on the work a feed
    /// plans), run by the loader after the schema's; each problem is reported where it is.
    public var checks: [ScenarioCheck]
    /// Checks of a loaded scenario against its data, run by `validate` before anything runs
    /// (`ScenarioPreflight`): the files the app would read load, names (venues, places) exist in
    /// them, the time window lies within the recordings. What they find the run would fail on.
    public var inputChecks: [ScenarioInputCheck]
    /// The capabilities (names of `CapabilityRegistry`, e.g. `SystemCapability.sun.name`) whose system the app calls, so an external
    /// system can replace its built-in core (`systems:`, `run --system`, `compare`).
    public var systemCapabilities: [String]

    public init(
        name: String, doc: String, actions: [(String, ObjectSchema)], feeds: [(String, ObjectSchema)],
        parameters: [SchemaField], requirements: [RequirementDefinition], actionsBeforeFeeds: Bool = false,
        checks: [ScenarioCheck] = [], inputChecks: [ScenarioInputCheck] = [], systemCapabilities: [String] = [],
        makeDriver: @escaping AppDriverFactory
    ) {
        self.systemCapabilities = systemCapabilities
        self.actionsBeforeFeeds = actionsBeforeFeeds
        self.checks = checks
        self.inputChecks = inputChecks
        self.name = name
        self.doc = doc
        self.actions = actions
        self.feeds = feeds
        self.parameters = parameters
        self.requirements = requirements
        self.makeDriver = makeDriver
    }

    /// The IDs of the requirements the app reports.
    public var requirementIDs: [String] { requirements.map(\.id) }

    /// The requirement with `id`, if the app reports it.
    public func requirement(_ id: String) -> RequirementDefinition? { requirements.first { $0.id == id } }

    /// Keys every action has: when it happens and how often it repeats (expanded by the engine).
    public static let timing: [SchemaField] = [
        SchemaField("at", .duration, "offset from the scenario start when the action (first) happens"),
        SchemaField("every", .period(), "repeat period, longer than zero"),
        SchemaField("until", .duration, "offset after which a repeating action stops (default: the scenario end)"),
        SchemaField(
            "count", .integer(minimum: 1, maximum: ScenarioSchema.maximumOccurrences),
            "number of repetitions (with 'every')"),
    ]

    /// An action called `name` with the timing keys and `fields`; one occurrence counts as `work`
    /// occurrences toward the scenario's bound (see `ObjectSchema.work`).
    public static func action(_ name: String, _ doc: String, _ fields: [SchemaField], work: Double = 1) -> (
        String, ObjectSchema
    ) {
        (name, ObjectSchema(doc, timing + fields, work: work))
    }

    /// A feed called `name`, delivered `every` period from `at`, with `fields`.
    public static func feed(_ name: String, _ doc: String, _ fields: [SchemaField]) -> (String, ObjectSchema) {
        (
            name,
            ObjectSchema(
                doc,
                [
                    SchemaField("every", .period(), required: true, "period between deliveries, longer than zero"),
                    SchemaField("at", .duration, "offset of the first delivery (default 0)"),
                ] + fields)
        )
    }
}

/// What an app's `ScenarioCheck` sees of a scenario being loaded.
public struct ScenarioCheckInput: Sendable {
    /// The feeds, validated against their schema.
    public var feeds: [FeedSpec]
    /// The `parameters:` mapping, if any.
    public var parameters: LocatedValue?
    /// The values of each swept parameter, converted to the parameter's type.
    public var sweepValues: [String: [LocatedValue]]
    /// `time.duration`, seconds.
    public var duration: Double
    /// The actors and their actions, validated against the schema.
    public var actors: [ActorSpec]

    /// The input of a check: a scenario's feeds, `parameters:` mapping, swept values, duration and actors.
    public init(
        feeds: [FeedSpec], parameters: LocatedValue?, sweepValues: [String: [LocatedValue]], duration: Double,
        actors: [ActorSpec]
    ) {
        self.feeds = feeds
        self.parameters = parameters
        self.sweepValues = sweepValues
        self.duration = duration
        self.actors = actors
    }

    /// What a check sees of a loaded scenario case (its sweep already applied).
    public init(_ scenario: Scenario) {
        let parameters = LocatedValue(
            value: .object(scenario.parameters.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }),
            line: 0, column: 0)
        self.init(
            feeds: scenario.feeds, parameters: parameters, sweepValues: [:], duration: scenario.duration,
            actors: scenario.actors)
    }
}

/// A problem an app's check found: where, and what to do about it.
public struct ScenarioProblem: Sendable {
    /// The value at fault (its line and column locate the message).
    public var at: LocatedValue?
    /// The message, saying what to change.
    public var message: String
    /// Whether it stops the scenario (error) or only informs (warning).
    public var severity: ScenarioDiagnostic.Severity

    public init(at: LocatedValue?, _ message: String, severity: ScenarioDiagnostic.Severity = .error) {
        self.at = at
        self.message = message
        self.severity = severity
    }
}

/// An app-specific check of a scenario the schema cannot express.
public typealias ScenarioCheck = @Sendable (ScenarioCheckInput) -> [ScenarioProblem]

/// An app-specific check of a scenario (one case of it) against the data it names: it reads the
/// datasets through `run.datasets` as the driver does (sharing its parsed values) and returns the
/// problems found; a thrown error (a file that does not load) is reported as it is.
public typealias ScenarioInputCheck = @Sendable (RunContext) throws -> [ScenarioProblem]

/// The apps a build can run: the registered `AppDefinition`s, in order.
///
/// Handed to the scenario loader, the JSON Schema writer and the runner; the
/// requirement catalogue is the union of the apps' requirements.
public struct AppRegistry: Sendable {
    /// The apps, in registration order (the schema lists them in this order).
    public let apps: [AppDefinition]
    /// Every requirement of every app, each once, in registration order.
    public let requirements: [RequirementDefinition]
    /// The latency series measured on the virtual clock (`MetricDefinition.onVirtualClock()`), as
    /// `REQUIREMENT metric` stems: a baseline check compares their rows on any machine
    /// (`Tolerances.virtualClockLatency`).
    public var virtualClockLatencies: Set<String> {
        Set(requirements.flatMap { r in r.metrics.filter(\.isOnVirtualClock).map { r.id + " " + $0.name } })
    }
    /// The capabilities a scenario may hand to an external system (`systems:`, sweep parameters
    /// `systems.<capability>`), in the order the schema lists them: the names of the capability
    /// registry the tool runs with.
    public let capabilities: [String]

    /// A registry of `apps`. App names must be distinct, and a requirement two apps
    /// report must be defined identically by both (one definition, shared). `capabilities` are the
    /// names of the capability registry (`CapabilityRegistry`); nil: those the apps call
    /// (`AppDefinition.systemCapabilities`), in registration order.
    public init(_ apps: [AppDefinition], capabilities: [String]? = nil) {
        var names = Set<String>()
        var byID: [String: RequirementDefinition] = [:]
        var requirements: [RequirementDefinition] = []
        for app in apps {
            precondition(names.insert(app.name).inserted, "app '\(app.name)' is registered twice")
            for r in app.requirements {
                if let known = byID[r.id] {
                    precondition(
                        known == r, "requirement \(r.id) is defined differently by two apps; share one definition")
                } else {
                    byID[r.id] = r
                    requirements.append(r)
                }
            }
        }
        self.apps = apps
        self.requirements = requirements
        var used: [String] = []
        for name in apps.flatMap(\.systemCapabilities) where !used.contains(name) { used.append(name) }
        self.capabilities = capabilities ?? used
    }

    /// The app called `name`.
    public func app(_ name: String) -> AppDefinition? { apps.first { $0.name == name } }

    /// The requirement with `id`, whichever app reports it.
    public func requirement(_ id: String) -> RequirementDefinition? { requirements.first { $0.id == id } }

    /// The IDs of every requirement of the catalogue.
    public var requirementIDs: Set<String> { Set(requirements.map(\.id)) }

    /// The driver of `scenario`'s app in a `ManagedAppDriver` (which removes its
    /// temporary folders however the run ends and checks the threshold overrides).
    public func makeDriver(for scenario: Scenario) throws -> ManagedAppDriver {
        guard let app = app(scenario.app) else { throw UnknownAppError(app: scenario.app, file: scenario.file) }
        return ManagedAppDriver(try app.makeDriver(scenario))
    }
}

/// A scenario names an app this build has not registered.
public struct UnknownAppError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The app named.
    public var app: String
    /// The scenario file.
    public var file: String

    public var description: String {
        "\(file): error: app '\(app)' cannot be run by this build of fieldtest; run a scenario of another app"
    }
}
