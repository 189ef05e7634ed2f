import FieldtestData

/// The schema of a scenario file (version 1).
public enum ScenarioSchema {
    /// Scenario-file versions this build reads.
    public static let supportedVersions = [1]

    /// Network link presets a device may use.
    public static let networkPresets = ["wifi", "lte", "3g", "edge", "very-bad-network", "100%-loss"]
    /// Connectivity states.
    public static let connectivityStates = ["online", "offline", "wifi-only", "cellular-only"]

    static let device = ObjectSchema(
        "an emulated phone",
        [
            SchemaField("name", .string(), required: true, "referenced by actors"),
            SchemaField("gps", .string(allowed: ["open-sky", "urban", "indoor"]), "GPS environment (default urban)"),
            SchemaField("network", .string(allowed: networkPresets), "network link preset (default lte)"),
            SchemaField(
                "placement", .string(allowed: ["hand", "pocket"]), "where the phone is carried (default hand)"),
            SchemaField(
                "position",
                .object(
                    ObjectSchema(
                        "starting position, degrees",
                        [
                            SchemaField("latitude", .number(minimum: -90, maximum: 90), required: true),
                            SchemaField("longitude", .number(minimum: -180, maximum: 180), required: true),
                        ]))),
            SchemaField(
                "connectivity",
                .array(
                    .object(
                        ObjectSchema(
                            "a connectivity change",
                            [
                                SchemaField("at", .duration, required: true, "offset from the scenario start"),
                                SchemaField("state", .string(allowed: connectivityStates), required: true),
                            ])))),
            SchemaField(
                "permissions",
                .object(
                    ObjectSchema(
                        "what the user allowed",
                        [
                            SchemaField("location", .string(allowed: ["granted", "denied"])),
                            SchemaField("cellular", .string(allowed: ["granted", "denied"])),
                            SchemaField("weather", .string(allowed: ["ask-allow", "ask-deny", "granted", "denied"])),
                            SchemaField("consent", .boolean, "consent to location collection (NAV-PR1)"),
                        ]))),
            SchemaField("restarts", .array(.duration), "offsets at which the device reboots"),
        ])

    static let system = ObjectSchema(
        "an external system speaking the JSON Lines protocol",
        [
            SchemaField("command", .array(.string(), minItems: 1), required: true, "program and arguments"),
            SchemaField(
                "timeout", .period(minimum: 0, maximum: SystemSetting.maximumTimeoutSeconds),
                "longest wait for one answer (default 10s)"),
            SchemaField(
                "max_line_bytes",
                .integer(
                    minimum: SystemSetting.maxLineBytesRange.lowerBound,
                    maximum: SystemSetting.maxLineBytesRange.upperBound),
                "longest answer line in bytes (default 16777216); a longer one is a malformed answer"),
        ])

    static let requirement: SchemaType = .oneOf([
        .string(),
        .object(
            ObjectSchema(
                "a requirement with overrides",
                [
                    SchemaField("id", .string(), required: true, "requirement ID, e.g. SKY-P2"),
                    SchemaField(
                        "threshold", .number(), "replaces the default threshold of the requirement's checked metric"),
                    SchemaField("metric", .string(), "the metric the threshold applies to (default: the checked one)"),
                ])),
    ])

    /// A dataset named by path: `{name: home-campus, path: data/campus.osm}`.
    static let datasetFile = ObjectSchema(
        "a file replayed as a dataset",
        [
            SchemaField(
                "name", .string(), required: true,
                "the name fields such as 'campus' and feeds' 'dataset' use: letters, digits, '.', '_', '-'"),
            SchemaField(
                "path", .string(), required: true, "the file, relative to the scenario file's folder or absolute"),
            SchemaField(
                "format", .string(allowed: DatasetFormat.allCases.map(\.rawValue)),
                "the file's format; may be left out when its extension or header shows it (.osm, NOAA LCD, TMY3, UJIIndoorLoc, airline tweets, …)"
            ),
            SchemaField(
                "utc_offset", .number(),
                "NOAA LCD: the offset of the station's local standard time, hours east of UTC (e.g. -6); default: from the station's position"
            ),
            SchemaField(
                "timezone", .string(),
                "NOAA LCD: the station's IANA time zone, whose standard offset its times are in; default: from the station's position"
            ),
        ])

    /// The longest `time.duration` a scenario may have, seconds (366 days).
    public static let maximumDuration: Double = 366 * 86_400
    /// The most occurrences of actions and feed deliveries one scenario may
    /// schedule (all actors' actions and all feeds together).
    public static let maximumOccurrences = 1_000_000
    /// The most cases a sweep may expand to (parameter values multiplied, times seeds).
    public static let maximumCases = 100_000

