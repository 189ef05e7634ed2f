import Foundation

/// Every file one command reads and every file it writes, declared in one place per command and
/// checked before anything is read or written (`check()`): an output that is, resolves to, or is a
/// hard link of any input is refused (`OutputPathCheck`), as are two outputs that are one file or
/// one stream, standard input as an output, and a FIFO, socket or block device as an output.
///
/// Build it with the adders below, which know what each kind of input brings along: a datasets
/// folder its manifest and every file the manifest names, a metrics file the run files beside it,
/// a system command the files its words name.
public struct CommandFiles: Sendable {
    /// The files read.
    public var inputs: [OutputPathCheck.Input] = []
    /// The files written.
    public var outputs: [OutputPathCheck.Output] = []

    /// An empty declaration (a command that writes nothing declares no outputs).
    public init() {}

    /// Adds the input `path` named by `option` (nil and `-`, standard input, add nothing).
    public mutating func input(_ path: String?, option: String = "") {
        guard let path, path != OutputText.standardStreamName else { return }
        inputs.append(.init(option: option, url: URL(fileURLWithPath: path)))
    }

    /// Adds each of `paths` as an input named by `option`.
    public mutating func inputs(_ paths: [String], option: String = "") {
        for path in paths { input(path, option: option) }
    }

    /// Adds the output `path` chosen by `option` (nil adds nothing; `-` is standard output).
    public mutating func output(_ path: String?, option: String) {
        guard let path else { return }
        outputs.append(.init(option: option, url: URL(fileURLWithPath: path)))
    }

    /// Adds every datasets folder of `manifest` (the bundled one, `--datasets` and
    /// `$FIELDTEST_DATASETS` folders): each folder's `MANIFEST.csv`, every file a manifest names
    /// (wherever it lies), and every file inside the folders (lexicons and models are read by path).
    public mutating func datasets(_ manifest: DatasetManifest, option: String = "") {
        var folders = manifest.folders
        if !folders.contains(manifest.root) { folders.append(manifest.root) }
        for folder in folders {
            inputs.append(.init(option: option, url: folder.appendingPathComponent("MANIFEST.csv")))
            guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let url as URL in walk { inputs.append(.init(option: option, url: url)) }
        }
        inputs += (manifest.entries + manifest.shadowed).map { .init(option: option, url: manifest.url(of: $0)) }
    }

    /// Adds the datasets folder at `root` (`DatasetsLocation.current`) when it holds a manifest, else
    /// every file inside it.
    public mutating func datasets(folder root: URL, option: String = "") {
        if let manifest = try? DatasetManifest(root: root) {
            datasets(manifest, option: option)
        } else if let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) {
            for case let url as URL in walk { inputs.append(.init(option: option, url: url)) }
        }
    }

    /// Adds the files a system command reads: every word of `command` (and the value of a
    /// `--flag=value` word) that names an existing file, relative to `workingDirectory` (default:
    /// the current folder), and the program itself when it is given by path. The script of
    /// `python3 my.py` is an input like any other.
    public mutating func systemCommand(_ command: [String], option: String, workingDirectory: String? = nil) {
        let base = URL(fileURLWithPath: workingDirectory ?? FileManager.default.currentDirectoryPath)
        var words: [String] = []
        for word in command where !word.isEmpty {
            words.append(word)
            if let eq = word.firstIndex(of: "="), word.hasPrefix("-") {
                words.append(String(word[word.index(after: eq)...]))
            }
        }
        var isDirectory: ObjCBool = false
        for word in words {
            let url = URL(fileURLWithPath: word, relativeTo: base)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                inputs.append(.init(option: option, url: url))
            }
        }
    }

    /// Adds the files of `names` in the folder of each of `metricsFiles` (the run files read beside
    /// a `metrics.csv`: its `run.json` and traces), and every file inside a folder given instead.
    public mutating func runFiles(_ paths: [String], beside names: [String], option: String = "") {
        for path in paths where path != OutputText.standardStreamName {
            let url = URL(fileURLWithPath: path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                input(path, option: option)
                continue
            }
            if isDirectory.boolValue {
                input(path, option: option)
                if let walk = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) {
                    for case let inner as URL in walk { inputs.append(.init(option: option, url: inner)) }
                }
            } else {
                input(path, option: option)
                let folder = url.deletingLastPathComponent()
                inputs += names.map { .init(option: option, url: folder.appendingPathComponent($0)) }
            }
        }
    }

    /// Refuses (throws, before anything is read or written) an output that is one of the inputs,
    /// two outputs that are one file or one stream, and outputs that cannot be written as asked.
    /// - Throws: `OutputPathCheck.OverwritesInput`, `.OutputsCollide`, `.UnusableOutput`.
    public func check() throws {
        try OutputPathCheck.refuse(outputs: outputs, inputs: inputs)
    }
}

extension CommandFiles {
    /// Adds the datasets overlay of `options` (`--datasets`, `$FIELDTEST_DATASETS`, the bundled folder).
    public mutating func datasets(options: [String]) {
        if let manifest = try? DatasetsLocation.manifest(options: options) { datasets(manifest) }
    }

    /// Adds the datasets folder `option` names (else the current one).
    public mutating func datasets(option: String?) {
        if let manifest = try? DatasetsLocation.manifest(option: option) {
            datasets(manifest)
        } else {
            datasets(folder: DatasetsLocation.current(option: option))
        }
    }
}
