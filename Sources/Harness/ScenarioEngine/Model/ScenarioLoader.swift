import FieldtestData
import Foundation
import MetricReports
import Yams

/// Reads scenario files: YAML → composed nodes (with positions) → schema
/// validation → `Scenario`, then checks what the schema cannot: datasets exist
/// in the manifest and are of the kind each field reads, requirement IDs exist
/// and are measured by the app, actors name real devices, time zones exist,
/// sweep values have their parameter's type and the sweep is not too large.
public struct ScenarioLoader: Sendable {
    /// Names of the bundled datasets (from the manifest); nil skips the check.
    public var datasetNames: Set<String>?
    /// Format of each bundled dataset by name (from the manifest); nil skips
    /// the check that a dataset field names a dataset of a format it reads.
    public var datasetFormats: [String: DatasetFormat]?
    /// The apps whose scenarios this loader reads (vocabulary, parameters, requirements).
    public var registry: AppRegistry

    public init(datasetNames: Set<String>?, datasetFormats: [String: DatasetFormat]? = nil, registry: AppRegistry) {
        self.datasetNames = datasetNames
        self.datasetFormats = datasetFormats
        self.registry = registry
    }

    /// A loader of scenarios for the apps of `registry`, checking dataset names and formats against `manifest`.
    public init(manifest: DatasetManifest, registry: AppRegistry) {
        self.init(
            datasetNames: Set(manifest.entries.map(\.name)),
            datasetFormats: Dictionary(manifest.entries.map { ($0.name, $0.format) }, uniquingKeysWith: { a, _ in a }),
            registry: registry)
    }

    /// Loads and validates the file at `url`; `displayName` is used in messages.
    public func load(_ url: URL, displayName: String? = nil) throws(ScenarioErrors) -> Scenario {
        let name = displayName ?? url.path
        let text: String
        do {
            // Bounded, so a scenario path naming a device or an endless pipe stops with an error.
            text = try TextLines.decode(
                readFileBytes(url, displayName: name, limit: InputLimits.scenarioBytes), file: name)
        } catch {
            let message: String
            switch error {
            case .unreadable(_, let reason): message = "cannot read the file: \(reason)"
            case .invalidUTF8: message = "the file is not valid UTF-8"
            default: message = "\(error)"
            }
            throw ScenarioErrors([ScenarioDiagnostic(file: name, line: error.line ?? 0, column: 0, message: message)])
        }
        return try parse(text, file: name, folder: url.standardizedFileURL.deletingLastPathComponent())
    }

