import FieldtestData
import ScenarioEngine

extension RunContext {
    /// The datasets the scenario lists whose format is one of `formats`, in the scenario's order:
    /// how an app finds its campus, fingerprints, places or bodies when a parameter does not
    /// name one, by what the data is rather than by what it is called.
    func listedDatasets(_ formats: Set<DatasetFormat>) -> [String] {
        scenario.datasets.filter { name in
            datasets.manifest.entry(named: name).map { formats.contains($0.format) } ?? false
        }
    }

    /// The dataset named by the scenario parameter `parameter` (when the app has one), else the
    /// `position`-th (0-based) dataset of `formats` the scenario lists; an error saying what to
    /// add when there is none.
    func dataset(
        parameter: String?, formats: Set<DatasetFormat>, position: Int = 0, what: String
    ) throws -> String {
        if let parameter, let named = scenario.parameters[parameter]?.scalarText { return named }
        let listed = listedDatasets(formats)
        guard listed.indices.contains(position) else {
            let setting = parameter.map { "set 'parameters.\($0)' or " } ?? ""
            throw ListedDatasetError(
                description: "\(scenario.file): error: no \(what): \(setting)list "
                    + "\(position == 0 ? "one" : "\(position + 1) such datasets") in 'datasets' (formats "
                    + "\(formats.map(\.rawValue).sorted().joined(separator: ", ")))")
        }
        return listed[position]
    }
}

/// A scenario lacks a dataset an app needs.
struct ListedDatasetError: Error, CustomStringConvertible {
    var description: String
}
