import FieldtestApps
import FieldtestData
import ScenarioEngine

// The engine's tests read scenarios of the bundled apps: their loader knows those apps.
extension ScenarioLoader {
    init(datasetNames: Set<String>?) { self.init(datasetNames: datasetNames, registry: .bundled) }
    init(manifest: DatasetManifest) { self.init(manifest: manifest, registry: .bundled) }
}

extension AppRegistry {
    /// The bundled apps with SkyScape's driver replaced by `make` (tests of the engine, not of the app).
    static func bundled(skyscape make: @escaping AppDriverFactory) -> AppRegistry {
        AppRegistry(
            bundled.apps.map { app in
                var app = app
                if app.name == "skyscape" { app.makeDriver = make }
                return app
            })
    }
}
