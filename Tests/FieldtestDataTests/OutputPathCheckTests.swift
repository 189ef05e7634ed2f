import Foundation
import Testing

@testable import FieldtestData

/// Output paths that would destroy an input, the datasets folder lookup, and text output.
@Suite("Output paths and datasets folder")
struct OutputPathCheckTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("outputs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    @Test func anOutputNamingAnInputThroughALinkIsRefused() throws {
        let input = folder.appendingPathComponent("in.csv")
        let link = folder.appendingPathComponent("link.csv")
        try "a\n".write(to: input, atomically: true, encoding: .utf8)
        try FileManager.default.linkItem(at: input, to: link)
        #expect(OutputPathCheck.sameFile(input, link))
        #expect(!OutputPathCheck.sameFile(input, folder.appendingPathComponent("other.csv")))
        let error = try #require(throws: OutputPathCheck.OverwritesInput.self) {
            try OutputPathCheck.refuseOverwritingInputs([.init(option: "--input", url: input)], output: link.path)
        }
        #expect(error.description.hasPrefix("error: --output \(link.path) is the input file --input "))
        try OutputPathCheck.refuseOverwritingInputs([.init(option: "--input", url: input)], output: nil)
        try OutputPathCheck.refuseOverwritingInputs(
            [.init(option: "--input", url: input)], output: folder.appendingPathComponent("new.csv").path)
    }

    @Test func tweetEvalTextFilesBringTheirLabels() {
        let inputs = OutputPathCheck.tweetInputs(["d/val_text.txt", "d/other.csv"])
        #expect(inputs.map(\.url.lastPathComponent) == ["val_text.txt", "val_labels.txt", "other.csv"])
    }

    @Test func aFolderWithoutAManifestIsNotFoundOnlyWhenLookedUpByDefault() throws {
        let root = folder.appendingPathComponent("given")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // Given explicitly, the manifest's own error says what is missing.
        #expect(throws: DataError.self) { try DatasetsLocation.manifest(option: root.path) }
        let notFound = DatasetsLocation.NotFound(folder: root)
        #expect(
            notFound.description.hasPrefix(
                "\(root.path)/MANIFEST.csv: error: no datasets folder here; pass --datasets DIR"))
    }

    @Test func textGoesToAFileAtomically() throws {
        let file = folder.appendingPathComponent("out.txt")
        try OutputText.write("hello\n", to: file.path)
        #expect(try String(contentsOf: file, encoding: .utf8) == "hello\n")
    }
}
