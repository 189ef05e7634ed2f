import FieldtestApps
import MetricReports
import ScenarioEngine
import Testing

/// The bundled registry: five apps, each requirement defined once, thresholds where the rows need them.
@Suite("Bundled app registry")
struct BundledRegistryTests {
    @Test func fiveAppsInSchemaOrderWithOneCatalogue() {
        let registry = AppRegistry.bundled
        #expect(registry.apps.map(\.name) == ["skyscape", "weather-cities", "navup", "micity", "journal"])
        #expect(registry.requirements.count == 54)
        #expect(registry.requirementIDs.count == registry.requirements.count)
        // MIC-30 is reported by two apps from one shared definition.
        #expect(registry.app("weather-cities")?.requirement("MIC-30") == registry.app("micity")?.requirement("MIC-30"))
        for app in registry.apps {
            #expect(Set(app.requirementIDs).count == app.requirements.count, "\(app.name) lists a requirement twice")
        }
    }

    /// Every metric definition is well formed: a threshold has a comparator to apply it, names are
    /// unique within their requirement, and latency series are in seconds.
    @Test(arguments: AppRegistry.bundled.requirements.map(\.id))
    func metricDefinitionsAreConsistent(_ id: String) throws {
        let requirement = try #require(AppRegistry.bundled.requirement(id))
        #expect(Set(requirement.metrics.map(\.name)).count == requirement.metrics.count)
        for m in requirement.metrics {
            if m.threshold != nil {
                #expect(m.comparator != .none, "\(id) \(m.name): a threshold without a comparator")
            }
            if m.isSeries { #expect(m.unit == "s" && m.kind == .latency, "\(id) \(m.name)") }
        }
    }
}
