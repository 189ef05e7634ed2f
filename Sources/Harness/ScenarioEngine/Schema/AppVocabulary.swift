import FieldtestData

/// The apps a scenario can drive, with the actions their users take, the
/// background feeds they consume and the requirements they report.
///
/// This is the scenario language's vocabulary: the schema, the JSON Schema
/// and the validator all read it, and each app driver interprets it.
public struct AppVocabulary: Sendable {
    /// App name used in `app:`.
    public var name: String
    /// What the app is (its source specification).
    public var doc: String
    /// Actions an actor may take (`do:` values) and their parameters.
    public var actions: [(String, ObjectSchema)]
    /// Background feeds (`kind:` values) and their parameters.
    public var feeds: [(String, ObjectSchema)]
    /// Requirement IDs the app measures.
    public var requirements: [String]
    /// App parameters (`parameters:`), overridable by a sweep.
    public var parameters: [SchemaField]

    /// The longest `walk` an actor may take, seconds (2 h: the phone's inertial
    /// trace is generated at 100 Hz and held in memory).
    public static let maximumWalkSeconds: Double = 2 * 3600
    /// The shortest `class_change_period` (navup), seconds: the crowd model plans
    /// every pedestrian's trip at every class change.
    public static let minimumClassChangePeriod: Double = 600

    /// Keys every action has: when it happens and how often it repeats.
    static let timing: [SchemaField] = [
        SchemaField("at", .duration, "offset from the scenario start when the action (first) happens"),
        SchemaField("every", .period(), "repeat period, longer than zero"),
        SchemaField("until", .duration, "offset after which a repeating action stops (default: the scenario end)"),
        SchemaField("count", .integer(minimum: 1, maximum: ScenarioSchema.maximumOccurrences), "number of repetitions (with 'every')"),
    ]

    static func action(_ name: String, _ doc: String, _ fields: [SchemaField]) -> (String, ObjectSchema) {
        (name, ObjectSchema(doc, timing + fields))
    }

    static func feed(_ name: String, _ doc: String, _ fields: [SchemaField]) -> (String, ObjectSchema) {
        (name, ObjectSchema(doc, [SchemaField("every", .period(), required: true, "period between deliveries, longer than zero"),
                                  SchemaField("at", .duration, "offset of the first delivery (default 0)")] + fields))
    }

    static let credentials: [SchemaField] = [
        SchemaField("username", .string(), required: true),
        SchemaField("email", .string()),
        SchemaField("password", .string(), required: true),
        SchemaField("confirm", .string(), "password confirmation (default: same as password)"),
        SchemaField("expect", .string(allowed: ["accept", "reject"]), "expected outcome, checked exactly"),
    ]

    /// Weather recordings the SkyScape and weather-cities providers replay.
    static let weatherRecordings: [DatasetFormat] = [.noaaLCD, .tmy3, .tmy2, .beijingPM25]

    /// The weather feed, reading datasets of `formats`.
    static func weatherFeed(_ formats: [DatasetFormat], _ datasetDoc: String) -> (String, ObjectSchema) {
        feed("weather-refresh", "replays recorded weather observations through a weather provider", [
            SchemaField("dataset", .dataset(formats: formats), required: true, datasetDoc),
            SchemaField("place", .string(), "place the recording stands for (default: every favourite)"),
        ])
    }