    /// Parses scenario text; paths of datasets named by path are taken relative to `folder`
    /// (default: the folder of `file`, taken relative to the working directory).
    public func parse(_ text: String, file: String, folder: URL? = nil) throws(ScenarioErrors) -> Scenario {
        func fail(_ line: Int, _ column: Int, _ message: String) -> ScenarioErrors {
            ScenarioErrors([ScenarioDiagnostic(file: file, line: line, column: column, message: message)])
        }
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw fail(0, 0, "the file is empty; start with 'version: 1'")
            }
            root = node
        } catch let error as ScenarioErrors {
            throw error
        } catch let error as YamlError {
            throw Self.locate(error, file: file, text: text)
        } catch {
            throw fail(0, 0, "cannot parse YAML: \(error)")
        }
        if let alias = Self.firstAlias(in: root) {
            throw fail(
                alias.line, alias.column,
                "an alias (*name) here repeats the anchored value at line \(alias.anchorLine); YAML anchors and "
                    + "aliases are not supported: write the value out")
        }
        guard case .mapping(let top) = root else {
            throw fail(
                root.mark?.line ?? 0, root.mark?.column ?? 0, "a scenario is a mapping of keys (version, name, app, …)")
        }
        // The version is checked first, before anything else is interpreted.
        guard let versionPair = top.first(where: { $0.key.string == "version" }) else {
            throw fail(
                root.mark?.line ?? 1, root.mark?.column ?? 1,
                "missing required key 'version'; add 'version: 1' (supported: \(ScenarioSchema.supportedVersions.map(String.init).joined(separator: ", ")))"
            )
        }
        let supported = ScenarioSchema.supportedVersions.map(String.init).joined(separator: ", ")
        if case .scalar(let s) = versionPair.value, s.style != .plain {
            let m = versionPair.value.mark
            throw fail(
                m?.line ?? 0, m?.column ?? 0,
                "'version' is the quoted text '\(s.string)'; it must be the integer \(supported), unquoted: 'version: \(supported)'"
            )
        }
        guard let version = versionPair.value.int, ScenarioSchema.supportedVersions.contains(version) else {
            let m = versionPair.value.mark
            throw fail(
                m?.line ?? 0, m?.column ?? 0,
                "unsupported scenario version '\(versionPair.value.string ?? "?")'; this build reads version \(supported)"
            )
        }
        let appName = top.first(where: { $0.key.string == "app" })?.value.string
        let app = appName.flatMap(registry.app)
        var validator = SchemaValidator(file: file)
        let value = validator.validate(
            root, as: .object(ScenarioSchema.document(app: app, registry: registry)), path: "")
        let sweepValues = app.map { Self.typedSweepValues(top, app: $0, validator: &validator) } ?? [:]
        var diagnostics = validator.diagnostics
        guard let value, diagnostics.isEmpty, let app else {
            if diagnostics.isEmpty {
                diagnostics.append(ScenarioDiagnostic(file: file, line: 0, column: 0, message: "missing 'app'"))
            }
            throw ScenarioErrors(diagnostics.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        }
        var builder = ScenarioBuilder(
            file: file, folder: folder ?? URL(fileURLWithPath: file).standardizedFileURL.deletingLastPathComponent(),
            app: app, registry: registry, datasetNames: datasetNames, datasetFormats: datasetFormats,
            datasetReferences: validator.datasetReferences, sweepValues: sweepValues)
        let scenario = builder.build(value, version: version)
        if !builder.diagnostics.isEmpty {
            throw ScenarioErrors(builder.diagnostics.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        }
        return scenario
    }

    /// Where the first YAML alias in `root` is used, and the line of the anchored value it repeats;
    /// nil without aliases. The composer resolves `*name` into the anchored node itself, marks
    /// included, so a node met a second time is an alias. The position given is the key that holds
    /// it (for a sequence item, the key that holds the sequence). Stops at the first repeat, so the
    /// walk is linear in the document however much the aliases would expand.
    static func firstAlias(in root: Node) -> (line: Int, column: Int, anchorLine: Int)? {
        struct Position: Hashable {
            var line: Int
            var column: Int
        }
        var seen = Set<Position>()
        func repeated(_ mark: Mark?, _ holder: Mark?) -> (line: Int, column: Int, anchorLine: Int)? {
            guard let mark, !seen.insert(Position(line: mark.line, column: mark.column)).inserted else { return nil }
            return (holder?.line ?? mark.line, holder?.column ?? mark.column, mark.line)
        }
        func visit(_ node: Node, holder: Mark?) -> (line: Int, column: Int, anchorLine: Int)? {
            switch node {
            case .mapping(let m):
                if let hit = repeated(m.mark, holder) { return hit }
                for (key, value) in m {
                    if let hit = visit(value, holder: key.mark) { return hit }
                }
            case .sequence(let items):
                if let hit = repeated(items.mark, holder) { return hit }
                for item in items {
                    if let hit = visit(item, holder: holder ?? items.mark) { return hit }
                }
            case .scalar(let scalar):
                // Empty scalars (a key with no value) may share the position of what follows.
                if !scalar.string.isEmpty, let hit = repeated(scalar.mark, holder) { return hit }
            case .alias(let alias):
                let line = alias.mark?.line ?? holder?.line ?? 0
                return (line, alias.mark?.column ?? holder?.column ?? 0, line)
            }
            return nil
        }
        return visit(root, holder: nil)
    }

    /// The schema type a value of sweep parameter `name` must have: the app
    /// parameter's, or the device field's for `devices.<name>.<field>`; nil
    /// for unknown parameters (reported by the builder).
    static func sweepType(_ name: String, app: AppDefinition) -> SchemaType? {
        if let field = app.parameters.first(where: { $0.name == name }) { return field.type }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, parts[0] == "devices", ["gps", "network", "placement"].contains(parts[2]) else {
            return nil
        }
        return ScenarioSchema.device.field(parts[2])?.type
    }

    /// Validates every value of `sweep.parameters` against its parameter's type
    /// and converts it (durations to seconds); returns name → (values, texts as written).
    /// Its diagnostics replace the generic scalar check's at the same positions.
    static func typedSweepValues(
        _ top: Node.Mapping, app: AppDefinition,
        validator: inout SchemaValidator
    ) -> [String: (values: [LocatedValue], texts: [String])] {
        guard case .mapping(let sweep)? = top.first(where: { $0.key.string == "sweep" })?.value,
            case .mapping(let parameters)? = sweep.first(where: { $0.key.string == "parameters" })?.value
        else { return [:] }
        var typed = SchemaValidator(file: validator.file)
        var out: [String: (values: [LocatedValue], texts: [String])] = [:]
        for (key, list) in parameters {
            guard let name = key.string, let type = sweepType(name, app: app), case .sequence(let items) = list else {
                continue
            }
            var values: [LocatedValue] = []
            var texts: [String] = []
            for (i, item) in items.enumerated() {
                if let v = typed.validate(item, as: type, path: "sweep.parameters.\(name)[\(i)]") {
                    values.append(v)
                    texts.append(item.string ?? v.scalarText ?? "?")
                }
            }
            out[name] = (values, texts)
        }
        let replaced = Set(typed.diagnostics.map { "\($0.line):\($0.column)" })
        validator.diagnostics.removeAll { replaced.contains("\($0.line):\($0.column)") }
        validator.diagnostics += typed.diagnostics
        validator.datasetReferences += typed.datasetReferences
        return out
    }

    /// Turns a YAML syntax error into a located diagnostic; `text` is the
    /// document, searched for the repeated key of a duplicate-key error.
    static func locate(_ error: YamlError, file: String, text: String) -> ScenarioErrors {
        let (mark, problem): (Mark?, String)
        switch error {
        case .scanner(let c, let p, let m, _), .parser(let c, let p, let m, _), .composer(let c, let p, let m, _):
            // libyaml's context says where the construct that failed began (e.g. the unclosed
            // bracket), which is often far from where the parser gave up.
            let context = c.map { " (\($0.text) at line \($0.mark.line), column \($0.mark.column))" } ?? ""
            (mark, problem) = (m, p + context)
        case .reader(let p, _, _, _):
            (mark, problem) = (nil, p)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.first ?? ""
            let first = context.mark
            let repeated = repeatedKey(key, after: first, in: text)
            return ScenarioErrors([
                ScenarioDiagnostic(
                    file: file, line: repeated?.line ?? first.line, column: repeated?.column ?? first.column,
                    message:
                        "key '\(key)' appears twice in the same mapping (first at line \(first.line)); keep only one"
                        + (duplicates.count > 1
                            ? " (also repeated: \(duplicates.dropFirst().joined(separator: ", ")))" : ""))
            ])
        default:
            (mark, problem) = (nil, "\(error)")
        }
        return ScenarioErrors([
            ScenarioDiagnostic(
                file: file, line: mark?.line ?? 0, column: mark?.column ?? 0,
                message: "invalid YAML: \(problem)")
        ])
    }

    /// The position of the next block-style `key:` at the same column as the
    /// first occurrence `first` (1-based), before the mapping ends; nil if not found
    /// (e.g. in a flow mapping `{a: 1, a: 2}`).
    static func repeatedKey(_ key: String, after first: Mark, in text: String) -> (line: Int, column: Int)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let indent = first.column - 1
        guard first.line >= 1, indent >= 0 else { return nil }
        for number in (first.line + 1)...max(first.line + 1, lines.count) where number <= lines.count {
            let line = lines[number - 1]
            let body = line.drop { $0 == " " }
            let column = line.count - body.count
            if body.isEmpty || body.hasPrefix("#") || column > indent || (column == indent && body.hasPrefix("- ")) {
                continue
            }
            if column < indent { return nil }
            for quote in ["", "\"", "'"] where body.hasPrefix(quote + key + quote) {
                let rest = body.dropFirst(key.count + 2 * quote.count).drop { $0 == " " }
                if rest.hasPrefix(":") { return (number, column + 1) }
            }
        }
        return nil
    }
}

