import FieldtestTestSupport
import Foundation
import Testing

@testable import FieldtestData

/// Output paths that would destroy an input, the datasets folder lookup, and text output.
@Suite("Output paths and datasets folder")
struct OutputPathCheckTests {
    let folder: URL

    init() throws {
        folder = TemporaryFiles.url("outputs")
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

    /// A symbolic link in a parent folder, a dangling link whose target is an input, and two
    /// outputs of one file are caught; standard output (`-`) is no file, but one stream.
    @Test func linksInFoldersDanglingLinksAndCollidingOutputs() throws {
        let data = folder.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let input = data.appendingPathComponent("in.csv")
        try "a\n".write(to: input, atomically: true, encoding: .utf8)
        let alias = folder.appendingPathComponent("alias")
        try FileManager.default.createSymbolicLink(atPath: alias.path, withDestinationPath: data.path)
        let inputs = [OutputPathCheck.Input(option: "--input", url: input)]
        #expect(throws: OutputPathCheck.OverwritesInput.self) {
            try OutputPathCheck.refuse(
                outputs: [.init(option: "--junit", url: alias.appendingPathComponent("in.csv"))], inputs: inputs)
        }
        // A link to a file that does not exist yet, in a folder that is itself a link: the target would be written.
        let dangling = folder.appendingPathComponent("dangling")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "alias/new.csv")
        let later = [OutputPathCheck.Input(option: "--input", url: data.appendingPathComponent("new.csv"))]
        #expect(OutputPathCheck.canonicalPath(dangling.path) == OutputPathCheck.canonicalPath(later[0].url.path))
        #expect(throws: OutputPathCheck.OverwritesInput.self) {
            try OutputPathCheck.refuse(outputs: [.init(option: "--output", url: dangling)], inputs: later)
        }
        let collide = try #require(throws: OutputPathCheck.OutputsCollide.self) {
            try OutputPathCheck.refuse(
                outputs: [
                    .init(option: "--junit", url: folder.appendingPathComponent("o.xml")),
                    .init(option: "--output", url: alias.appendingPathComponent("../o.xml")),
                ], inputs: inputs)
        }
        #expect(collide.description.contains("is the same file as --junit"))
        // Standard output is no file, so no input; but two outputs into it would mix their bytes.
        try OutputPathCheck.refuse(outputs: [.init(option: "--output", url: URL(fileURLWithPath: "-"))], inputs: inputs)
        #expect(throws: OutputPathCheck.OutputsCollide.self) {
            try OutputPathCheck.refuse(
                outputs: [
                    .init(option: "--output", url: URL(fileURLWithPath: "-")),
                    .init(option: "--junit", url: URL(fileURLWithPath: "-")),
                ],
                inputs: inputs)
        }
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
