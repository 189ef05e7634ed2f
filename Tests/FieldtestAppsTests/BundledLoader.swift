import FieldtestApps
import FieldtestData
import ScenarioEngine

// The app tests read scenarios of the bundled apps.
extension ScenarioLoader {
    init(datasetNames: Set<String>?) { self.init(datasetNames: datasetNames, registry: .bundled) }
    init(manifest: DatasetManifest) { self.init(manifest: manifest, registry: .bundled) }
}
