import CampusRouting
import Foundation
import Testing

@Suite("Routing contract: docs/system-protocol.md states what each built-in profile may use")
struct RoutingContractDocTests {
    static let doc = RoutingFixtures.here.appendingPathComponent("../../docs/system-protocol.md").standardizedFileURL

    /// The doc with its generated section replaced by `section`, or nil when the markers are missing.
    static func regenerated(_ doc: String, section: String) -> String? {
        guard let begin = doc.range(of: RoutingProfiles.contractBeginMarker + "\n"),
            let end = doc.range(of: RoutingProfiles.contractEndMarker, range: begin.upperBound..<doc.endIndex)
        else { return nil }
        return doc.replacingCharacters(in: begin.upperBound..<end.lowerBound, with: section)
    }

    /// The section between the markers is `RoutingProfiles.builtIn.contractMarkdown()`. To regenerate it
    /// after changing `RoutingProfiles.defaultYAML`, run this test with FIELDTEST_REGENERATE_DOCS=1.
    @Test func profileContractSectionOfTheProtocolDocIsGenerated() throws {
        let text = try String(contentsOf: Self.doc, encoding: .utf8)
        let rendered = RoutingProfiles.builtIn.contractMarkdown()
        let expected = try #require(
            Self.regenerated(text, section: rendered),
            "docs/system-protocol.md lacks the lines \(RoutingProfiles.contractBeginMarker) … \(RoutingProfiles.contractEndMarker)"
        )
        if expected != text, ProcessInfo.processInfo.environment["FIELDTEST_REGENERATE_DOCS"] == "1" {
            try expected.write(to: Self.doc, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            expected == text,
            """
            docs/system-protocol.md's section "What each built-in profile may use" differs from \
            RoutingProfiles.builtIn.contractMarkdown(): regenerate it with \
            FIELDTEST_REGENERATE_DOCS=1 swift test --filter profileContractSectionOfTheProtocolDocIsGenerated; \
            expected between the markers:
            \(rendered)
            """)
    }

    /// The rendering names each profile's rules as the YAML states them (wheelchair's steps, kerbs and
    /// barriers; walk's denied access; cane's incline), so a rule dropped from it would show.
    @Test func contractRenderingNamesEachBuiltInRule() {
        let md = RoutingProfiles.builtIn.contractMarkdown()
        for p in RoutingProfiles.builtIn.profiles { #expect(md.contains("### `\(p.name)`")) }
        #expect(md.contains("- excluded ways: `highway` = `steps`; `wheelchair` = `no`"))
        #expect(md.contains("`barrier` = `kissing_gate`, `stile`, `turnstile`; `kerb` = `raised`"))
        #expect(md.contains("a way with `access` = `no`, `private` is excluded unless `foot` = `designated`"))
        #expect(md.contains("steeper than 14 %"))
        #expect(md.contains("- speed: 1.4 m/s"))
        #expect(md.contains("ways without `wheelchair` are excluded"))
    }
}
