import Foundation

/// Dispatches a dataset format to its typed loader.
public enum DatasetLoaders {
    /// Loads `url` strictly with the typed loader of `format` and returns the
    /// number of records it yields. Any bad row is a located `DataError`.
    public static func countRecords(format: DatasetFormat, url: URL, displayName: String) throws(DataError) -> Int {
        switch format {
        case .noaaLCD, .isdHistory, .tmy3, .tmy2, .seattleDaily, .beijingPM25, .usCities, .worldCities, .json:
            return try WeatherLoaders.countRecords(format: format, url: url, displayName: displayName)
        case .osmXML, .osmPBF, .ujiIndoorLoc, .geolifeCSV, .geolifePLT:
            return try MapLoaders.countRecords(format: format, url: url, displayName: displayName)
        case .tweetLines, .airlineTweets, .tweetsCSV, .sentiment140CSV, .tweetevalText, .tweetevalLabels,
            .tweetevalMapping,
            .semEvalTweets, .vaderGroundTruth, .vaderRatings, .vaderLexicon, .emojiLexicon, .afinn:
            return try TweetLoaders.countRecords(format: format, url: url, displayName: displayName)
        }
    }
}
