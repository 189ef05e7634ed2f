/// A measurable requirement of one of the five source specifications.
///
/// The catalogue mirrors `REQUIREMENTS.md` of the specifications: every
/// `requirement` column of a metric report names one of these IDs, so a row can
/// be traced back to a sentence of a spec.
public struct Requirement: Sendable, Equatable {
    /// Stable ID, e.g. `SKY-P2`.
    public var id: String
    /// Section of the source specification.
    public var source: String
    /// What the specification asks.
    public var summary: String
    /// How Fieldtest measures it.
    public var measuredAs: String
    /// The threshold as stated (a *default* marks Fieldtest's own number).
    public var threshold: String
}

/// Every requirement Fieldtest can report on.
public enum RequirementCatalogue {
    /// All requirements in catalogue order.
    public static let all: [Requirement] = [
        Requirement(id: "SKY-P1", source: "§3 Performance", summary: "A location entered yields accurate data within 5 s",
                    measuredAs: "end-to-end latency of a location query (emulated network + cache + compute)", threshold: "p95 ≤ 5 s"),
        Requirement(id: "SKY-P2", source: "§3 Performance", summary: "Sunrise and sunset time accurate to ±5 min",
                    measuredAs: "absolute error vs a reference solar position algorithm (NREL SPA), apparent sun centre at −0.833°", threshold: "max ≤ 300 s"),
        Requirement(id: "SKY-P3", source: "§3 Performance", summary: "The app responds to user input within 3 s",
                    measuredAs: "latency of each user action", threshold: "p95 ≤ 3 s"),
        Requirement(id: "SKY-R1", source: "§3 Reliability", summary: "Full function restored within 2 min of a reboot",
                    measuredAs: "time from emulated restart to first fully served request, from on-device cache", threshold: "≤ 120 s"),
        Requirement(id: "SKY-D1", source: "DET1 1.2.1", summary: "Location details refreshed every 5 min",
                    measuredAs: "age of displayed weather while online", threshold: "≤ 300 s"),
        Requirement(id: "SKY-D2", source: "HOME1, DET1", summary: "Shows sunrise, sunset, cloud cover (low/mid/high), rain probability, humidity, air quality, wind, golden-hour quality",
                    measuredAs: "fields present and sourced from the replayed weather", threshold: "all present"),
        Requirement(id: "SKY-Q1", source: "Data dictionary", summary: "Golden-hour quality: a percentage predicting how beautiful the sunset/sunrise will be",
                    measuredAs: "score in 0–100 per location and day; agreement with labelled cases where available", threshold: "documented model"),
        Requirement(id: "SKY-S1", source: "SORT1", summary: "Sort favourites by quality (high→low) or by distance from the GPS position (near→far); ties alphabetical; empty list → \"No location to be sorted!\"; fewer than 2 → ask to save at least 2",
                    measuredAs: "ordering and messages", threshold: "exact"),
        Requirement(id: "SKY-F1", source: "FAV1", summary: "Search a location; unknown → \"No results found\"; duplicate add → \"Location already added!\"; multi-select delete",
                    measuredAs: "results and messages", threshold: "exact"),
        Requirement(id: "SKY-C1", source: "CAL1", summary: "Calendar with quality for the past 30 and next 7 days; later → \"No predictions for the selected date yet!\"; older → \"Information expired.\"",
                    measuredAs: "window and messages", threshold: "exact"),
        Requirement(id: "SKY-M1", source: "CAL1 1.4", summary: "Reminder 30 min before sunrise/sunset; warn when a chosen day has a low chance of a visible one",
                    measuredAs: "reminder time error; warning when quality below a threshold", threshold: "±60 s"),
        Requirement(id: "SKY-A1", source: "REG1, §4", summary: "Registration: valid email; unique username and email; password ≥ 8 with upper case and special character (data dictionary: 8–32, upper, lower, digit); passwords match; the spec's messages",
                    measuredAs: "accept/reject per rule", threshold: "exact"),
        Requirement(id: "SKY-A2", source: "LOG1", summary: "Login failure always says \"Incorrect username or password. Please try again.\" (no hint which was wrong)",
                    measuredAs: "message", threshold: "exact"),
        Requirement(id: "SKY-SEC", source: "§3 Security", summary: "Authentication required; sensitive data encrypted before storage",
                    measuredAs: "at-rest inspection of the store", threshold: "no plaintext secrets"),
        Requirement(id: "SKY-X1", source: "§3 Supportability", summary: "Works beyond Singapore when another weather source is provided",
                    measuredAs: "scenarios at several latitudes and providers", threshold: "pass everywhere"),
        Requirement(id: "WXC-A1", source: "R2", summary: "Password ≥ 8 characters with a digit and an upper-case letter",
                    measuredAs: "accept/reject", threshold: "exact"),
        Requirement(id: "WXC-D1", source: "R3, Add/Delete Cities", summary: "Search all US cities; add to and delete from personal favourites",
                    measuredAs: "search hit rate for exact and misspelt names; latency", threshold: "top-1 ≥ 95% exact, p95 ≤ 100 ms *default*"),
        Requirement(id: "WXC-W1", source: "R5", summary: "A favourite city shows its weather from the weather source and its map location",
                    measuredAs: "fields present", threshold: "all present"),
        Requirement(id: "WXC-P1", source: "Use case 3", summary: "Cellular refused → only Wi-Fi is used; location refused → no device position",
                    measuredAs: "network path and position availability", threshold: "exact"),
        Requirement(id: "WXC-P2", source: "Use case 5", summary: "Weather service asks permission per new location; refusal disables it there",
                    measuredAs: "behaviour", threshold: "exact"),
        Requirement(id: "WXC-M1", source: "Map UI", summary: "Weather layer for a two-hour period",
                    measuredAs: "forecast horizon served", threshold: "2 h"),
        Requirement(id: "BTD-A1", source: "5.3.1.1–2, 5.2.3.3", summary: "Sign-up creates a unique user ID with email, creation date, last sign-in; one account per email",
                    measuredAs: "records", threshold: "exact"),
        Requirement(id: "BTD-A2", source: "5.3.1.3, 5.2.1.4", summary: "Credentials verified promptly; clear error on failure",
                    measuredAs: "login latency", threshold: "p95 ≤ 500 ms *default* (with a slow KDF)"),
        Requirement(id: "BTD-J1", source: "5.3.2.1–2, 5.2.3.4", summary: "Journal entry with title, body, saved timestamp, category, prompt",
                    measuredAs: "records", threshold: "exact"),
        Requirement(id: "BTD-J2", source: "5.3.2.3", summary: "Posting an entry has minimal latency",
                    measuredAs: "local commit latency; sync latency when online", threshold: "p95 ≤ 50 ms local *default*"),
        Requirement(id: "BTD-J3", source: "5.2.1.2, 5.2.3.2", summary: "Filter entries (type: picture diary / journal; category; date)",
                    measuredAs: "results", threshold: "exact"),
        Requirement(id: "BTD-P1", source: "5.2.3.5–6", summary: "Recommended prompts grouped by category",
                    measuredAs: "records", threshold: "exact"),
        Requirement(id: "BTD-S1", source: "5.1", summary: "Synchronises when connected",
                    measuredAs: "entries written offline reach the server once online; none lost or duplicated", threshold: "0 lost, 0 duplicated"),
        Requirement(id: "NAV-F2", source: "F2, F8", summary: "Campus map usable online and offline",
                    measuredAs: "routing and search with connectivity off", threshold: "works"),
        Requirement(id: "NAV-F3", source: "F3", summary: "Search a venue with autocomplete from cache and remote; not found → prompt",
                    measuredAs: "top-k hit rate, latency", threshold: "top-5 ≥ 95% *default*"),
        Requirement(id: "NAV-F4", source: "F4", summary: "Fastest route between two points; start from map, search or sensed position; offline uses cached congestion, online fresh",
                    measuredAs: "route duration vs optimum under true congestion (\"regret\"); latency", threshold: "regret p95 ≤ 10% online *default*; p95 ≤ 100 ms *default*"),
        Requirement(id: "NAV-F5", source: "F5, F6, F23, F24", summary: "Points of interest and non-expired events along the route or near a place",
                    measuredAs: "correctness; no expired event shown", threshold: "exact"),
        Requirement(id: "NAV-F7", source: "F7, F25", summary: "Congestion / heatmap from crowd-sourced pedestrian pings",
                    measuredAs: "agreement of estimated density with the replayed truth", threshold: "documented"),
        Requirement(id: "NAV-F9", source: "F9", summary: "Mass alerts; emergency route to an assembly point",
                    measuredAs: "delivery; route validity", threshold: "exact"),
        Requirement(id: "NAV-F15", source: "F15", summary: "Wheelchair-friendly fastest route (no steps or impassable edges)",
                    measuredAs: "forbidden edges used", threshold: "0"),
        Requirement(id: "NAV-F18", source: "F18", summary: "Emergency: nearest wheelchair-friendly route to an exit from the current position",
                    measuredAs: "correctness", threshold: "exact"),
        Requirement(id: "NAV-F19", source: "F19, F20", summary: "Places and upcoming events by saved preferences, with reminders",
                    measuredAs: "correctness", threshold: "exact"),
        Requirement(id: "NAV-F21", source: "F21", summary: "History of places visited",
                    measuredAs: "correctness", threshold: "exact"),
        Requirement(id: "NAV-F22", source: "F22, F27, F31", summary: "Step count and distance walked, with statistics over time",
                    measuredAs: "step-count error vs ground truth", threshold: "≤ 5% *default*"),
        Requirement(id: "NAV-F26", source: "F26", summary: "Access rights: mobile users read congestion; agents and admins read/write",
                    measuredAs: "denied writes", threshold: "all denied"),
        Requirement(id: "NAV-F29", source: "F29, F30, F34, F35", summary: "Step/distance goals, completion notices, admin-set goals and prizes, ranking by time or score",
                    measuredAs: "correctness", threshold: "exact"),
        Requirement(id: "NAV-L1", source: "§3.1.4, F4", summary: "Position from Wi-Fi signal strength, cell towers, GPS, accelerometer and gyroscope, indoors and outdoors",
                    measuredAs: "horizontal error (m), floor and building hit rate", threshold: "see performance goals"),
        Requirement(id: "NAV-PR1", source: "§2.5", summary: "Consent before collecting location (POPI Act); withdrawal; deletion of identifiable data",
                    measuredAs: "no data before consent; none left after deletion", threshold: "exact"),
        Requirement(id: "MIC-12", source: "Func_12", summary: "100 tweets fetched and classified positive/negative/neutral every 80 s",
                    measuredAs: "batch size, period, classification latency", threshold: "100 per 80 s"),
        Requirement(id: "MIC-14", source: "Func_14", summary: "Classifier trained on a large corpus of preclassified tweets",
                    measuredAs: "accuracy, macro-F1 on held-out labelled tweets", threshold: "accuracy ≥ Go et al. 2009 baselines"),
        Requirement(id: "MIC-15", source: "Func_15, Func_20", summary: "City-wide emotion updated with each classified batch",
                    measuredAs: "correctness of the aggregate", threshold: "exact"),
        Requirement(id: "MIC-16", source: "Func_16–18, Func_21", summary: "Word cloud of emotion terms, sized by occurrence",
                    measuredAs: "term counts", threshold: "exact"),
        Requirement(id: "MIC-25", source: "Func_25–28", summary: "List tweets by class or containing a word",
                    measuredAs: "correctness", threshold: "exact"),
        Requirement(id: "MIC-30", source: "Func_30–32", summary: "Weather by latitude/longitude: symbol, description, temperature",
                    measuredAs: "fields present", threshold: "all present"),
        Requirement(id: "MIC-34", source: "Func_34–45", summary: "Nearby places; add to favourites with editable details; saved to SQLite; delete",
                    measuredAs: "correctness, latency", threshold: "exact"),
        Requirement(id: "MIC-55", source: "Func_55", summary: "Game difficulty follows the city's emotion (desirable)",
                    measuredAs: "monotone mapping", threshold: "documented"),
        Requirement(id: "MIC-NF1", source: "NonFunc_01–02", summary: "Fetching tweets and weather never blocks user actions",
                    measuredAs: "user-action latency during ingest", threshold: "p95 unchanged within 10% *default*"),
        Requirement(id: "MIC-NF4", source: "NonFunc_04", summary: "Database queries are fast",
                    measuredAs: "query latency", threshold: "p95 ≤ 10 ms *default*"),
        Requirement(id: "MIC-NF6", source: "NonFunc_06", summary: "Never exceed the tweet API's request limit",
                    measuredAs: "requests per rate window", threshold: "≤ limit, always"),
    ]

    private static let byID: [String: Requirement] = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })

    /// The requirement with `id`, if it exists.
    public static func requirement(_ id: String) -> Requirement? { byID[id] }

    /// Whether `id` names a catalogued requirement.
    public static func contains(_ id: String) -> Bool { byID[id] != nil }
}
