import FieldtestData
import Positioning

/// One `locate` query: a Wi-Fi scan in the UJIIndoorLoc layout (`WAP001`…`WAP520`, dBm,
/// +100 for an access point not detected).
public struct LocateQuery: Sendable, Equatable {
    /// Caller's id.
    public var id: String
    /// RSSI per access point, in column order.
    public var rssi: [Int8]

    /// A query.
    public init(id: String, rssi: [Int8]) {
        self.id = id
        self.rssi = rssi
    }

    /// `WAP001`, `WAP002`, … (three digits, as in UJIIndoorLoc).
    static func column(_ i: Int) -> String {
        let n = String(i + 1)
        return "WAP" + String(repeating: "0", count: max(0, 3 - n.count)) + n
    }

    var fields: [(String, JSONField)] {
        [("id", .string(id))] + rssi.enumerated().map { (Self.column($0.offset), .int(Int($0.element))) }
    }
}

/// A position estimate (`longitude,latitude` in the dataset's projected metres, `floor`, `building`).
public struct LocateAnswer: Sendable, Equatable, Decodable {
    /// Easting, metres (UJIIndoorLoc `LONGITUDE`).
    public var longitude: Double
    /// Northing, metres (UJIIndoorLoc `LATITUDE`).
    public var latitude: Double
    /// Floor number.
    public var floor: Int
    /// Building id.
    public var building: Int

    /// An answer.
    public init(longitude: Double, latitude: Double, floor: Int, building: Int) {
        self.longitude = longitude
        self.latitude = latitude
        self.floor = floor
        self.building = building
    }

    enum CodingKeys: String, CodingKey { case longitude, latitude, floor, building }

    /// Decodes an answer; a coordinate beyond ±`UJIIndoorLoc.coordinateLimitMetres` (the training
    /// file's own limit) is a wrong answer, as a missing one is.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func metres(_ key: CodingKeys) throws -> Double {
            let v = try c.decode(Double.self, forKey: key)
            guard v.isFinite, abs(v) <= UJIIndoorLoc.coordinateLimitMetres else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c, debugDescription: "expected projected metres within ±100000000")
            }
            return v
        }
        longitude = try metres(.longitude)
        latitude = try metres(.latitude)
        floor = try c.decode(Int.self, forKey: .floor)
        building = try c.decode(Int.self, forKey: .building)
    }

    /// The answer fields.
    public var fields: [(String, JSONField)] {
        [
            ("longitude", .number(longitude)), ("latitude", .number(latitude)), ("floor", .int(floor)),
            ("building", .int(building)),
        ]
    }
}

/// Wi-Fi positioning, as an app needs it: one estimate per scan, in order (nil where the
/// system gave none, e.g. a scan with no access point detected).
public protocol PositioningSystem: Sendable {
    /// Locates each scan.
    func locate(_ queries: [LocateQuery]) -> [LocateAnswer?]
}

extension FingerprintLocator: PositioningSystem {
    /// The locator's estimate of each scan; nil for a scan of the wrong length.
    public func locate(_ queries: [LocateQuery]) -> [LocateAnswer?] {
        queries.map { q in
            guard let e = try? locate(q.rssi) else { return nil }
            return LocateAnswer(longitude: e.xMetres, latitude: e.yMetres, floor: e.floor, building: e.building)
        }
    }
}

/// An external positioning system (`locate` requests; the training file arrives in a `load` message).
public final class ExternalPositioningSystem: PositioningSystem, @unchecked Sendable {
    /// The process and its fault counts.
    public let system: ExternalSystem

    /// Wraps a started `locate` system.
    public init(_ system: ExternalSystem) { self.system = system }

    public func locate(_ queries: [LocateQuery]) -> [LocateAnswer?] {
        system.call(queries.map(\.fields), as: LocateAnswer.self)
    }
}
