import Foundation
import Testing

/// Every Swift block of the DocC articles is a `snippet.<name>` slice of an example in
/// `Sources/Examples` (which the package builds and `ExamplesCLITests` runs), so the code a reader
/// copies compiles and does what the article says.
@Suite("DocC articles' code")
struct DocArticlesTests {
    static let repo = FieldtestCLITests.repo

    /// The slices of the examples: the lines between `// snippet.NAME` and the next `// snippet.` line,
    /// dedented by the example's body indentation.
    static func slices() throws -> [String] {
        let folder = repo.appendingPathComponent("Sources/Examples")
        var out: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            var current: [Substring]?
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("// snippet.") {
                    if let current { out.append(dedent(current)) }
                    current = trimmed == "// snippet.end" ? nil : []
                } else {
                    current?.append(line)
                }
            }
        }
        return out
    }

    static func dedent(_ lines: [Substring]) -> String {
        let indent = lines.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map { $0.allSatisfy(\.isWhitespace) ? "" : String($0.dropFirst(indent)) }.joined(separator: "\n")
            .trimmingCharacters(in: .newlines)
    }

    /// The ```swift blocks of every article in a DocC catalog under Sources/.
    static func articleBlocks() throws -> [(file: String, code: String)] {
        var out: [(String, String)] = []
        let sources = repo.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        for path in files where path.hasSuffix(".md") && path.contains(".docc/") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for block in text.components(separatedBy: "```swift\n").dropFirst() {
                guard let end = block.range(of: "\n```") else { continue }
                out.append((path, String(block[..<end.lowerBound])))
            }
        }
        return out
    }

    @Test func everySwiftBlockIsASliceOfABuiltExample() throws {
        let slices = Set(try Self.slices())
        let blocks = try Self.articleBlocks()
        #expect(blocks.count >= 10, "the articles lost their code")
        for block in blocks {
            #expect(
                slices.contains(block.code), "\(block.file): a Swift block that is no example's slice:\n\(block.code)")
        }
    }

    @Test func aChangedBlockIsCaught() throws {
        let block = try #require(try Self.articleBlocks().first)
        #expect(!Set(try Self.slices()).contains(block.code + "\nprint(1)"))
    }
}