    static let sweep = ObjectSchema(
        "a parameter matrix run over several seeds",
        [
            SchemaField(
                "parameters", .map(.array(.scalar, minItems: 1)),
                "parameter name → distinct values, each of the parameter's type; device keys as devices.<name>.<gps|network|placement>"
            ),
            SchemaField(
                "seeds", .oneOf([.array(.unsignedInteger, minItems: 1), .object(seedRange)]),
                "seeds of each case: a list (0 to 18446744073709551615, no repeats) or a range {from, count} (default: the scenario seed)"
            ),
        ])

    /// `seeds: {from: F, count: N}`: the N consecutive seeds F, F + 1, …, F + N − 1.
    static let seedRange = ObjectSchema(
        "consecutive seeds from, from + 1, …, from + count - 1 (at most 18446744073709551615)",
        [
            SchemaField("from", .unsignedInteger, required: true, "the first seed"),
            SchemaField(
                "count", .integer(minimum: 1, maximum: maximumCases), required: true, "how many consecutive seeds"),
        ])

    /// The top-level schema of scenarios for the apps of `registry`; with an app,
    /// actions, feeds and parameters are that app's.
    public static func document(app: AppDefinition?, registry: AppRegistry) -> ObjectSchema {
        let apps = app.map { [$0] } ?? registry.apps
        var actions: [(String, ObjectSchema)] = []
        var feeds: [(String, ObjectSchema)] = []
        for a in apps {
            for x in a.actions where !actions.contains(where: { $0.0 == x.0 }) { actions.append(x) }
            for x in a.feeds where !feeds.contains(where: { $0.0 == x.0 }) { feeds.append(x) }
        }
        var parameters: [SchemaField] = []
        for a in apps {
            for p in a.parameters where !parameters.contains(where: { $0.name == p.name }) { parameters.append(p) }
        }
        return ObjectSchema(
            "A Fieldtest scenario",
            [
                SchemaField("version", .integer(), required: true, "scenario schema version; this build reads 1"),
                SchemaField(
                    "name", .fileName, required: true,
                    "scenario name, used as a folder name in report paths: letters, digits, '.', '_', '-'; at most 100 characters"
                ),
                SchemaField("description", .string()),
                SchemaField(
                    "app", .string(allowed: registry.apps.map(\.name)), required: true,
                    "the app whose cores are exercised"),
                SchemaField(
                    "seed", .unsignedInteger, required: true,
                    "root seed, 0 to 18446744073709551615; every component draws from a named sub-stream"),
                SchemaField(
                    "time",
                    .object(
                        ObjectSchema(
                            "the virtual time span",
                            [
                                SchemaField("start", .timestamp, required: true, "ISO 8601 with zone"),
                                SchemaField(
                                    "duration", .duration, required: true,
                                    "length of the run in virtual time, at most 366d"),
                                SchemaField(
                                    "timezone", .string(), required: true,
                                    "IANA time zone of the users, e.g. Asia/Singapore or UTC (not abbreviations or offsets such as EST or GMT+5)"
                                ),
                            ])), required: true),
                SchemaField(
                    "datasets", .array(.oneOf([.string(), .object(datasetFile)])),
                    "datasets replayed: manifest names, or files by path as {name, path, format}"),
                SchemaField("parameters", .object(ObjectSchema("app parameters", parameters))),
                SchemaField("devices", .array(.object(device), minItems: 1), required: true),
                SchemaField(
                    "actors",
                    .array(
                        .object(
                            ObjectSchema(
                                "a user of the app",
                                [
                                    SchemaField("name", .string(), required: true),
                                    SchemaField("device", .string(), required: true, "name of one of the devices"),
                                    SchemaField(
                                        "actions", .array(.tagged(discriminator: "do", variants: actions)),
                                        "what the user does, in time"),
                                ])))),
                SchemaField("feeds", .array(.tagged(discriminator: "kind", variants: feeds)), "background data feeds"),
                SchemaField(
                    "requirements", .array(requirement, minItems: 1), required: true,
                    "requirement IDs reported, with optional threshold overrides"),
                SchemaField("sweep", .object(sweep)),
                SchemaField(
                    "systems",
                    .object(
                        ObjectSchema(
                            "external systems under test by capability (default: the built-in cores)",
                            registry.capabilities.map { SchemaField($0, .object(system)) })),
                    "docs/system-protocol.md"),
            ])
    }
}
