import FieldtestData
import Foundation

/// A heatmap of pedestrian density on a square grid (NAV-F7).
///
/// Each device's latest ping in the window is counted in its cell; density is devices per cell area
/// (persons/m²). Cells are `cellMetres` square at the grid origin's latitude (equirectangular).
/// O(P) to build; `cells` lists only non-empty cells.
public struct CrowdHeatmap: Sendable, Equatable {
    /// One non-empty cell.
    public struct Cell: Sendable, Equatable {
        /// Row (south → north) and column (west → east) from the origin.
        public var row: Int
        /// Column index.
        public var column: Int
        /// Cell centre in degrees.
        public var centre: GeoPoint
        /// Devices in the cell.
        public var devices: Int
        /// Persons per m².
        public var density: Double
    }

    /// South-west corner in degrees.
    public var origin: GeoPoint
    /// Cell side in metres.
    public var cellMetres: Double
    /// Non-empty cells, by row then column.
    public var cells: [Cell]

    /// Builds the heatmap of the window `(time − windowSeconds, time]`.
    public init(pings: [CrowdPing], origin: GeoPoint, cellMetres: Double, at time: Double, windowSeconds: Double) {
        self.origin = origin
        self.cellMetres = cellMetres
        var latest: [String: CrowdPing] = [:]
        for p in pings where p.time > time - windowSeconds && p.time <= time {
            if let q = latest[p.device], q.time >= p.time { continue }
            latest[p.device] = p
        }
        var counts: [[Int]: Int] = [:]
        for p in latest.values {
            let xy = Geodesy.localMetres(p.location, origin: origin)
            counts[[Int((xy.y / cellMetres).rounded(.down)), Int((xy.x / cellMetres).rounded(.down))], default: 0] += 1
        }
        let degPerMetre = 180 / (Double.pi * Geodesy.earthRadiusMetres)
        let lonPerMetre = degPerMetre / cos(origin.latitude * .pi / 180)
        cells = counts.keys.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) }.map { k in
            let c = counts[k] ?? 0
            return Cell(
                row: k[0], column: k[1],
                centre: GeoPoint(
                    latitude: origin.latitude + (Double(k[0]) + 0.5) * cellMetres * degPerMetre,
                    longitude: origin.longitude + (Double(k[1]) + 0.5) * cellMetres * lonPerMetre),
                devices: c, density: Double(c) / (cellMetres * cellMetres))
        }
    }
}
