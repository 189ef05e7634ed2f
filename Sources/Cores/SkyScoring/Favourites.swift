import FieldtestData

/// The messages SkyScape shows for favourites, sorting and search (SRS FAV1, SORT1).
public enum SkyMessage {
    /// FAV1-AF-S1: a search matches nothing.
    public static let noResults = "No results found"
    /// FAV1 LOC1-AF-S2: adding a location already in the list.
    public static let alreadyAdded = "Location already added!"
    /// SORT1-AF-S1: sorting an empty list.
    public static let nothingToSort = "No location to be sorted!"
    /// SORT1 1.3: sorting a list with a single location (the SRS asks to save at least 2).
    public static let needTwoToSort = "Please save at least 2 locations before sorting."
    /// CAL1-AF-S1: a date more than 7 days ahead.
    public static let noPredictionsYet = "No predictions for the selected date yet!"
    /// CAL1-AF-S2: a date more than 30 days ago.
    public static let informationExpired = "Information expired."
    /// CAL1 1.4.3: the chosen day has a low chance of a visible sunrise/sunset.
    public static let lowChance = "Low chance of a visible sunrise/sunset on the selected day."
}

/// How favourites are ordered (SORT1).
public enum FavouriteSort: Sendable {
    /// Highest golden-hour quality first.
    case quality
    /// Nearest to a position first (latitude, longitude in degrees).
    case distance(latitude: Double, longitude: Double)
}

/// Outcome of a sort: the ordered list, or the spec's message.
public enum SortOutcome: Sendable, Equatable {
    /// The ordered locations.
    case sorted([SavedLocation])
    /// A message instead of a list.
    case message(String)
}

/// The user's favourite locations (SRS FAV1, SORT1): add, multi-delete and sort. Value type.
public struct Favourites: Sendable, Equatable {
    /// Saved locations in insertion order.
    public private(set) var locations: [SavedLocation] = []

    /// An empty list.
    public init() {}

    /// Adds `location`; returns `SkyMessage.alreadyAdded` when an entry with the same id exists.
    @discardableResult
    public mutating func add(_ location: SavedLocation) -> String? {
        guard !locations.contains(where: { $0.id == location.id }) else { return SkyMessage.alreadyAdded }
        locations.append(location)
        return nil
    }

    /// Removes every location whose id is in `ids` (multi-select delete); returns how many were removed.
    @discardableResult
    public mutating func remove(ids: Set<Int>) -> Int {
        let before = locations.count
        locations.removeAll { ids.contains($0.id) }
        return before - locations.count
    }

    /// Sorts by quality (high→low, `quality[id]` percent, unknown last) or distance (near→far);
    /// ties alphabetical by name. Empty → "No location to be sorted!"; one → ask to save two. O(n log n).
    public func sorted(by order: FavouriteSort, quality: [Int: Double] = [:]) -> SortOutcome {
        if locations.isEmpty { return .message(SkyMessage.nothingToSort) }
        if locations.count < 2 { return .message(SkyMessage.needTwoToSort) }
        let keyed: [(SavedLocation, Double)] = locations.map { loc in
            switch order {
            case .quality: return (loc, -(quality[loc.id] ?? -1))
            case .distance(let lat, let lon):
                return (loc, PlacesLoader.greatCircleMetres(lat, lon, loc.latitude, loc.longitude))
            }
        }
        return .sorted(
            keyed.sorted { a, b in
                a.1 != b.1 ? a.1 < b.1 : (a.0.name != b.0.name ? a.0.name < b.0.name : a.0.id < b.0.id)
            }.map(\.0))
    }
}
