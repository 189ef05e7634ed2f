import Foundation
import Testing

/// The layering of docs/architecture.md, checked against what the package declares and what the
/// sources import: an arrow the document forbids fails here, whether it is a dependency in
/// `Package.swift` or an `import` in a source file.
@Suite("Architecture: dependencies point one way")
struct ArchitectureTests {
    static let repo = ScenarioValidationTests.repo

    /// A layer: the first folder under `Sources/` (`fieldtest` is the tool).
    enum Layer: String, CaseIterable {
        case foundations = "Foundations", cores = "Cores", harness = "Harness", capabilities = "Capabilities"
        case apps = "Apps"
        case tool = "fieldtest", benchmarks = "Benchmarks", examples = "Examples"
    }

    /// The rules, in the words of docs/architecture.md's "Allowed arrows" list (the test checks the
    /// document says the same).
    static let rules: [(line: String, allows: @Sendable (Target, Target) -> Bool)] = [
        ("- Foundations → Foundations", { from, to in from.layer != .foundations || to.layer == .foundations }),
        (
            "- Cores → Foundations (no core uses another core)",
            { from, to in from.layer != .cores || to.layer == .foundations }
        ),
        (
            "- Harness → Foundations, Harness",
            { from, to in from.layer != .harness || [.foundations, .harness].contains(to.layer) }
        ),
        (
            "- Capabilities → Foundations, Cores, Harness",
            { from, to in
                from.layer != .capabilities || [.foundations, .cores, .harness, .capabilities].contains(to.layer)
            }
        ),
        (
            "- Apps → Foundations, Cores, Harness, Capabilities",
            { from, to in
                from.layer != .apps || [.foundations, .cores, .harness, .capabilities, .apps].contains(to.layer)
            }
        ),
        ("- Tool, Benchmarks and Examples → everything", { _, _ in true }),
    ]

    struct Target: Sendable {
        var name: String
        var path: String
        var dependencies: [String]
        var layer: Layer
        /// A C target (no Swift sources): a thin door to a system call or library.
        var isCHelper: Bool
    }

