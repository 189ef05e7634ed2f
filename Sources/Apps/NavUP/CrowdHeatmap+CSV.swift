import CampusRouting
import FieldtestData

extension CrowdHeatmap {
    /// The heat map as CSV (non-empty cells only): `row,column,latitude,longitude,devices,density_per_m2`.
    public var csv: String {
        var w = CSVWriter()
        w.row(["row", "column", "latitude", "longitude", "devices", "density_per_m2"])
        for c in cells {
            w.row([
                String(c.row), String(c.column), CSVWriter.number(c.centre.latitude),
                CSVWriter.number(c.centre.longitude),
                String(c.devices), CSVWriter.number(c.density),
            ])
        }
        return w.text
    }
}