    /// All apps, by name.
    public static let all: [AppVocabulary] = [
        AppVocabulary(
            name: "skyscape", doc: "SkyScape sunrise/sunset quality predictor (skyscape-srs.txt)",
            actions: [
                action("search", "search a place by name", [SchemaField("query", .string(), required: true)]),
                action("add-favourite", "add a place to favourites", [SchemaField("place", .string(), required: true)]),
                action("remove-favourites", "multi-select delete", [SchemaField("places", .array(.string(), minItems: 1), required: true)]),
                action("sort-favourites", "sort favourites", [SchemaField("by", .string(allowed: ["quality", "distance"]), required: true)]),
                action("view-details", "open a location's details", [SchemaField("place", .string(), required: true)]),
                action("open-calendar", "open the quality calendar on a day", [
                    SchemaField("place", .string(), required: true),
                    SchemaField("day", .integer(minimum: -366, maximum: 366), required: true, "days from today (negative: past)")]),
                action("set-reminder", "remind 30 min before an event", [
                    SchemaField("place", .string(), required: true),
                    SchemaField("event", .string(allowed: ["sunrise", "sunset"]), required: true),
                    SchemaField("day", .integer(minimum: 0, maximum: 7), "days from today")]),
                action("register", "create an account", credentials),
                action("login", "sign in", credentials),
                action("move", "move the device", [SchemaField("latitude", .number(minimum: -90, maximum: 90), required: true),
                                                   SchemaField("longitude", .number(minimum: -180, maximum: 180), required: true)]),
            ],
            feeds: [weatherFeed(weatherRecordings, "manifest name of a NOAA LCD, TMY or Beijing PM2.5 dataset")],
            requirements: ["SKY-P1", "SKY-P2", "SKY-P3", "SKY-R1", "SKY-D1", "SKY-D2", "SKY-Q1", "SKY-S1", "SKY-F1",
                           "SKY-C1", "SKY-M1", "SKY-A1", "SKY-A2", "SKY-SEC", "SKY-X1"],
            parameters: [
                SchemaField("low_quality_threshold", .number(minimum: 0, maximum: 100), "quality % below which a day warns (default 25)"),
                SchemaField("forecast_error_growth", .number(minimum: 0), "forecast cloud error SD per day of lead, % (default 8)"),
                SchemaField("provider", .string(allowed: ["noaa-lcd", "tmy"]), "weather provider"),
            ]),
        AppVocabulary(
            name: "weather-cities", doc: "Weather by city favourites (weather-cities-usecases.txt)",
            actions: [
                action("search-city", "search US cities", [SchemaField("query", .string(), required: true),
                                                            SchemaField("expect", .string(), "expected top hit")]),
                action("search-sample", "search a seeded sample of real city names, exact and misspelt", [
                    SchemaField("size", .integer(minimum: 1, maximum: 100_000), required: true)]),
                action("add-city", "add a favourite city", [SchemaField("city", .string(), required: true)]),
                action("remove-city", "delete a favourite city", [SchemaField("city", .string(), required: true)]),
                action("view-city", "open a favourite's weather and map", [SchemaField("city", .string(), required: true)]),
                action("view-weather-layer", "open the map's weather layer", [SchemaField("city", .string(), required: true)]),
                action("answer-weather-permission", "answer the per-location weather prompt", [
                    SchemaField("city", .string(), required: true), SchemaField("allow", .boolean, required: true)]),
                action("register", "create an account", credentials),
            ],
            feeds: [weatherFeed(weatherRecordings, "manifest name of a NOAA LCD, TMY or Beijing PM2.5 dataset")],
            requirements: ["WXC-A1", "WXC-D1", "WXC-W1", "WXC-P1", "WXC-P2", "WXC-M1", "MIC-30"],
            parameters: [SchemaField("search_latency_ms", .number(minimum: 0), "WXC-D1 p95 threshold (default 100)")]),
        AppVocabulary(
            name: "navup", doc: "NavUP campus navigation (navup-srs.txt)",
            actions: [
                action("route", "request a route", [
                    SchemaField("from", .place, required: true, "venue name or 'lat,lon'"),
                    SchemaField("to", .place, required: true, "venue name or 'lat,lon'"),
                    SchemaField("profile", .string(allowed: ["walk", "wheelchair"]))]),
                action("random-routes", "request routes between seeded random venues", [
                    SchemaField("routes", .integer(minimum: 1, maximum: 10_000), required: true, "routes per occurrence, at most 10000"),
                    SchemaField("profile", .string(allowed: ["walk", "wheelchair"])),
                    SchemaField("contested", .boolean, "only requests whose congestion-free route is slower under the crowd's true positions than the best route then (NAV-F4); none is made while no pair is (default false)")]),
                action("search-venue", "search a venue: one typed query, or `queries` seeded prefix/misspelt queries of random venues", [
                    SchemaField("query", .string(), "text typed; the venues whose name, or a word of it, begins with it are the expected answers; a text that begins no venue name expects nothing found (the not-found prompt)"),
                    SchemaField("queries", .integer(minimum: 1, maximum: 100_000), "number of seeded queries (prefixes and one-typo names of random venues), at most 100000")]),
                action("emergency", "route to the nearest exit or assembly point", [
                    SchemaField("from", .place, required: true, "venue name or 'lat,lon'"), SchemaField("profile", .string(allowed: ["walk", "wheelchair"]))]),
                action("walk", "walk with the phone", [
                    SchemaField("duration", .period(maximum: maximumWalkSeconds), required: true,
                                "length of the walk, at most \(Int(maximumWalkSeconds / 3600))h; it must end within the scenario"),
                    SchemaField("pace", .string(allowed: ["slow", "normal", "fast"]))]),
                action("locate", "position the phone", [
                    SchemaField("environment", .string(allowed: ["indoor", "outdoor"]), required: true),
                    SchemaField("samples", .integer(minimum: 1, maximum: 3_600),
                                "indoor: test rows located (default 20); outdoor: seconds of walking (default 120); at most 3600")]),
                action("consent", "grant or withdraw consent to location collection", [SchemaField("granted", .boolean, required: true)]),
                action("write-congestion", "try to write congestion data", [SchemaField("role", .string(allowed: ["mobile", "agent", "admin"]), required: true)]),
                action("set-goal", "set a step goal", [SchemaField("steps", .integer(minimum: 1, maximum: 1_000_000), required: true, "daily step goal, at most 1000000")]),
                action("set-preferences", "save preferred event categories and a reminder lead time", [
                    SchemaField("categories", .array(.string(), minItems: 1), required: true),
                    SchemaField("lead", .duration, "reminder before an event starts (default 15m)")]),
            ],
            feeds: [
                feed("crowd-pings", "crowd-sourced pedestrian pings from the mobility model", [
                    SchemaField("people", .integer(minimum: 1, maximum: 20_000), required: true, "pedestrians simulated, at most 20000"),
                    SchemaField("dataset", .dataset(formats: [.geolifePLT]), "GeoLife .plt trajectory used to calibrate walking speed"),
                    SchemaField("gps", .string(allowed: ["open-sky", "urban", "indoor"]), "GPS environment of the crowd's phones (default urban)"),
                    SchemaField("lecture_venues", .integer(minimum: 2, maximum: 100_000), "venues holding the next classes at each change (default: every venue)"),
                    SchemaField("exit_window", .duration, "time over which a class leaves its room after it ends (default 5m)")]),
                feed("campus-events", "timetabled events with expiry", [
                    SchemaField("count", .integer(minimum: 1, maximum: 10_000), "events per delivery (default 5), at most 10000")]),
            ],
            requirements: ["NAV-F2", "NAV-F3", "NAV-F4", "NAV-F5", "NAV-F7", "NAV-F9", "NAV-F15", "NAV-F18", "NAV-F19",
                           "NAV-F21", "NAV-F22", "NAV-F26", "NAV-F29", "NAV-L1", "NAV-PR1"],
            parameters: [
                SchemaField("campus", .dataset(formats: [.osmXML]), "manifest name of the campus OSM extract"),
                SchemaField("class_change_period", .period(minimum: minimumClassChangePeriod),
                            "time between timetabled class changes (default 1h), at least 10m"),
                SchemaField("ping_retention", .duration, "how long crowd pings are kept (default 1h)"),
                SchemaField("fingerprint_train", .dataset(formats: [.ujiIndoorLoc]), "manifest name of the UJIIndoorLoc rows the Wi-Fi locator is trained on"),
                SchemaField("fingerprint_test", .dataset(formats: [.ujiIndoorLoc]), "manifest name of the UJIIndoorLoc rows located (rows of phones absent from training)"),
            ]),
        AppVocabulary(
            name: "micity", doc: "miCity city mood (micity-srs.txt)",
            actions: [
                action("view-mood", "open the city emotion view", []),
                action("word-cloud", "open the word cloud", [SchemaField("top", .integer(minimum: 1, maximum: 500))]),
                action("list-tweets", "list tweets by class or word", [
                    SchemaField("class", .string(allowed: ["positive", "negative", "neutral"])), SchemaField("word", .string())]),
                action("nearby-places", "list places near the device", [SchemaField("radius_m", .number(minimum: 1, maximum: 20_100_000), "metres, at most half the Earth's circumference")]),
                action("add-place", "save a place to favourites", [
                    SchemaField("name", .string(), required: true),
                    SchemaField("note", .string(), "the details as the user edits them before saving (default: the place's region and population)")]),
                action("edit-place", "edit a favourite's details and save them", [
                    SchemaField("name", .string(), required: true), SchemaField("note", .string(), required: true, "the new details")]),
                action("remove-place", "delete a favourite place", [SchemaField("name", .string(), required: true)]),
                action("weather", "weather at a point", [SchemaField("latitude", .number(minimum: -90, maximum: 90), required: true),
                                                         SchemaField("longitude", .number(minimum: -180, maximum: 180), required: true)]),
                action("play-game", "start the mood game", []),
            ],
            feeds: [
                feed("tweet-batch", "fetch and classify tweets from the emulated API", [
                    SchemaField("dataset", .dataset(formats: [.airlineTweets, .tweetevalText]), required: true,
                                "manifest name of the replayed labelled tweet stream (airline-tweets or tweeteval-val-text)"),
                    SchemaField("size", .integer(minimum: 1, maximum: 1000), "tweets per request (default 100)"),
                    SchemaField("burst", .integer(minimum: 1, maximum: 100), "extra requests attempted in the same window, at most 100")]),
                weatherFeed([.noaaLCD], "manifest name of a NOAA LCD dataset (with station coordinates)"),
            ],
            requirements: ["MIC-12", "MIC-14", "MIC-15", "MIC-16", "MIC-25", "MIC-30", "MIC-34", "MIC-55", "MIC-NF1",
                           "MIC-NF4", "MIC-NF6"],
            parameters: [
                SchemaField("rate_limit", .integer(minimum: 2, maximum: 1_000_000), "API requests allowed per window (default 15, at least 2, at most 1000000)"),
                SchemaField("client_rate_limit", .integer(minimum: 2, maximum: 1_000_000),
                            "requests per window the client assumes (default rate_limit; above it, 429s and back-off)"),
                SchemaField("rate_window", .period(), "API rate window (default 15m), longer than zero"),
                SchemaField("mood_window", .period(), "rolling window of the city mood (default 1h), longer than zero"),
                SchemaField("ingest", .string(allowed: ["background", "main-thread"]),
                            "where the app fetches and classifies tweets: background (default; the spec's design, only merging a batch "
                            + "holds the main thread) or main-thread (every tweet fetch and weather refresh blocks user actions: MIC-NF1 shows the cost)"),
            ]),
        AppVocabulary(
            name: "journal", doc: "BeenThereDoneThat journal with accounts (beentheredonethat-srs.txt)",
            actions: [
                action("sign-up", "create an account", credentials),
                action("login", "sign in", credentials),
                action("post-entries", "write journal entries", [
                    SchemaField("entries", .integer(minimum: 1, maximum: 10_000), required: true, "entries written, at most 10000"),
                    SchemaField("category", .string()),
                    SchemaField("type", .string(allowed: ["journal", "picture-diary"]))]),
                action("filter-entries", "filter entries", [
                    SchemaField("type", .string(allowed: ["journal", "picture-diary"])), SchemaField("category", .string()),
                    SchemaField("days", .integer(minimum: 1, maximum: 36_600), "entries of the last N days, at most 36600")]),
                action("browse-prompts", "open recommended prompts", []),
                action("crash", "kill the app between send and acknowledgement", []),
            ],
            feeds: [feed("sync", "background synchronisation attempts", [])],
            requirements: ["BTD-A1", "BTD-A2", "BTD-J1", "BTD-J2", "BTD-J3", "BTD-P1", "BTD-S1"],
            parameters: [SchemaField("kdf_iterations", .integer(minimum: 600_000, maximum: 10_000_000), "PBKDF2 iterations (default 600000, at most 10000000)")]),
    ]

    /// The app called `name`.
    public static func app(_ name: String) -> AppVocabulary? { all.first { $0.name == name } }
}
