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
