import FieldtestData

/// A place the user can save: name, coordinates and time zone.
public struct SavedLocation: Sendable, Hashable {
    /// Stable id (GeoNames id for cities).
    public var id: Int
    /// Display name, e.g. `Singapore` or `Lincoln, NE`.
    public var name: String
    /// Latitude, degrees.
    public var latitude: Double
    /// Longitude, degrees east.
    public var longitude: Double
    /// IANA time zone.
    public var timeZone: String

    /// Creates a location.
    public init(id: Int, name: String, latitude: Double, longitude: Double, timeZone: String) {
        self.id = id
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.timeZone = timeZone
    }

    /// A location from a GeoNames place (`Name, ST` for US places, `Name, CC` otherwise).
    public init(place: Place) {
        self.init(
            id: place.geonameID, name: "\(place.name), \(place.countryCode == "US" ? place.admin1 : place.countryCode)",
            latitude: place.latitude, longitude: place.longitude, timeZone: place.timeZone)
    }
}
