import CampusRouting
import FieldtestApps
import FieldtestData
import Testing

/// The heat map NavUP shows, as CSV (`CrowdHeatmap.csv`).
@Suite("Crowd heat map CSV")
struct CrowdHeatmapCSVTests {
    @Test("one row per non-empty cell, with its centre, devices and density")
    func rows() {
        let pings = (0..<4).map { k in
            CrowdPing(
                device: "d\(k)", time: 5, location: GeoPoint(latitude: 0.0001, longitude: 0.0001), accuracyMetres: 3)
        }
        let h = CrowdHeatmap(
            pings: pings, origin: GeoPoint(latitude: 0, longitude: 0), cellMetres: 50, at: 5, windowSeconds: 10)
        let lines = h.csv.split(separator: "\n")
        #expect(lines.first == "row,column,latitude,longitude,devices,density_per_m2")
        #expect(lines.count == 2)
        #expect(lines[1].hasPrefix("0,0,") && lines[1].hasSuffix(",4,0.0016"))
    }
}
