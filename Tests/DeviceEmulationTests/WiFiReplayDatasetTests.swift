import Foundation
import Testing

@testable import DeviceEmulation

/// Replay on real recorded fingerprints: the first rows of the bundled UJIIndoorLoc subsample
/// (Torres-Sospedra et al., IPIN 2014; see Datasets/MANIFEST.csv). 520 WAP columns in dBm (+100 = not
/// detected), then LONGITUDE and LATITUDE in projected metres, FLOOR, BUILDINGID, …
@Suite("Wi-Fi replay on UJIIndoorLoc")
struct WiFiReplayDatasetTests {
    static let datasetURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Datasets/positioning/ujiindoorloc_train_a.csv")

    /// The header and the first `rows` data rows, parsed minimally (the file is plain numeric CSV).
    static func loadFingerprints(rows: Int) throws -> [RecordedFingerprint] {
        // Rows are about 2.2 kB: read only the head of the 14 MB file (1 MB holds ~450 rows).
        let handle = try FileHandle(forReadingFrom: datasetURL)
        defer { try? handle.close() }
        let head = try #require(try handle.read(upToCount: 1_000_000))
        let text = try #require(String(data: head, encoding: .utf8))
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).prefix(rows + 1)
        let header = lines.removeFirst().split(separator: ",").map(String.init)
        let names = Array(header.prefix { $0.hasPrefix("WAP") })
        try #require(names.count == 520)
        let longitude = try #require(header.firstIndex(of: "LONGITUDE"))
        let latitude = try #require(header.firstIndex(of: "LATITUDE"))
        let floor = try #require(header.firstIndex(of: "FLOOR"))
        return try lines.map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            try #require(fields.count == header.count)
            // Plain parsing here: a #require per field (520 × rows) dominates a debug build's run time.
            let rssi = fields.prefix(520).compactMap { Int($0) }
            try #require(rssi.count == 520)
            let floorNumber = try #require(Int(fields[floor]))
            let position = LocalPosition(
                east: try #require(Double(fields[longitude])), north: try #require(Double(fields[latitude])),
                up: Double(floorNumber) * 4)
            return RecordedFingerprint(position: position, floor: floorNumber, denseRSSI: rssi, accessPointNames: names)
        }
    }

    @Test("each recorded position replays the first fingerprint recorded there")
    func nearestReplay() throws {
        let prints = try Self.loadFingerprints(rows: 300)
        #expect(prints.count == 300)
        // Every row hears at least one access point, all within the dataset's −104…0 dBm range.
        #expect(prints.allSatisfy { !$0.readings.isEmpty })
        #expect(prints.allSatisfy { $0.readings.allSatisfy { $0.rssiDbm >= -110 && $0.rssiDbm <= 0 } })
        let replay = try WiFiFingerprintReplay(fingerprints: prints)
        for fingerprint in prints {
            let scan = replay.scan(at: 0, nearest: fingerprint.position, floor: fingerprint.floor)
            let firstAtSpot = try #require(
                prints.first { $0.position == fingerprint.position && $0.floor == fingerprint.floor })
            #expect(scan == WiFiScan(time: 0, readings: firstAtSpot.readings))
        }
    }
}
