import FieldtestData
import Foundation

/// A favourite place as the miCity "Add To Favorites" page saves it (Func_36–40).
struct FavouritePlace: Equatable, Sendable {
    /// Place name (unique in the favourites).
    var name: String
    /// Latitude, degrees.
    var latitude: Double
    /// Longitude, degrees.
    var longitude: Double
    /// User-edited note.
    var note: String
    /// When it was saved, seconds since 1970 UTC (virtual time).
    var savedAt: Double
}

/// One classified tweet as stored for the "twitter emotion" page.
struct StoredTweet: Equatable, Sendable {
    var index: Int
    var text: String
    var label: SentimentLabel
    var classifiedAt: Double
}

/// The miCity app's on-device SQLite database (``SQLiteDatabase``): classified tweets with
/// their emotion terms (for listing by class or word, Func_25–28) and
/// favourite places (Func_34–45). All SQL is parameterised. An emulated phone's database: it never
/// syncs the host disk (``HostDurability/emulated``).
final class MiCityStore {
    let queue: SQLiteDatabase

    /// Opens (creating) the database at `path`.
    init(path: String) throws {
        try PrivateFiles.prepareFile(atPath: path)
        queue = try SQLiteDatabase(
            path: path,
            options: SQLiteDatabase.Options(pragmas: HostDurability.emulated.sqlitePragma.map { [$0] } ?? []))
        try queue.migrate([
            SQLiteMigration(
                "v1",
                sql: """
                    CREATE TABLE tweet (idx INTEGER PRIMARY KEY NOT NULL, text TEXT NOT NULL, label INTEGER NOT NULL,
                                        classified_at REAL NOT NULL);
                    CREATE INDEX tweet_label ON tweet(label, idx);
                    CREATE TABLE tweet_word (word TEXT NOT NULL, idx INTEGER NOT NULL, PRIMARY KEY (word, idx)) WITHOUT ROWID;
                    CREATE TABLE place (name TEXT PRIMARY KEY NOT NULL, latitude REAL NOT NULL, longitude REAL NOT NULL,
                                        note TEXT NOT NULL, saved_at REAL NOT NULL);
                    """)
        ])
    }

    /// Stores a classified batch with each tweet's distinct words, in one transaction.
    func insert(_ tweets: [StoredTweet], words: [[String]]) throws {
        try queue.write { db in
            let tweet = try db.prepare(
                "INSERT OR REPLACE INTO tweet (idx, text, label, classified_at) VALUES (?, ?, ?, ?)")
            let word = try db.prepare("INSERT OR IGNORE INTO tweet_word (word, idx) VALUES (?, ?)")
            for (i, t) in tweets.enumerated() {
                try tweet.execute([t.index, t.text, t.label.rawValue, t.classifiedAt])
                for w in i < words.count ? words[i] : [] {
                    try word.execute([w, t.index])
                }
            }
        }
    }

    /// Stream positions of the tweets of class `label`, ascending.
    func tweets(label: SentimentLabel) throws -> [Int] {
        try queue.read { db in
            try db.fetchValues(Int.self, "SELECT idx FROM tweet WHERE label = ? ORDER BY idx", [label.rawValue])
        }
    }

    /// Stream positions of the tweets containing `word`, ascending.
    func tweets(word: String) throws -> [Int] {
        try queue.read { db in
            try db.fetchValues(Int.self, "SELECT idx FROM tweet_word WHERE word = ? ORDER BY idx", [word])
        }
    }

    /// Tweets per class (negative, neutral, positive) classified strictly after `time`.
    func classCounts(after time: Double) throws -> [Int] {
        try queue.read { db in
            var counts = [0, 0, 0]
            for row in try db.fetchAll(
                "SELECT label, COUNT(*) AS n FROM tweet WHERE classified_at > ? GROUP BY label", [time])
            {
                let label: Int = try row["label"]
                if counts.indices.contains(label) { counts[label] = try row["n"] }
            }
            return counts
        }
    }

    /// Text and class of the tweets classified strictly after `time`, by stream position.
    func recentTweets(after time: Double) throws -> [(text: String, label: SentimentLabel)] {
        try queue.read { db in
            try db.fetchAll(
                "SELECT text, label FROM tweet WHERE classified_at > ? ORDER BY idx", [time]
            )
            .map { (text: try $0["text"], label: SentimentLabel(rawValue: try $0["label"]) ?? .neutral) }
        }
    }

    /// Saves (or edits) a favourite.
    func save(_ p: FavouritePlace) throws {
        try queue.write { db in
            try db.execute(
                """
                INSERT INTO place (name, latitude, longitude, note, saved_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(name) DO UPDATE SET latitude = excluded.latitude, longitude = excluded.longitude,
                    note = excluded.note, saved_at = excluded.saved_at
                """, [p.name, p.latitude, p.longitude, p.note, p.savedAt])
        }
    }

    /// Replaces a favourite's note (the "Place Editor" → "Add To Favorites" edit, Func_36 and
    /// Func_45); returns whether the favourite existed (no row is made for one that does not).
    func updateNote(name: String, note: String) throws -> Bool {
        try queue.write { db in
            try db.execute("UPDATE place SET note = ? WHERE name = ?", [note, name])
            return db.changes > 0
        }
    }

    /// Deletes a favourite; returns whether it existed.
    func delete(name: String) throws -> Bool {
        try queue.write { db in
            try db.execute("DELETE FROM place WHERE name = ?", [name])
            return db.changes > 0
        }
    }

    /// Every favourite, by name.
    func favourites() throws -> [FavouritePlace] {
        try queue.read { db in
            try db.fetchAll("SELECT name, latitude, longitude, note, saved_at FROM place ORDER BY name").map {
                try FavouritePlace(
                    name: $0["name"], latitude: $0["latitude"], longitude: $0["longitude"],
                    note: $0["note"], savedAt: $0["saved_at"])
            }
        }
    }
}