/// Builds the model from validated values and performs the semantic checks.
struct ScenarioBuilder {
    let file: String
    /// The folder paths of datasets named by path are relative to.
    let folder: URL
    let app: AppDefinition
    let registry: AppRegistry
    let datasetNames: Set<String>?
    let datasetFormats: [String: DatasetFormat]?
    /// Dataset-valued fields found by the schema validator.
    let datasetReferences: [DatasetReference]
    /// Sweep values converted to their parameter's type, with their text as written.
    let sweepValues: [String: (values: [LocatedValue], texts: [String])]
    var diagnostics: [ScenarioDiagnostic] = []
    /// Formats of the datasets the scenario names by path.
    var localFormats: [String: DatasetFormat] = [:]
    /// Names the scenario gives files by path, including files with a problem already reported
    /// (fields naming them are not reported again as unknown).
    var localNames: Set<String> = []

    mutating func error(_ at: LocatedValue?, _ message: String) {
        diagnostics.append(
            ScenarioDiagnostic(file: file, line: at?.line ?? 0, column: at?.column ?? 0, message: message))
    }

    mutating func checkDataset(_ v: LocatedValue?, listed: [String]) {
        guard let v, let name = v.string else { return }
        if let datasetNames, !datasetNames.contains(name), !localNames.contains(name) {
            error(
                v,
                "unknown dataset '\(name)'\(Suggest.hint(name, (datasetNames.union(localNames)).sorted())); run 'fieldtest datasets list' to see the names"
            )
        } else if !listed.contains(name) {
            error(v, "dataset '\(name)' is not listed under 'datasets:'; add it there")
        }
    }

