import FieldtestApps
import FieldtestData
import FieldtestTestSupport
import Foundation
import Testing

@testable import ScenarioEngine

/// What `fieldtest validate` prints per file (`ScenarioValidation.verdict`).
@Suite("Validation verdicts")
struct ValidationVerdictTests {
    let validation: ScenarioValidation = {
        let manifest = try? DatasetManifest(root: ScenarioValidationTests.repo.appendingPathComponent("Datasets"))
        return ScenarioValidation(manifest: manifest!, registry: .bundled)
    }()

    func file(_ text: String) throws -> String {
        let url = TemporaryFiles.url("verdict.yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func aValidFileGetsAnOkLineNamingItsAppRequirementsAndCases() throws {
        let path = try file(miCityScenario)
        let verdict = validation.verdict(file: path)
        #expect(verdict.ok == "ok    \(path) (micity, 1 requirements, 1 case)")
        let sweep = try file(miCityScenario + "sweep:\n  parameters:\n    rate_window: [1m, 15m]\n")
        #expect(validation.verdict(file: sweep).ok?.hasSuffix("(micity, 1 requirements, 2 cases)") == true)
    }

    @Test func anInvalidFileGetsItsProblemsAndNoOkLine() throws {
        let path = try file(miCityScenario.replacingOccurrences(of: "app: micity", with: "app: nosuchapp"))
        let verdict = validation.verdict(file: path)
        #expect(verdict.ok == nil)
        #expect(verdict.problems?.contains(path) == true)
    }
}

/// What `fieldtest datasets list` prints (`DatasetManifest.listing`).
@Suite("Dataset listing")
struct DatasetListingTests {
    @Test func everyDatasetHasARowUnderTheHeader() throws {
        let manifest = try DatasetManifest(root: ScenarioValidationTests.repo.appendingPathComponent("Datasets"))
        let lines = manifest.listing.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("name") == true && lines.first?.hasSuffix("file") == true)
        #expect(lines.count == manifest.entries.count + 3)  // header, rule, rows, final newline
        for entry in manifest.entries { #expect(lines.contains { $0.hasPrefix(entry.name + " ") }) }
    }
}