    /// The source targets of `Package.swift` with their target dependencies (products of other
    /// packages left out).
    static func targets() throws -> [Target] {
        let text = try String(contentsOf: repo.appendingPathComponent("Package.swift"), encoding: .utf8)
        var found: [Target] = []
        let starts = text.ranges(of: /\.(target|executableTarget|systemLibrary)\(/)
        for (k, start) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1].lowerBound : text.endIndex
            let block = String(text[start.upperBound..<end])
            guard let name = block.firstMatch(of: /name: "([^"]+)"/)?.1,
                let path = block.firstMatch(of: /path: "([^"]+)"/)?.1
            else { continue }
            var dependencies: [String] = []
            if let list = block.firstMatch(of: /dependencies: \[((?:[^\[\]]|\[[^\]]*\])*)\]/)?.1 {
                let withoutProducts = list.replacing(/\.product\([^)]*\)/, with: "")
                dependencies = withoutProducts.matches(of: /"([^"]+)"/).map { String($0.1) }
            }
            let parts = path.split(separator: "/")
            if parts.first == "Tests" { continue }  // test support: checked with the test targets
            guard parts.count >= 2, let layer = Layer(rawValue: String(parts[1])) else {
                Issue.record("target \(name): path \(path) is not under a layer folder of Sources/")
                continue
            }
            let swiftFiles = try swiftSources(in: repo.appendingPathComponent(String(path)))
            found.append(
                Target(
                    name: String(name), path: String(path), dependencies: dependencies, layer: layer,
                    isCHelper: swiftFiles.isEmpty))
        }
        return found
    }

    static func swiftSources(in folder: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    @Test("the document states the rules this test checks")
    func documentStatesTheRules() throws {
        let doc = try String(contentsOf: Self.repo.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        for rule in Self.rules {
            #expect(doc.contains("\n" + rule.line + "\n"), "docs/architecture.md does not say: \(rule.line)")
        }
    }

    @Test("Package.swift declares no dependency the layering forbids")
    func packageDependencies() throws {
        let targets = try Self.targets()
        let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(targets.count >= 15, "read only \(targets.count) targets from Package.swift")
        for from in targets {
            for name in from.dependencies {
                guard let to = byName[name] else { continue }
                for rule in Self.rules where !rule.allows(from, to) {
                    Issue.record("Package.swift: \(from.name) depends on \(to.name), against '\(rule.line)'")
                }
            }
        }
    }

    @Test("no source file imports a module its layer may not use, or one its target does not declare")
    func sourceImports() throws {
        let targets = try Self.targets()
        let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var checked = 0
        for from in targets where !from.isCHelper {
            for file in try Self.swiftSources(in: Self.repo.appendingPathComponent(from.path)) {
                let text = try String(contentsOf: file, encoding: .utf8)
                for match in text.matches(of: /(?m)^(?:@testable |@_exported )?import (?:struct |enum |class )?(\w+)/) {
                    guard let to = byName[String(match.1)], to.name != from.name else { continue }
                    checked += 1
                    let where_ = "\(from.path)/…/\(file.lastPathComponent)"
                    if !from.dependencies.contains(to.name) {
                        Issue.record(
                            "\(where_) imports \(to.name), which \(from.name) does not declare in Package.swift")
                    }
                    for rule in Self.rules where !rule.allows(from, to) {
                        Issue.record("\(where_) imports \(to.name), against '\(rule.line)'")
                    }
                }
            }
        }
        #expect(checked > 100, "found only \(checked) imports of package modules")
    }

    /// The test targets of `Package.swift` and its test-support targets (under `Tests/`): names and
    /// target dependencies (products left out).
    static func testTargets() throws -> [(name: String, dependencies: [String])] {
        let text = try String(contentsOf: repo.appendingPathComponent("Package.swift"), encoding: .utf8)
        let starts = text.ranges(of: /\.(testTarget|target)\(/)
        return starts.enumerated().compactMap { k, start in
            let end = k + 1 < starts.count ? starts[k + 1].lowerBound : text.endIndex
            let block = String(text[start.upperBound..<end])
            guard let name = block.firstMatch(of: /name: "([^"]+)"/)?.1 else { return nil }
            // A `.target` is a test's only when it lives under Tests/ (test support).
            if text[start].hasPrefix(".target"), block.firstMatch(of: /path: "Tests\//) == nil { return nil }
            var dependencies: [String] = []
            if let list = block.firstMatch(of: /dependencies: \[((?:[^\[\]]|\[[^\]]*\])*)\]/)?.1 {
                dependencies = list.replacing(/\.product\([^)]*\)/, with: "").matches(of: /"([^"]+)"/).map {
                    String($0.1)
                }
            }
            return (String(name), dependencies)
        }
    }

    /// The dependencies of the test target `name` that break the rule for the tests of a core or a
    /// foundation: `Tests/<Module>Tests` (and its `<Module>TestSupport`) may use its module, its test
    /// support and what that module's layer may use.
    static func upwardTestDependencies(
        _ name: String, _ dependencies: [String], targets byName: [String: Target]
    ) -> [String] {
        let suffix = ["TestSupport", "Tests"].first { name.hasSuffix($0) } ?? ""
        guard !suffix.isEmpty, let module = byName[String(name.dropLast(suffix.count))],
            [.cores, .foundations].contains(module.layer)
        else { return [] }
        return dependencies.filter { d in
            guard d != module.name, d != module.name + "TestSupport", let to = byName[d] else { return false }
            return !rules.allSatisfy { $0.allows(module, to) }
        }
    }

    @Test("the tests of a core or a foundation depend on it and on the layers below it only")
    func testTargetDependencies() throws {
        let targets = try Self.targets()
        let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let tests = try Self.testTargets()
        #expect(tests.count >= 10, "read only \(tests.count) test targets from Package.swift")
        for test in tests {
            for d in Self.upwardTestDependencies(test.name, test.dependencies, targets: byName) {
                let message =
                    "Package.swift: \(test.name) depends on \(d); the tests of a core use only it and Foundations "
                    + "(move a test of \(d)'s code to \(d)'s tests)"
                Issue.record("\(message)")
            }
        }
        // The check can fail: a core's tests depending on a capability, an app or another core.
        #expect(
            Self.upwardTestDependencies(
                "CampusRoutingTests", ["CampusRouting", "FieldtestData", "Capabilities", "TweetSentiment"],
                targets: byName) == ["Capabilities", "TweetSentiment"])
    }

    /// What a core's source may not do: read or write files, touch the standard streams, or write
    /// CSV (the capabilities, the apps and Foundations do; a core takes values and returns values).
    static let coreDenyList = [
        "FileManager", "FileHandle", "fopen(", "Data(contentsOf:", "String(contentsOf", "print(", "readLine(",
        "stdout", "stderr", "stdin", "fputs(", "FileDescriptor", "readFileBytes(", "MappedFile(", "AtomicFile.",
        "CSVWriter", ".write(to:", "URL(fileURLWithPath",
    ]

    /// The deny-listed words `text` uses outside comments, with their line numbers.
    static func deniedUses(in text: String) -> [(line: Int, word: String)] {
        var found: [(Int, String)] = []
        for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = line.trimmingPrefix(while: \.isWhitespace)
            guard !code.hasPrefix("//") else { continue }
            for word in coreDenyList where code.contains(word) { found.append((k + 1, word)) }
        }
        return found
    }

    @Test("no core reads or writes files, uses the standard streams or writes CSV")
    func coresArePure() throws {
        let cores = try Self.targets().filter { $0.layer == .cores && !$0.isCHelper }
        #expect(cores.count >= 5, "found only \(cores.count) cores")
        for core in cores {
            for file in try Self.swiftSources(in: Self.repo.appendingPathComponent(core.path)) {
                let text = try String(contentsOf: file, encoding: .utf8)
                for use in Self.deniedUses(in: text) {
                    let message =
                        "\(core.path)/…/\(file.lastPathComponent):\(use.line) uses \(use.word); a core takes and "
                        + "returns values (move the I/O to its capability, its app or Foundations)"
                    Issue.record("\(message)")
                }
            }
        }
        // The scan can fail: it sees a file read and a print, and not a comment about them.
        let sample = "/// Data(contentsOf:) is the caller's\nlet d = try Data(contentsOf: url)\nprint(d)\n"
        #expect(Self.deniedUses(in: sample).map(\.line) == [2, 3])
    }

    @Test("the command-line tool is a thin shell over the library: at most 800 lines")
    func toolIsThin() throws {
        let files = try Self.swiftSources(in: Self.repo.appendingPathComponent("Sources/fieldtest"))
        #expect(files.count >= 3, "found only \(files.count) sources of the tool")
        // As wc -l counts: newline characters.
        let lines = try files.map { try Data(contentsOf: $0).count { $0 == UInt8(ascii: "\n") } }.reduce(0, +)
        #expect(lines <= 800, "Sources/fieldtest holds \(lines) lines; move work and help texts into the library jobs")
    }

    @Test("the rules catch an upward arrow")
    func rulesCatchUpwardArrows() {
        let core = Target(name: "X", path: "Sources/Cores/X", dependencies: [], layer: .cores, isCHelper: false)
        let engine = Target(
            name: "ScenarioEngine", path: "Sources/Harness/ScenarioEngine", dependencies: [], layer: .harness,
            isCHelper: false)
        let apps = Target(name: "FieldtestApps", path: "Sources/Apps", dependencies: [], layer: .apps, isCHelper: false)
        let capabilities = Target(
            name: "Capabilities", path: "Sources/Capabilities", dependencies: [], layer: .capabilities,
            isCHelper: false)
        #expect(Self.rules.contains { !$0.allows(engine, apps) })
        #expect(Self.rules.contains { !$0.allows(core, engine) })
        #expect(Self.rules.contains { !$0.allows(engine, core) })
        #expect(Self.rules.contains { !$0.allows(engine, capabilities) })
        #expect(Self.rules.contains { !$0.allows(core, capabilities) })
        #expect(Self.rules.contains { !$0.allows(capabilities, apps) })
        #expect(Self.rules.allSatisfy { $0.allows(apps, core) })
        #expect(Self.rules.allSatisfy { $0.allows(apps, capabilities) })
        #expect(Self.rules.allSatisfy { $0.allows(capabilities, core) })
        #expect(Self.rules.allSatisfy { $0.allows(capabilities, engine) })
    }
}
