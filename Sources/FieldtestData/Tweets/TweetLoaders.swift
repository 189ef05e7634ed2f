import Foundation

/// Typed loaders of the tweets datasets, and their record counts for `datasets verify`.
public enum TweetLoaders {
    /// Loads `url` with the typed loader of `format` and returns its record count.
    public static func countRecords(format: DatasetFormat, url: URL, displayName: String) throws(DataError) -> Int {
        try GenericCounts.count(format: format, url: url, displayName: displayName)
    }
}
