import Capabilities
import Foundation
import ScenarioEngine

extension AppRegistry {
    /// The five bundled apps, in the order the schema lists them: SkyScape,
    /// weather-cities, NavUP, miCity and BeenThereDoneThat (`journal`).
    public static let bundled = AppRegistry(
        [
            SkyScapeDefinition.app, WeatherCitiesDefinition.app, NavUPDefinition.app, MiCityDefinition.app,
            JournalDefinition.app,
        ], capabilities: CapabilityRegistry.bundled.names)
}

extension MiCityDriver: TemporaryFolderOwning {
    /// The device caches and the app database.
    public var temporaryFolders: [URL] { [folder] }
}

extension JournalDriver: TemporaryFolderOwning {
    /// The device caches and the journals.
    public var temporaryFolders: [URL] { [folder] }
}

extension NavUPDriver: TemporaryFolderOwning {
    /// The device caches (made by `start`).
    public var temporaryFolders: [URL] { cacheFolder.map { [$0] } ?? [] }
}

extension SkyScapeDriver: TemporaryFolderOwning {
    /// The device caches and the accounts database.
    var temporaryFolders: [URL] { [cacheFolder] }
}

extension WeatherCitiesDriver: TemporaryFolderOwning {
    /// The device caches and the accounts database.
    var temporaryFolders: [URL] { [cacheFolder] }
}
