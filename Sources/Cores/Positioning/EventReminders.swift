/// What a user cares about (NAV-F19): categories of places and events, and how
/// early to be reminded.
public struct UserPreferences: Sendable, Equatable {
    /// Categories of interest (e.g. "lecture", "food", "sport"), compared exactly.
    public var categories: Set<String>
    /// How long before an event starts to remind, seconds.
    public var reminderLeadSeconds: Double

    /// Creates preferences; lead time in seconds.
    public init(categories: Set<String>, reminderLeadSeconds: Double = 900) {
        self.categories = categories
        self.reminderLeadSeconds = reminderLeadSeconds
    }
}

/// A campus event at a place.
public struct CampusEvent: Sendable, Equatable {
    /// Event identifier.
    public var id: String
    /// Category, matched against `UserPreferences.categories`.
    public var category: String
    /// Where it happens (place or venue id).
    public var placeID: String
    /// Start, UNIX seconds (UTC).
    public var startSeconds: Double
    /// End, UNIX seconds (UTC); the event has expired from then on.
    public var endSeconds: Double

    /// Creates an event over [startSeconds, endSeconds).
    public init(id: String, category: String, placeID: String, startSeconds: Double, endSeconds: Double) {
        self.id = id
        self.category = category
        self.placeID = placeID
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
    }
}

/// A reminder due at `dueSeconds` for an event.
public struct EventReminder: Sendable, Equatable {
    /// The event.
    public var eventID: String
    /// When to remind, UNIX seconds (UTC).
    public var dueSeconds: Double
}

/// Events filtered by preferences, and their reminders. `now` is passed in (no
/// clock is read). O(n log n) for the sort.
public enum EventReminders {
    /// Non-expired events in the user's categories starting before `now + horizonSeconds`,
    /// ordered by start then id (events already under way are included).
    public static func upcoming(
        _ events: [CampusEvent], preferences: UserPreferences, nowSeconds now: Double,
        horizonSeconds: Double
    ) -> [CampusEvent] {
        events.filter {
            preferences.categories.contains($0.category) && $0.endSeconds > now
                && $0.startSeconds < now + horizonSeconds
        }
        .sorted { ($0.startSeconds, $0.id) < ($1.startSeconds, $1.id) }
    }

    /// Reminders still to fire (due at or after `now`) for preferred events that have not started,
    /// due `reminderLeadSeconds` before the start (or at `now` if that moment is past), by due time then id.
    public static func reminders(_ events: [CampusEvent], preferences: UserPreferences, nowSeconds now: Double)
        -> [EventReminder]
    {
        events.filter { preferences.categories.contains($0.category) && $0.startSeconds > now }
            .map {
                EventReminder(eventID: $0.id, dueSeconds: max(now, $0.startSeconds - preferences.reminderLeadSeconds))
            }
            .sorted { ($0.dueSeconds, $0.eventID) < ($1.dueSeconds, $1.eventID) }
    }
}
