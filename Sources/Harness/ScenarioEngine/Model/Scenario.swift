/// A parsed, validated scenario: what to replay, on which devices, what the
/// users do, and which requirements to report.
public struct Scenario: Sendable {
    /// Schema version (1).
    public var version: Int
    /// Name, used in report paths.
    public var name: String
    /// Free description.
    public var description: String
    /// App driven (an `AppDefinition` name).
    public var app: String
    /// Root seed.
    public var seed: UInt64
    /// Virtual start, seconds since 1970 UTC.
    public var start: Double
    /// Virtual duration, seconds.
    public var duration: Double
    /// IANA zone of the users.
    public var timeZone: String
    /// Names of the datasets replayed: manifest names and the names of `datasetFiles`.
    public var datasets: [String]
    /// App parameters (after sweep substitution).
    public var parameters: [String: LocatedValue]
    /// Emulated devices.
    public var devices: [DeviceSpec]
    /// Users and their actions.
    public var actors: [ActorSpec]
    /// Background feeds.
    public var feeds: [FeedSpec]
    /// Requirements reported, in order.
    public var requirements: [RequirementSpec]
    /// The sweep, if any.
    public var sweep: SweepSpec?
    /// External systems under test by capability (`sun`, `route`, `locate`, `sentiment`); a
    /// capability not listed uses the built-in core. From the scenario's `systems:` block, a
    /// sweep parameter `systems.<capability>` or `fieldtest run --system`, last wins.
    public var systems: [String: SystemSetting] = [:]
    /// Where the external systems of a run keep their standard error, `<prefix>.<capability>.stderr`
    /// (set by the runner to the report folder in progress; nil: a temporary file). Not read from YAML.
    public var systemLogPrefix: String?
    /// The file the scenario came from (for messages).
    public var file: String
    /// The datasets the scenario names by path (`{name, path, format}` entries of `datasets:`).
    public var datasetFiles: [ScenarioDataset] = []

    /// Virtual end, seconds since 1970 UTC.
    public var end: Double { start + duration }
}

/// An emulated phone as the scenario describes it.
public struct DeviceSpec: Sendable {
    public var name: String
    /// `open-sky`, `urban` or `indoor`.
    public var gps: String
    /// Network link preset.
    public var network: String
    /// `hand` or `pocket`.
    public var placement: String
    /// Starting latitude/longitude in degrees, if given.
    public var position: (latitude: Double, longitude: Double)?
    /// Connectivity changes: offset seconds → state.
    public var connectivity: [(at: Double, state: String)]
    /// Permission answers by name (`location`, `cellular`, `weather`).
    public var permissions: [String: String]
    /// Consent to location collection.
    public var consent: Bool
    /// Reboot offsets, seconds.
    public var restarts: [Double]
}

/// A user and what they do.
public struct ActorSpec: Sendable {
    public var name: String
    /// Device name.
    public var device: String
    /// Actions in file order.
    public var actions: [ActionSpec]
}

/// One action of an actor, possibly repeated.
public struct ActionSpec: Sendable {
    /// The `do:` value.
    public var kind: String
    /// First occurrence, seconds from the start.
    public var at: Double
    /// Repeat period, seconds.
    public var every: Double?
    /// Last allowed offset, seconds.
    public var until: Double?
    /// Repetitions.
    public var count: Int?
    /// Every other key, validated against the action's schema.
    public var parameters: LocatedValue
    /// Where it is in the file.
    public var line: Int

    /// How many times the action happens within `duration` seconds (what
    /// `offsets(duration:)` returns, counted without building it; may exceed
    /// `Int.max` for unvalidated specs, hence a `Double`).
    public func occurrenceCount(duration: Double) -> Double {
        guard let every, every > 0 else { return at <= duration ? 1 : 0 }
        let last = min(until ?? duration, duration)
        guard at <= last else { return 0 }
        let repeats = ((last - at) / every).rounded(.down) + 1
        return count.map { min(repeats, Double($0)) } ?? repeats
    }

    /// Offsets (seconds from start) at which the action happens, within `duration`.
    /// The loader bounds the number (`ScenarioSchema.maximumOccurrences`).
    public func offsets(duration: Double) -> [Double] {
        guard let every, every > 0 else { return at <= duration ? [at] : [] }
        var out: [Double] = []
        let last = min(until ?? duration, duration)
        var t = at
        while t <= last {
            out.append(t)
            if let count, out.count >= count { break }
            t = at + Double(out.count) * every
        }
        return out
    }
}

/// A background feed.
public struct FeedSpec: Sendable {
    /// The `kind:` value.
    public var kind: String
    /// First delivery offset, seconds.
    public var at: Double
    /// Period, seconds.
    public var every: Double
    /// Every key, validated.
    public var parameters: LocatedValue
    public var line: Int