    /// The dataset `{name, path, format}` at `d` (`path` names it in messages): a valid name, a file
    /// that exists, and a format given or shown by the file, and not contradicted by it.
    mutating func declareFile(_ d: LocatedValue, path: String) -> ScenarioDataset? {
        guard let nameValue = d["name"], let name = nameValue.string, let pathValue = d["path"],
            let written = pathValue.string
        else { return nil }
        var ok = true
        if !DatasetRegistration.isValidName(name) {
            error(
                nameValue,
                "'\(path).name': '\(name)' cannot be a dataset name; use letters, digits, '.', '_' and '-' (at most 100 characters)"
            )
            ok = false
        }
        let url = ScenarioDataset.resolve(written, relativeTo: folder)
        // Messages name the file as the scenario writes it; the folder it is relative to is named once.
        let shown = written
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            let parent = url.deletingLastPathComponent()
            let siblings = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
            let why =
                isDirectory.boolValue
                ? "is a folder, not a file"
                : FileManager.default.fileExists(atPath: parent.path)
                    ? "does not exist\(Suggest.hint(url.lastPathComponent, siblings))"
                    : "does not exist (nor does its folder \(DatasetManifest.display(parent)))"
            error(
                pathValue,
                "'\(path).path': \(shown) \(why); paths are relative to the scenario file's folder (\(DatasetManifest.display(folder))) or absolute"
            )
            return nil
        }
        if let kind = SpecialFile.kind(url.path) {
            // Opening a FIFO nobody writes would block forever; a device has no end.
            error(
                pathValue, "'\(path).path': \(shown) is \(kind), not a regular file; a dataset must be a regular file")
            return nil
        }
        guard let declared = declaredFormat(d, url: url, shown: shown, path: path) else { return nil }
        ok = ok && declared.agrees
        var offset: Int?
        if let hours = d["utc_offset"]?.double {
            if (-14...14).contains(hours) {
                offset = Int((hours * 3600).rounded())
            } else {
                error(d["utc_offset"], "'\(path).utc_offset': \(hours) hours is not an offset from UTC; use -14 to 14")
                ok = false
            }
        }
        let zone = d["timezone"]?.string
        if let zone, TimeZone(identifier: zone) == nil {
            error(
                d["timezone"],
                "'\(path).timezone': '\(zone)' is not an IANA time zone\(Suggest.hint(zone, TimeZone.knownTimeZoneIdentifiers)); e.g. America/Chicago"
            )
            ok = false
        }
        return ok
            ? ScenarioDataset(
                name: name, path: written, url: url, format: declared.format, line: d.line, utcOffsetSeconds: offset,
                timeZone: zone) : nil
    }

    /// The format of the dataset file at `url` (declared at `d`): the one given, reported when the
    /// file shows another (`agrees` false), else the one the file shows; nil, reported, when neither.
    mutating func declaredFormat(_ d: LocatedValue, url: URL, shown: String, path: String)
        -> (format: DatasetFormat, agrees: Bool)?
    {
        let detected = DatasetFormatDetection.detect(url: url)
        if let given = d["format"]?.string.flatMap(DatasetFormat.init(rawValue:)) {
            if case .detected(let shownFormat, let because) = detected, shownFormat != given {
                error(
                    d["format"],
                    "'\(path).format': \(shown) is \(shownFormat.rawValue) data (\(because)), not \(given.rawValue); give 'format: \(shownFormat.rawValue)' or the path of a \(given.rawValue) file"
                )
                return (given, false)
            }
            return (given, true)
        }
        guard case .detected(let shownFormat, _) = detected else {
            let why = if case .unknown(let reason) = detected { reason } else { "" }
            error(
                d,
                "'\(path)': cannot tell the format of \(shown) (\(why)); add 'format:', one of \(DatasetFormat.allCases.map(\.rawValue).joined(separator: ", "))"
            )
            return nil
        }
        return (shownFormat, true)
    }

    /// Checks a dataset-valued field: the name is in the manifest, its format
    /// is one the field reads, and it is listed under `datasets:`.
    mutating func checkReference(_ reference: DatasetReference, listed: [String]) {
        guard let name = reference.value.string else { return }
        if let datasetNames, !datasetNames.contains(name), !localNames.contains(name) {
            checkDataset(reference.value, listed: listed)
            return
        }
        let formats = (datasetFormats ?? [:]).merging(localFormats) { _, local in local }
        if let format = formats[name], !reference.formats.contains(format) {
            let wanted = reference.formats.map(\.rawValue).joined(separator: " or ")
            let fitting = formats.filter { reference.formats.contains($0.value) }.keys.sorted()
            error(
                reference.value,
                "'\(reference.path)': dataset '\(name)' is \(format.rawValue) data; this field reads \(wanted) data"
                    + (fitting.isEmpty ? "" : " such as \(fitting.prefix(4).joined(separator: ", "))"))
            return
        }
        checkDataset(reference.value, listed: listed)
    }

    /// The seeds of `sweep.seeds`, validated by the schema as a list or a `{from, count}` range:
    /// a list must not repeat a seed, and a range must not pass `UInt64.max`.
    mutating func seeds(_ value: LocatedValue?) -> [UInt64] {
        guard let value else { return [] }
        if let list = value.array {
            var seen = Set<UInt64>()
            for (i, seed) in list.enumerated() {
                if let u = seed.unsigned, !seen.insert(u).inserted {
                    error(seed, "'sweep.seeds[\(i)]': seed \(u) is listed twice; each seed must be different")
                }
            }
            return list.compactMap(\.unsigned)
        }
        // The schema bounds count to 1…maximumCases, so the range is small enough to list.
        guard let from = value["from"]?.unsigned, let count = value["count"]?.int, count >= 1 else { return [] }
        let last = from.addingReportingOverflow(UInt64(count - 1))
        if last.overflow {
            error(
                value["count"],
                "'sweep.seeds.count': \(count) seeds from \(from) would pass the largest seed \(UInt64.max); "
                    + "start at \(UInt64.max - UInt64(count - 1)) or lower, or count at most \(UInt64.max - from + 1)")
            return []
        }
        return (0..<UInt64(count)).map { from + $0 }
    }

    mutating func build(_ v: LocatedValue, version: Int) -> Scenario {
        let time = v["time"]
        let tz = time?["timezone"]
        if let tz, let id = tz.string, IANATimeZone.zone(named: id) == nil {
            error(
                tz,
                "'time.timezone': '\(id)' is not an IANA time zone; use an IANA name such as 'Asia/Singapore', 'America/New_York' or 'UTC' (not abbreviations or offsets such as EST or GMT+5)"
            )
        }
        let (datasets, datasetFiles) = buildDatasets(v["datasets"]?.array ?? [])
        let devices = buildDevices(v["devices"]?.array ?? [])
        let duration = checkedDuration(time?["duration"])
        var tally = OccurrenceTally()
        let actors = buildActors(
            v["actors"]?.array ?? [], devices: devices, datasets: datasets, duration: duration, tally: &tally)
        for reference in datasetReferences { checkReference(reference, listed: datasets) }
        let feeds = buildFeeds(v["feeds"]?.array ?? [], duration: duration, tally: &tally)
        let durationIsValid = duration > 0 && duration <= ScenarioSchema.maximumDuration
        if durationIsValid, tally.total > Double(ScenarioSchema.maximumOccurrences), let busiest = tally.busiest {
            let total = tally.total < 1e15 ? String(Int(tally.total)) : String(tally.total)
            let most = busiest.count < 1e15 ? String(Int(busiest.count)) : String(busiest.count)
            error(
                busiest.at,
                "the scenario schedules \(total) action occurrences and feed deliveries (\(most) by \(busiest.what)); the most is \(ScenarioSchema.maximumOccurrences); use a longer 'every', a 'count' or 'until', or a shorter 'time.duration'"
            )
        }
        let input = ScenarioCheckInput(
            feeds: feeds, parameters: v["parameters"], sweepValues: sweepValues.mapValues(\.values),
            duration: duration, actors: actors)
        for check in app.checks {
            for problem in check(input) { error(problem.at, problem.message) }
        }
        let requirements = buildRequirements(v["requirements"]?.array ?? [])
        var parameters: [String: LocatedValue] = [:]
        for (k, pv) in v["parameters"]?.object ?? [] { parameters[k] = pv }
        let sweep = v["sweep"].map { buildSweep($0, devices: devices) }
        var scenario = Scenario(
            version: version, name: v["name"]?.string ?? "", description: v["description"]?.string ?? "",
            app: app.name, seed: v["seed"]?.unsigned ?? 0, start: time?["start"]?.double ?? 0,
            duration: duration, timeZone: tz?.string ?? "UTC", datasets: datasets, parameters: parameters,
            devices: devices, actors: actors, feeds: feeds, requirements: requirements, sweep: sweep, file: file,
            datasetFiles: datasetFiles)
        scenario.systems = buildSystems(v["systems"]?.object ?? [])
        return scenario
    }

    /// Occurrences scheduled (actions and feed deliveries), with the value that drives the most.
    struct OccurrenceTally {
        var total = 0.0
        var busiest: (count: Double, at: LocatedValue?, what: String)?

        mutating func add(_ count: Double, at: LocatedValue?, _ what: String) {
            total += count
            if count > (busiest?.count ?? 0) { busiest = (count, at, what) }
        }

        /// An occurrence that asks for more work (routes, entries) counts as more than one.
        static func weighed(_ weight: Double) -> String {
            weight > 1 ? ", each counted \(Int(weight)) times for its work" : ""
        }
    }

    /// The dataset names listed under `datasets:` and the files declared there by path.
    mutating func buildDatasets(_ datasetValues: [LocatedValue]) -> ([String], [ScenarioDataset]) {
        var datasetFiles: [ScenarioDataset] = []
        for (i, d) in datasetValues.enumerated() where d.object != nil {
            if let name = d["name"]?.string { localNames.insert(name) }
            if let file = declareFile(d, path: "datasets[\(i)]") {
                datasetFiles.append(file)
                localFormats[file.name] = file.format
            }
        }
        let names: [LocatedValue?] = datasetValues.map { $0.string != nil ? $0 : $0["name"] }
        let datasets = names.compactMap { $0?.string }
        for d in datasetValues where d.string != nil { checkDataset(d, listed: datasets) }
        var seenDatasets = Set<String>()
        for name in names.compactMap({ $0 }) where !seenDatasets.insert(name.string ?? "").inserted {
            error(name, "dataset '\(name.string ?? "")' is listed twice")
        }
        return (datasets, datasetFiles)
    }

    mutating func buildDevices(_ values: [LocatedValue]) -> [DeviceSpec] {
        var devices: [DeviceSpec] = []
        for d in values {
            let name = d["name"]?.string ?? ""
            if devices.contains(where: { $0.name == name }) { error(d["name"], "device name '\(name)' is used twice") }
            let pos = d["position"].flatMap { p -> (Double, Double)? in
                guard let la = p["latitude"]?.double, let lo = p["longitude"]?.double else { return nil }
                return (la, lo)
            }
            var perms: [String: String] = [:]
            for (k, pv) in d["permissions"]?.object ?? [] where k != "consent" { perms[k] = pv.string }
            let changes = (d["connectivity"]?.array ?? []).map { c in
                (at: c["at"]?.double ?? 0, state: c["state"]?.string ?? "online")
            }
            for (i, c) in changes.enumerated() where i > 0 && c.at < changes[i - 1].at {
                error(d["connectivity"]?.array?[i], "connectivity changes must be in time order")
            }
            devices.append(
                DeviceSpec(
                    name: name, gps: d["gps"]?.string ?? "urban", network: d["network"]?.string ?? "lte",
                    placement: d["placement"]?.string ?? "hand",
                    position: pos.map { (latitude: $0.0, longitude: $0.1) },
                    connectivity: changes, permissions: perms, consent: d["permissions"]?["consent"]?.bool ?? false,
                    restarts: (d["restarts"]?.array ?? []).compactMap(\.double)))
        }
        return devices
    }

    /// `time.duration` in seconds, with an error when it is not above zero or past the maximum.
    mutating func checkedDuration(_ value: LocatedValue?) -> Double {
        let duration = value?.double ?? 0
        if duration <= 0 { error(value, "'time.duration' must be longer than zero") }
        if duration > ScenarioSchema.maximumDuration {
            error(
                value,
                "'time.duration' is \(duration) s, longer than the maximum 366d (\(Int(ScenarioSchema.maximumDuration)) s); shorten it or split the run into several scenarios"
            )
        }
        return duration
    }

    mutating func buildActors(
        _ values: [LocatedValue], devices: [DeviceSpec], datasets: [String], duration: Double,
        tally: inout OccurrenceTally
    ) -> [ActorSpec] {
        var actors: [ActorSpec] = []
        for (actorIndex, a) in values.enumerated() {
            let dev = a["device"]
            if let name = dev?.string, !devices.contains(where: { $0.name == name }) {
                error(
                    dev,
                    "unknown device '\(name)'\(Suggest.hint(name, devices.map(\.name))); declare it under 'devices:'")
            }
            var actions: [ActionSpec] = []
            for (actionIndex, act) in (a["actions"]?.array ?? []).enumerated() {
                let path = "actors[\(actorIndex)].actions[\(actionIndex)]"
                actions.append(buildAction(act, path: path, datasets: datasets, duration: duration, tally: &tally))
            }
            // Reports and checks name actors, so two actors of one name could not be told apart.
            if let name = a["name"]?.string, actors.contains(where: { $0.name == name }) {
                error(a["name"], "actor name '\(name)' is used twice; give each actor its own 'name:'")
            }
            actors.append(ActorSpec(name: a["name"]?.string ?? "", device: dev?.string ?? "", actions: actions))
        }
        return actors
    }

    mutating func buildAction(
        _ act: LocatedValue, path: String, datasets: [String], duration: Double, tally: inout OccurrenceTally
    ) -> ActionSpec {
        if act["at"] == nil && act["every"] == nil { error(act, "action needs 'at' or 'every'") }
        if let at = act["at"]?.double, at > duration {
            error(act["at"], "'at' is after the end of the scenario (\(Int(duration)) s)")
        }
        for key in ["dataset"] { checkDataset(act[key], listed: datasets) }
        let action = ActionSpec(
            kind: act["do"]?.string ?? "", at: act["at"]?.double ?? 0, every: act["every"]?.double,
            until: act["until"]?.double, count: act["count"]?.int, parameters: act, line: act.line)
        let count = action.occurrenceCount(duration: duration)
        let weight = app.actions.first { $0.0 == action.kind }?.1.workWeight(of: act) ?? 1
        tally.add(
            count * weight, at: act["every"] ?? act,
            "'\(path)' (do: \(action.kind)\(OccurrenceTally.weighed(weight)))")
        if let length = act["duration"], let seconds = length.double, count >= 1 {
            let lastStart = action.at + (count - 1) * (action.every ?? 0)
            if lastStart + seconds > duration {
                error(
                    length,
                    "'\(path).duration': the \(action.kind) \(count > 1 ? "starting last " : "")at \(DurationText.describe(lastStart)) lasts \(DurationText.describe(seconds)) and would end after the scenario (\(DurationText.describe(duration))); shorten it, start it earlier or lengthen 'time.duration'"
                )
            }
        }
        return action
    }

    mutating func buildFeeds(_ values: [LocatedValue], duration: Double, tally: inout OccurrenceTally) -> [FeedSpec] {
        var feeds: [FeedSpec] = []
        for f in values {
            if let every = f["every"]?.double, every <= 0 { error(f["every"], "'every' must be longer than zero") }
            let feed = FeedSpec(
                kind: f["kind"]?.string ?? "", at: f["at"]?.double ?? 0, every: f["every"]?.double ?? 1,
                parameters: f, line: f.line)
            let weight = app.feeds.first { $0.0 == feed.kind }?.1.workWeight(of: f) ?? 1
            tally.add(
                feed.deliveryCount(duration: duration) * weight, at: f["every"] ?? f,
                "'feeds[\(feeds.count)]' (kind: \(feed.kind)\(OccurrenceTally.weighed(weight)))")
            feeds.append(feed)
        }
        return feeds
    }

    mutating func buildRequirements(_ values: [LocatedValue]) -> [RequirementSpec] {
        var requirements: [RequirementSpec] = []
        for r in values {
            let idValue = r.string != nil ? r : r["id"]
            let id = idValue?.string ?? ""
            if registry.requirement(id) == nil {
                error(
                    idValue,
                    "unknown requirement '\(id)'\(Suggest.hint(id, registry.requirements.map(\.id))); 'fieldtest requirements' lists them"
                )
            } else if app.requirement(id) == nil {
                error(
                    idValue,
                    "requirement '\(id)' is not measured by app '\(app.name)'; it measures \(app.requirementIDs.joined(separator: ", "))"
                )
            }
            if requirements.contains(where: { $0.id == id && $0.metric == r["metric"]?.string }) {
                error(idValue, "requirement '\(id)' is listed twice")
            } else if r["threshold"] != nil,
                requirements.contains(where: {
                    $0.id == id && $0.threshold != nil && ($0.metric == nil) != (r["metric"] == nil)
                })
            {
                error(
                    idValue,
                    "requirement '\(id)' has a threshold override without 'metric:' and one with 'metric:'; which one applies to the checked metric is ambiguous; name the metric in every override of '\(id)'"
                )
            }
            requirements.append(
                RequirementSpec(
                    id: id, threshold: r["threshold"]?.double, metric: r["metric"]?.string,
                    line: idValue?.line ?? r.line,
                    column: idValue?.column ?? r.column))
        }
        return requirements
    }

    mutating func buildSweep(_ s: LocatedValue, devices: [DeviceSpec]) -> SweepSpec {
        var params: [SweepParameter] = []
        for (k, vals) in s["parameters"]?.object ?? [] {
            checkSweepParameterName(k, vals, devices: devices)
            let raw = vals.array ?? []
            let typed = sweepValues[k] ?? (raw, raw.map { $0.scalarText ?? "?" })
            var seen: [String: Int] = [:]
            for (i, value) in typed.values.enumerated() {
                let identity = value.scalarText ?? typed.texts[i]
                if let first = seen[identity] {
                    error(
                        value,
                        "'sweep.parameters.\(k)[\(i)]': '\(typed.texts[i])' repeats item \(first) ('\(typed.texts[first])'); each value of a sweep parameter must be different"
                    )
                } else {
                    seen[identity] = i
                }
            }
            params.append(SweepParameter(name: k, values: typed.values, texts: typed.texts))
        }
        let spec = SweepSpec(parameters: params, seeds: seeds(s["seeds"]))
        if spec.caseCount > ScenarioSchema.maximumCases {
            let factors =
                params.map { "\($0.values.count) \($0.name)" }
                + (spec.seeds.isEmpty ? [] : ["\(spec.seeds.count) seeds"])
            let total = spec.caseCount == Int.max ? "more than \(Int.max)" : String(spec.caseCount)
            error(
                s,
                "'sweep' expands to \(total) cases (\(factors.joined(separator: " × "))); the most is \(ScenarioSchema.maximumCases); remove values or split the sweep into several scenario files"
            )
        }
        return spec
    }

    /// Checks that sweep parameter `k` names a system, a device setting or a parameter of the app.
    mutating func checkSweepParameterName(_ k: String, _ vals: LocatedValue, devices: [DeviceSpec]) {
        let known = app.parameters.map(\.name)
        if k.hasPrefix("systems.") {
            let capability = String(k.dropFirst("systems.".count))
            if !registry.capabilities.contains(capability) {
                error(
                    vals,
                    "sweep parameter '\(k)' must be systems.<\(registry.capabilities.joined(separator: "|"))>"
                )
            }
            for (i, value) in (vals.array ?? []).enumerated() {
                guard let text = value.scalarText, text != "builtin" else { continue }
                do { _ = try SystemSetting.words(of: text) } catch {
                    self.error(value, "'sweep.parameters.\(k)[\(i)]': \(error.message); or give 'builtin'")
                }
            }
        } else if k.hasPrefix("devices.") {
            let parts = k.split(separator: ".").map(String.init)
            if parts.count != 3 || !devices.contains(where: { $0.name == parts[1] })
                || !["gps", "network", "placement"].contains(parts[2])
            {
                error(vals, "sweep parameter '\(k)' must be devices.<device name>.<gps|network|placement>")
            }
        } else if !known.contains(k) {
            error(
                vals,
                "unknown sweep parameter '\(k)'\(Suggest.hint(k, known)); app '\(app.name)' has \(known.joined(separator: ", "))"
            )
        }
    }

    mutating func buildSystems(_ values: [(key: String, value: LocatedValue)]) -> [String: SystemSetting] {
        var systems: [String: SystemSetting] = [:]
        for (capability, s) in values {
            let command = (s["command"]?.array ?? []).compactMap(\.string)
            if let program = s["command"]?.array?.first, program.string?.isEmpty == true {
                error(program, "'systems.\(capability).command[0]' is empty; give the program to start")
            }
            let timeout = s["timeout"].flatMap { $0.double ?? $0.string.flatMap(DurationText.seconds) }
            systems[capability] = SystemSetting(
                command: command, timeoutSeconds: timeout, maxLineBytes: s["max_line_bytes"]?.int)
        }
        return systems
    }
}
