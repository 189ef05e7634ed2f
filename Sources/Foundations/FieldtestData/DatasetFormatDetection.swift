import Foundation

/// Tells a dataset's format from its file when the file shows it unambiguously: by extension
/// (`.osm`, `.tm2`, `.plt`, `.json`) or, for CSV files, by the header columns each downloaded layout
/// starts with (NOAA LCD, TMY3, UJIIndoorLoc, the airline tweets, GeoNames, …); SemEval tweets by
/// their first row (a tweet ID, then a SemEval label).
///
/// Files whose layout no header marks (one tweet per line, TweetEval texts and labels, VADER's
/// tab-separated files, lexicons) are not guessed: their format must be given.
public enum DatasetFormatDetection {
    /// What the detection found.
    public enum Outcome: Sendable, Equatable {
        /// The format, and what showed it (e.g. "the extension .osm", "the header column HourlySkyConditions").
        case detected(DatasetFormat, because: String)
        /// Nothing marks the format; the message says what was looked at.
        case unknown(String)
    }

    /// How many bytes of the file are read to find its header lines.
    public static let sniffedBytes = 64 * 1024

    /// Header tests of the CSV layouts, in the order they are tried: the first header line's
    /// columns (upper-cased, unquoted) must contain all of `columns`.
    static let headerRules: [(format: DatasetFormat, columns: [String])] = [
        (.noaaLCD, ["STATION", "DATE", "REPORT_TYPE"]),
        (.isdHistory, ["USAF", "WBAN", "STATION NAME"]),
        (.ujiIndoorLoc, ["WAP001", "FLOOR", "BUILDINGID"]),
        (.airlineTweets, ["TWEET_ID", "AIRLINE_SENTIMENT", "TEXT"]),
        (.beijingPM25, ["YEAR", "MONTH", "DAY", "HOUR", "PM2.5"]),
        (.seattleDaily, ["DATE", "PRECIPITATION", "TEMP_MAX", "TEMP_MIN", "WEATHER"]),
        (.geolifeCSV, ["TRAJECTORY_ID", "LATITUDE", "LONGITUDE"]),
        (.worldCities, ["GEONAMEID", "COUNTRY_CODE", "LATITUDE", "LONGITUDE"]),
        (.usCities, ["GEONAMEID", "STATE_CODE", "LATITUDE", "LONGITUDE"]),
    ]

    /// The format of the file at `url`, from its extension, else its first lines.
    public static func detect(url: URL) -> Outcome {
        let ext = url.pathExtension.lowercased()
        switch ext {
        case "osm":
            // Some tools name a PBF extract .osm; its first block tells.
            let head = (try? FileHandle(forReadingFrom: url)).flatMap { h in
                defer { try? h.close() }
                return try? h.read(upToCount: 16)
            }
            if let head, OSMPBFLoader.looksLikePBF(head) {
                return .detected(.osmPBF, because: "its OSMHeader block (though named .osm)")
            }
            return .detected(.osmXML, because: "the extension .osm")
        case "pbf": return .detected(.osmPBF, because: "the extension .pbf")
        case "tm2": return .detected(.tmy2, because: "the extension .tm2")
        case "plt": return .detected(.geolifePLT, because: "the extension .plt")
        case "json": return .detected(.json, because: "the extension .json")
        default: break
        }
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            return .unknown("the file cannot be read")
        }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: sniffedBytes)) ?? Data()
        return detect(head: head)
    }

    /// The format shown by `head`, the first bytes of a file.
    public static func detect(head: Data) -> Outcome {
        if OSMPBFLoader.looksLikePBF(head) { return .detected(.osmPBF, because: "its OSMHeader block") }
        let text = String(decoding: head, as: UTF8.self)
        let lines = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).prefix(3).map(String.init)
        guard let first = lines.first else { return .unknown("the file is empty") }
        if first.trimmingCharacters(in: .whitespaces).hasPrefix("<?xml") || first.contains("<osm") {
            if text.contains("<osm") { return .detected(.osmXML, because: "its <osm> root element") }
        }
        if SemEvalTweetsLoader.looksLikeSemEval(Array(head)) {
            return .detected(.semEvalTweets, because: "its SemEval rows (id TAB label TAB text)")
        }
        let columns = Set(csvColumns(first))
        for rule in headerRules where rule.columns.allSatisfy(columns.contains) {
            return .detected(
                rule.format, because: "the header columns \(rule.columns.joined(separator: ", "))")
        }
        // TMY3: a 7-field station line, then the data header starting "Date (MM/DD/YYYY)".
        if lines.count >= 2, csvColumns(first).count == 7, lines[1].hasPrefix("Date (MM/DD/YYYY)") {
            return .detected(.tmy3, because: "the TMY3 station line and its 'Date (MM/DD/YYYY)' header")
        }
        return .unknown("no header of a known layout in its first line")
    }

    /// The comma-separated, unquoted, upper-cased column names of a header line.
    static func csvColumns(_ line: String) -> [String] {
        line.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                .uppercased()
        }
    }
}