    /// How many deliveries fall within a scenario of `duration` seconds
    /// (at `at`, `at + every`, … up to `duration`).
    public func deliveryCount(duration: Double) -> Double {
        guard every > 0 else { return at <= duration ? .infinity : 0 }
        return at <= duration ? ((duration - at) / every).rounded(.down) + 1 : 0
    }
}

/// A requirement to report, with an optional threshold override.
public struct RequirementSpec: Sendable, Equatable {
    public var id: String
    public var threshold: Double?
    public var metric: String?
    /// Where the entry is in the scenario file (0 when unknown), for warnings about it.
    public var line = 0, column = 0

    public init(id: String, threshold: Double? = nil, metric: String? = nil, line: Int = 0, column: Int = 0) {
        self.id = id
        self.threshold = threshold
        self.metric = metric
        self.line = line
        self.column = column
    }

    /// Entries are equal when they ask the same (where they are written does not matter).
    public static func == (a: RequirementSpec, b: RequirementSpec) -> Bool {
        a.id == b.id && a.threshold == b.threshold && a.metric == b.metric
    }
}

/// A parameter matrix × seeds.
public struct SweepSpec: Sendable {
    /// The parameters, in file order.
    public var parameters: [SweepParameter]
    /// Seeds of each case.
    public var seeds: [UInt64]

    /// Number of cases: the product of the parameters' value counts times the
    /// number of seeds (1 when none); `Int.max` when the product overflows.
    public var caseCount: Int {
        var count = max(1, seeds.count)
        for p in parameters {
            let (product, overflow) = count.multipliedReportingOverflow(by: p.values.count)
            if overflow { return Int.max }
            count = product
        }
        return count
    }
}

/// One swept parameter and its values.
public struct SweepParameter: Sendable {
    /// An app parameter name, or `devices.<device>.<gps|network|placement>`.
    public var name: String
    /// The values, converted to the parameter's type (durations in seconds), in file order.
    public var values: [LocatedValue]
    /// The values as written in the file (used in case labels), parallel to `values`.
    public var texts: [String]

    public init(name: String, values: [LocatedValue], texts: [String]) {
        self.name = name
        self.values = values
        self.texts = texts
    }
}

/// One external system chosen for a capability: the command that starts it and how long
/// to wait for an answer.
public struct SystemSetting: Sendable, Equatable {
    /// Program and arguments.
    public var command: [String]
    /// Seconds to wait for one answer; nil for the harness default.
    public var timeoutSeconds: Double?
    /// The longest answer line in bytes; nil for `defaultMaxLineBytes`.
    public var maxLineBytes: Int?

    /// The longest timeout a setting or option may give, in seconds: one day.
    public static let maximumTimeoutSeconds = 86_400.0
    /// The longest answer line when none is given: 16 MiB.
    public static let defaultMaxLineBytes = 16 << 20
    /// The answer line limits a setting or option may give, in bytes: 1 KiB to 1 GiB.
    public static let maxLineBytesRange = 1_024...(1 << 30)

    /// A setting.
    public init(command: [String], timeoutSeconds: Double? = nil, maxLineBytes: Int? = nil) {
        self.command = command
        self.timeoutSeconds = timeoutSeconds
        self.maxLineBytes = maxLineBytes
    }

    /// Why `seconds` is not a usable timeout (nil when it is): it must be longer than zero and at
    /// most `maximumTimeoutSeconds`.
    public static func timeoutProblem(_ seconds: Double) -> String? {
        guard seconds.isFinite, seconds > 0 else { return "must be longer than zero, e.g. 10s" }
        guard seconds <= maximumTimeoutSeconds else { return "must be at most 1d (86400 s)" }
        return nil
    }

    /// The words of a command line: split at unquoted spaces; '…' and "…" group words (quotes
    /// removed). Throws a message for an unclosed quote, an empty command or an empty program.
    public static func words(of text: String) throws(CommandLineError) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for c in text {
            if let q = quote {
                if c == q { quote = nil } else { current.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
                inWord = true
            } else if c == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(c)
                inWord = true
            }
        }
        if let quote { throw CommandLineError(message: "'\(text)': the quote \(quote) is not closed") }
        if inWord { words.append(current) }
        if words.isEmpty { throw CommandLineError(message: "the command is empty; give a program and its arguments") }
        if words[0].isEmpty { throw CommandLineError(message: "'\(text)': the program's name is empty") }
        return words
    }
}

/// Why a command line cannot start a system.
public struct CommandLineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    public var description: String { message }
}
