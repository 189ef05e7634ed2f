import Foundation

/// One Wi-Fi fingerprint of the UJIIndoorLoc database (Torres-Sospedra et al.,
/// "UJIIndoorLoc: A new multi-building and multi-floor database for WLAN
/// fingerprint-based indoor localization problems", IPIN 2014).
///
/// The 520 received signal strengths are kept as `Int8` dBm in column order
/// (`WAP001` first); `UJIIndoorLoc.notDetected` (+100) marks an access point
/// that was not heard.
public struct UJIIndoorLocRecord: Sendable, Equatable {
    /// RSSI per access point in dBm (−104…0), or +100 when not detected; always
    /// `UJIIndoorLoc.accessPointCount` values.
    public var rssi: [Int8]
    /// Where and by whom the fingerprint was recorded; nil when the input file
    /// has no ground-truth columns (a pure query file).
    public var label: UJIIndoorLocLabel?

    /// Creates a record from its RSSI vector (dBm, +100 = not detected) and label.
    public init(rssi: [Int8], label: UJIIndoorLocLabel?) {
        self.rssi = rssi
        self.label = label
    }
}

/// The ground truth and metadata columns of a UJIIndoorLoc fingerprint.
public struct UJIIndoorLocLabel: Sendable, Equatable {
    /// `LONGITUDE`: easting in projected metres (not degrees; EPSG:3857-like).
    public var longitudeMetres: Double
    /// `LATITUDE`: northing in projected metres (not degrees).
    public var latitudeMetres: Double
    /// `FLOOR`: 0-based floor number (0–4 on the Jaume I campus).
    public var floor: Int
    /// `BUILDINGID`: building number (0–2 on the Jaume I campus).
    public var building: Int
    /// `SPACEID`: room or space identifier (0 when not recorded, as in the validation file).
    public var space: Int
    /// `RELATIVEPOSITION`: inside or in front of the space's door; nil when
    /// recorded as 0 (the official validation file does not record it).
    public var relativePosition: UJIIndoorLocRelativePosition?
    /// `USERID`: collector (0 when not recorded).
    public var user: Int
    /// `PHONEID`: recording device.
    public var phone: Int
    /// `TIMESTAMP`: UNIX time in seconds (UTC).
    public var timestampSeconds: Int

    /// Creates a label; coordinates in projected metres, timestamp in UNIX seconds.
    public init(
        longitudeMetres: Double, latitudeMetres: Double, floor: Int, building: Int,
        space: Int = 0, relativePosition: UJIIndoorLocRelativePosition? = nil,
        user: Int = 0, phone: Int = 0, timestampSeconds: Int = 0
    ) {
        self.longitudeMetres = longitudeMetres
        self.latitudeMetres = latitudeMetres
        self.floor = floor
        self.building = building
        self.space = space
        self.relativePosition = relativePosition
        self.user = user
        self.phone = phone
        self.timestampSeconds = timestampSeconds
    }
}

/// `RELATIVEPOSITION` of UJIIndoorLoc: where the collector stood relative to the space.
public enum UJIIndoorLocRelativePosition: Int, Sendable, Equatable {
    /// 1: inside the room or space.
    case inside = 1
    /// 2: outside, in front of the door.
    case outsideInFront = 2
}
