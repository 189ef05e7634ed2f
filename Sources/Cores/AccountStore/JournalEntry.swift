import Foundation

/// The two kinds of entry, shown on two tabs (BeenThereDoneThat 5.2.1.1).
public enum EntryType: String, Sendable, Equatable, CaseIterable, Codable {
    /// A picture diary entry (usually with a photo).
    case pictureDiary = "picture-diary"
    /// A written journal entry.
    case journal
}

/// One journal entry (BTD-J1: title, body, saved timestamp, category, prompt; 5.2.1.1 type).
///
/// The identifier is generated on the device, so an entry written offline keeps its
/// identity through every retry and the server can de-duplicate by it (BTD-S1).
/// `revision` grows by one at every local save; the server keeps the highest revision.
public struct JournalEntry: Sendable, Equatable, Hashable {
    /// Client-generated identifier.
    public let id: UUID
    /// The owner's user ID.
    public var userID: String
    /// Title (may be empty; any Unicode, including NUL; at most ``JournalLimits/titleBytes`` of UTF-8).
    public var title: String
    /// Body (any Unicode, including NUL; at most ``JournalLimits/bodyBytes`` of UTF-8).
    public var body: String
    /// When the entry was saved on the device (UTC).
    public var savedAt: Date
    /// The category, e.g. one of ``PromptCatalogue/categories``.
    public var category: String
    /// The recommended prompt answered, if any.
    public var prompt: String?
    /// Picture diary or journal.
    public var type: EntryType
    /// Reference to an attached photo (e.g. a file name or asset ID), if any.
    public var photoReference: String?
    /// Local revision, 1 for the first save.
    public var revision: Int

    /// Creates an entry.
    public init(
        id: UUID, userID: String, title: String, body: String, savedAt: Date, category: String,
        prompt: String? = nil, type: EntryType, photoReference: String? = nil, revision: Int = 1
    ) {
        self.id = id
        self.userID = userID
        self.title = title
        self.body = body
        self.savedAt = savedAt
        self.category = category
        self.prompt = prompt
        self.type = type
        self.photoReference = photoReference
        self.revision = revision
    }
}

/// Size limits of journal fields, in bytes of UTF-8. Larger input is rejected with
/// ``AccountStoreError/textTooLong(field:byteCount:limitBytes:)``.
public enum JournalLimits {
    /// Title: 1 KiB.
    public static let titleBytes = 1_024
    /// Body: 4 MiB (a 1 MB body is fine).
    public static let bodyBytes = 4 * 1_024 * 1_024
    /// Category: 128 bytes, no control characters.
    public static let categoryBytes = 128
    /// Prompt: 1 KiB.
    public static let promptBytes = 1_024
    /// Photo reference: 2 KiB, no control characters.
    public static let photoReferenceBytes = 2_048
    /// User ID: 128 bytes, no control characters.
    public static let userIDBytes = 128

    /// Checks every field of `entry` against the limits.
    public static func validate(_ entry: JournalEntry) throws(AccountStoreError) {
        try check(entry.title, field: "title", limit: titleBytes, allowControl: true)
        try check(entry.body, field: "body", limit: bodyBytes, allowControl: true)
        try check(entry.category, field: "category", limit: categoryBytes, allowControl: false)
        try check(entry.userID, field: "user ID", limit: userIDBytes, allowControl: false)
        if let prompt = entry.prompt { try check(prompt, field: "prompt", limit: promptBytes, allowControl: true) }
        if let photo = entry.photoReference {
            try check(photo, field: "photo reference", limit: photoReferenceBytes, allowControl: false)
        }
        guard !entry.category.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalidText(field: "category", reason: "it is empty; choose a category")
        }
        guard entry.revision >= 1 else { throw .invalidText(field: "revision", reason: "it must be at least 1") }
        guard entry.savedAt.timeIntervalSince1970.isFinite else {
            throw .invalidText(field: "saved time", reason: "it is not a finite time")
        }
    }

    private static func check(_ text: String, field: String, limit: Int, allowControl: Bool) throws(AccountStoreError) {
        let count = text.utf8.count
        guard count <= limit else { throw .textTooLong(field: field, byteCount: count, limitBytes: limit) }
        if !allowControl, let bad = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            throw .invalidText(
                field: field,
                reason: "it contains the control character U+\(String(bad.value, radix: 16, uppercase: true))")
        }
    }
}

/// Strict UTF-8 decoding of external bytes (e.g. an entry body read from a file).
public enum JournalText {
    /// Decodes `bytes` as UTF-8, or throws ``AccountStoreError/invalidUTF8(source:byteOffset:)``
    /// naming the 0-based offset of the first bad byte. Rejects overlong forms, surrogates
    /// and code points above U+10FFFF (RFC 3629 §4). A leading byte-order mark is kept. O(n).
    public static func decode(_ bytes: [UInt8], source: String) throws(AccountStoreError) -> String {
        var i = 0
        let n = bytes.count
        while i < n {
            let b0 = bytes[i]
            if b0 < 0x80 {
                i += 1
                continue
            }
            let length: Int
            let lower: UInt8
            let upper: UInt8
            switch b0 {
            case 0xC2...0xDF:
                length = 2
                lower = 0x80
                upper = 0xBF
            case 0xE0:
                length = 3
                lower = 0xA0
                upper = 0xBF
            case 0xE1...0xEC, 0xEE...0xEF:
                length = 3
                lower = 0x80
                upper = 0xBF
            case 0xED:
                length = 3
                lower = 0x80
                upper = 0x9F
            case 0xF0:
                length = 4
                lower = 0x90
                upper = 0xBF
            case 0xF1...0xF3:
                length = 4
                lower = 0x80
                upper = 0xBF
            case 0xF4:
                length = 4
                lower = 0x80
                upper = 0x8F
            default: throw .invalidUTF8(source: source, byteOffset: i)
            }
            guard i + length <= n else { throw .invalidUTF8(source: source, byteOffset: i) }
            guard (lower...upper).contains(bytes[i + 1]) else { throw .invalidUTF8(source: source, byteOffset: i + 1) }
            for k in 2..<length {
                guard (0x80...0xBF).contains(bytes[i + k]) else {
                    throw .invalidUTF8(source: source, byteOffset: i + k)
                }
            }
            i += length
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads the file at `url` and decodes it with ``decode(_:source:)``; files larger than
    /// ``JournalLimits/bodyBytes`` are refused before decoding.
    public static func read(_ url: URL) throws(AccountStoreError) -> String {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .invalidText(field: "file \(url.path)", reason: "it cannot be read (\(error.localizedDescription))")
        }
        guard data.count <= JournalLimits.bodyBytes else {
            throw .textTooLong(field: "file \(url.path)", byteCount: data.count, limitBytes: JournalLimits.bodyBytes)
        }
        return try decode([UInt8](data), source: url.path)
    }
}
