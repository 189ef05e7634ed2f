import Foundation

/// A populated place with coordinates, population and IANA time zone (GeoNames).
public struct Place: Sendable, Equatable, Hashable {
    /// GeoNames id.
    public var geonameID: Int
    /// Name (UTF-8, may contain accents).
    public var name: String
    /// ISO 3166-1 alpha-2 country code (`US` for the US list).
    public var countryCode: String
    /// First-level admin code (USPS state code for the US list).
    public var admin1: String
    /// Latitude, degrees.
    public var latitude: Double
    /// Longitude, degrees.
    public var longitude: Double
    /// Population (≥ 0).
    public var population: Int
    /// IANA time-zone identifier, known to the system's tz database.
    public var timeZone: String
}

/// Loaders of the GeoNames city lists (US cities500 subset, world cities15000).
public enum PlacesLoader {
    /// Loads `us_cities_geonames_cities500.csv`
    /// (`geonameid,name,state_code,latitude,longitude,population,timezone`).
    public static func loadUSCities(url: URL, displayName: String? = nil, policy: LoadPolicy = .strict)
        throws(DataError) -> Loaded<Place>
    {
        try load(url: url, displayName: displayName, policy: policy, country: nil, admin1Column: "state_code")
    }

    /// Loads `world_cities_geonames_cities15000.csv`
    /// (`geonameid,name,country_code,admin1_code,latitude,longitude,population,timezone`).
    public static func loadWorldCities(url: URL, displayName: String? = nil, policy: LoadPolicy = .strict)
        throws(DataError) -> Loaded<Place>
    {
        try load(
            url: url, displayName: displayName, policy: policy, country: "country_code", admin1Column: "admin1_code")
    }

    static func load(
        url: URL, displayName: String?, policy: LoadPolicy, country: String?,
        admin1Column: String
    ) throws(DataError) -> Loaded<Place> {
        let table = try CSVTable(url: url, displayName: displayName)
        try table.require(
            ["geonameid", "name", admin1Column, "latitude", "longitude", "population", "timezone"]
                + (country.map { [$0] } ?? []))
        var knownZones: [String: Bool] = [:]
        return try table.load(policy: policy) { (row) throws(DataError) -> Place? in
            let name = try row.string("name").trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw row.invalid("name", "name is empty") }
            let cc = try country.map { (c) throws(DataError) -> String in try row.string(c) } ?? "US"
            guard cc.count == 2, cc.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
                throw row.invalid(country ?? "country_code", "expected an ISO 3166-1 alpha-2 code")
            }
            let zone = try row.string("timezone")
            let known: Bool
            if let k = knownZones[zone] {
                known = k
            } else {
                known = TimeZone(identifier: zone) != nil
                knownZones[zone] = known
            }
            guard known else { throw row.invalid("timezone", "unknown IANA time zone") }
            return Place(
                geonameID: try row.int("geonameid", in: 1...Int.max), name: name, countryCode: cc,
                admin1: try row.string(admin1Column), latitude: try row.latitude(), longitude: try row.longitude(),
                population: try row.int("population", in: 0...Int.max), timeZone: zone)
        }
    }

    /// The place nearest to a coordinate (great-circle distance); O(n).
    public static func nearest(latitude: Double, longitude: Double, in places: [Place]) -> Place? {
        places.min {
            greatCircleMetres(latitude, longitude, $0.latitude, $0.longitude)
                < greatCircleMetres(latitude, longitude, $1.latitude, $1.longitude)
        }
    }

    /// Haversine distance between two points given in degrees, metres (`Geodesy.haversineMetres`).
    public static func greatCircleMetres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        Geodesy.haversineMetres(GeoPoint(latitude: lat1, longitude: lon1), GeoPoint(latitude: lat2, longitude: lon2))
    }

    /// Standard-time (no daylight saving) UTC offset of an IANA zone in `year`,
    /// seconds east of UTC; nil for an unknown zone.
    public static func standardOffsetSeconds(zone: String, year: Int) -> Int? {
        guard let tz = TimeZone(identifier: zone), let d = CivilDate(year: year, month: 1, day: 15) else { return nil }
        let jan = Date(timeIntervalSince1970: Double(d.daysSinceEpoch * 86_400))
        return tz.secondsFromGMT(for: jan) - Int(tz.daylightSavingTimeOffset(for: jan))
    }
}
