import Foundation

/// Format-level record counts used before a format has its own typed loader.
enum GenericCounts {
    static func count(format: DatasetFormat, url: URL, displayName: String) throws(DataError) -> Int {
        var report = LoadReport()
        switch format {
        case .tmy3:
            return try CSVTable(url: url, displayName: displayName, headerRecord: 2).records.count
        case .tmy2:
            return try TextLines.nonEmpty(url, displayName: displayName, report: &report).count - 1
        case .json:
            let bytes = try readFileBytes(url, displayName: displayName)
            guard let obj = try? JSONSerialization.jsonObject(with: Data(bytes)) else {
                throw .badLayout(file: displayName, line: 1, reason: "not valid JSON")
            }
            return (obj as? [String: Any])?.count ?? (obj as? [Any])?.count ?? 1
        case .osmXML:
            let text = String(decoding: try readFileBytes(url, displayName: displayName), as: UTF8.self)
            return ["<node ", "<way ", "<relation "].reduce(0) { $0 + text.components(separatedBy: $1).count - 1 }
        case .tweetLines, .tweetevalText, .tweetevalLabels, .tweetevalMapping, .vaderGroundTruth, .vaderRatings,
            .vaderLexicon, .emojiLexicon, .afinn:
            return try TextLines.nonEmpty(url, displayName: displayName, report: &report).count
        case .geolifePLT:
            return try TextLines.nonEmpty(url, displayName: displayName, report: &report).count - 1
        default:
            return try CSVTable(url: url, displayName: displayName).records.count
        }
    }
}
