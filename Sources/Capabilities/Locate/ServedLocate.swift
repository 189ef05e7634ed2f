import FieldtestData
import Foundation
import Positioning

/// The fingerprint locator, served; trained on the UJIIndoorLoc files it is sent (`ujiindoorloc-csv`).
public struct ServedLocate: ServedCore {
    public let capability = SystemCapability.locate
    /// The locator, once trained.
    public var locator: FingerprintLocator?
    private var training: [UJIIndoorLocRecord] = []
    /// Serves a locator trained on the files it is sent.
    public init() {}

    public mutating func load(path: String, format: String) throws {
        guard format == "ujiindoorloc-csv" else {
            throw ServedCoreError("locate loads 'ujiindoorloc-csv' training files")
        }
        training += try UJIIndoorLoc.load(url: URL(fileURLWithPath: path), displayName: path).records
        locator = try FingerprintLocator(training: try FingerprintSample.fromUJIIndoorLoc(training))
    }

    public func answer(_ rows: [JSONObject]) -> [Result<[(String, JSONField)], ServedCoreError>] {
        guard let locator else { return rows.map { _ in .failure(ServedCoreError("no training file loaded")) } }
        return rows.map { row in
            let width = Self.width(row)
            var rssi: [Int8] = []
            for i in 0..<width {
                guard let v = row[LocateQuery.column(i)]?.intValue, let b = Int8(exactly: v),
                    b == UJIIndoorLoc.notDetected || (UJIIndoorLoc.weakestRSSI...0).contains(Int(b))
                else {
                    return .failure(
                        ServedCoreError(
                            "\(LocateQuery.column(i)) must be an integer dBm in -104…0, or 100 (not detected)"))
                }
                rssi.append(b)
            }
            guard let a = locator.locate([LocateQuery(id: "", rssi: rssi)])[0] else {
                return .failure(ServedCoreError("no access point detected, or the wrong number of WAP fields"))
            }
            return .success(a.fields)
        }
    }

    /// The number of `WAPnnn` fields of a row.
    static func width(_ row: JSONObject?) -> Int {
        var n = 0
        while row?[LocateQuery.column(n)] != nil { n += 1 }
        return n
    }
}
