import Foundation

/// Refuses an output path that names one of a command's input files, before anything is
/// read or written: the atomic write would replace the input with the output.
public enum OutputPathCheck {
    /// A file a command reads or writes, and the option that named it (e.g. `--input`, `--junit`, or
    /// `--out` for a report file inside the `--out` folder; empty for a positional argument).
    public struct NamedFile: Sendable {
        /// The option that named the file (a file inside a chosen folder names the folder's option).
        public var option: String
        /// The file.
        public var url: URL

        /// A file named by `option`.
        public init(option: String, url: URL) {
            self.option = option
            self.url = url
        }
    }

    /// An input file and the option that named it.
    public typealias Input = NamedFile
    /// A file a command is about to write, and the option that chose it.
    public typealias Output = NamedFile

    /// The output names an input file.
    public struct OverwritesInput: Error, Sendable, Equatable, CustomStringConvertible {
        /// The output option (e.g. `--output`) and its value.
        public var outputOption: String, output: String
        /// How the input was named (`--input FILE`, or the path alone).
        public var input: String

        public var description: String {
            "error: \(outputOption) \(output) is the input file \(input); writing it would destroy the input; choose another output path"
        }
    }

    /// Reads the input file `path` (`-`: standard input) that `option` names, after refusing an
    /// `output` that names the same file; returns the name messages use and the file's bytes.
    /// - Throws: `OverwritesInput`, or the `DataError` of a file that cannot be read.
    public static func readInput(_ path: String, option: String, output: String?) throws -> (
        name: String, bytes: [UInt8]
    ) {
        let name = OutputText.inputPath(path)
        try refuseOverwritingInputs([Input(option: option, url: URL(fileURLWithPath: name))], output: output)
        return (name, try readFileBytes(URL(fileURLWithPath: name), displayName: name))
    }

    /// Labelled tweet files named by `option`, with the TweetEval labels file read beside each `*_text*` file.
    public static func tweetInputs(_ paths: [String], option: String = "--input") -> [Input] {
        paths.flatMap { path -> [Input] in
            let url = URL(fileURLWithPath: path)
            return [Input(option: option, url: url)]
                + (TweetEvalLoader.labelsURL(forText: url).map { [Input(option: option, url: $0)] } ?? [])
        }
    }

    /// Two outputs of one command name the same file: the second would replace the first.
    public struct OutputsCollide: Error, Sendable, Equatable, CustomStringConvertible {
        /// The two outputs, each as `option path`.
        public var first: String, second: String

        public var description: String {
            "error: \(second) is the same file as \(first); one output would replace the other; choose another path"
        }
    }

    /// Throws `OverwritesInput` when `output` (the value of `outputOption`) resolves to the same
    /// file as one of `inputs`, `UnusableOutput` when it is standard input, a FIFO, a socket or a
    /// block device; does nothing when `output` is nil or a stream (`-`, `/dev/stdout`, …).
    public static func refuseOverwritingInputs(_ inputs: [Input], output: String?, outputOption: String = "--output")
        throws
    {
        guard let output else { return }
        let written = Output(option: outputOption, url: URL(fileURLWithPath: output))
        try refuseUnusable(written)
        guard StreamPath.descriptor(output) == nil else { return }
        if var found = overwrite(outputs: [written], inputs: inputs) {
            found.output = output
            throw found
        }
    }

    /// An output that cannot be written as asked: standard input, or a FIFO, socket or block
    /// device named by path (opening a FIFO for writing blocks until someone reads it).
    public struct UnusableOutput: Error, Sendable, Equatable, CustomStringConvertible {
        /// The output option and its value.
        public var option: String, output: String
        /// Why.
        public var reason: String

        public var description: String { "error: \(option) \(output): \(reason)" }
    }

    /// Throws `UnusableOutput` for standard input as an output, or a FIFO, socket or block device;
    /// a character device (`/dev/null`, a terminal) and the streams (`-`, `/dev/stdout`) are fine.
    static func refuseUnusable(_ output: Output) throws(UnusableOutput) {
        let path = shown(output.url)
        if let fd = StreamPath.descriptor(path) {
            guard fd == STDIN_FILENO else { return }
            throw UnusableOutput(
                option: output.option, output: path,
                reason: "this is standard input, which cannot be an output; give a file, or - for standard output")
        }
        if let kind = SpecialFile.kind(output.url.path), kind != "a character device" {
            throw UnusableOutput(
                option: output.option, output: path,
                reason: "it is \(kind); an output must be a regular file, /dev/null, or - for standard output")
        }
    }

    /// The path as given (`-` stays `-`).
    static func shown(_ url: URL) -> String { url.relativePath }

    /// The one check every command applies to every file it writes, before it reads or writes
    /// anything: throws `OverwritesInput` when an output resolves to one of `inputs` (a symbolic
    /// link, a hard link, `..` or a symbolic link in a parent folder included), or
    /// `OutputsCollide` when two outputs resolve to one file. Standard output (`-`) is never a file.
    public static func refuse(outputs: [Output], inputs: [Input]) throws {
        for output in outputs { try refuseUnusable(output) }
        if let found = overwrite(outputs: outputs, inputs: inputs) { throw found }
        // Two outputs to one stream would mix their bytes.
        var streams: [Int32: Output] = [:]
        for output in outputs {
            guard let fd = StreamPath.descriptor(shown(output.url)) else { continue }
            if let first = streams[fd] {
                throw OutputsCollide(
                    first: "\(first.option) \(shown(first.url))", second: "\(output.option) \(shown(output.url))")
            }
            streams[fd] = output
        }
        let files = outputs.filter { StreamPath.descriptor(shown($0.url)) == nil }
        let writeIdentities = files.map { FileIdentity($0.url) }
        for i in files.indices {
            for j in files.indices where j > i && writeIdentities[i].matches(writeIdentities[j]) {
                throw OutputsCollide(
                    first: "\(files[i].option) \(files[i].url.relativePath)",
                    second: "\(files[j].option) \(files[j].url.relativePath)")
            }
        }
    }

    /// The first output that resolves to one of `inputs`, as the error to throw; standard output is never a file.
    static func overwrite(outputs: [Output], inputs: [Input]) -> OverwritesInput? {
        // Each file's identity once (a run compares dozens of outputs with every dataset file).
        let readIdentities = inputs.map(FileIdentity.init)
        for output in outputs where StreamPath.descriptor(shown(output.url)) == nil {
            let written = FileIdentity(output.url)
            for (input, read) in zip(inputs, readIdentities) where written.matches(read) {
                return OverwritesInput(
                    outputOption: output.option, output: output.url.relativePath, input: named(input))
            }
        }
        return nil
    }

    /// What `sameFile` compares: the canonical path and, for an existing file, its device and inode.
    struct FileIdentity {
        var path: String
        var device: UInt64?, inode: UInt64?

        init(_ input: Input) { self.init(input.url) }

        init(_ url: URL) {
            path = OutputPathCheck.canonicalPath(url.path)
            var info = stat()
            if stat(url.path, &info) == 0 { (device, inode) = (UInt64(info.st_dev), UInt64(info.st_ino)) }
        }

        func matches(_ other: FileIdentity) -> Bool {
            path == other.path || (device != nil && device == other.device && inode == other.inode)
        }
    }

    /// How an input is named in a message: `--input FILE`, or the path alone.
    static func named(_ input: Input) -> String {
        input.option.isEmpty ? input.url.relativePath : "\(input.option) \(input.url.relativePath)"
    }

    /// Whether `a` and `b` name the same file: equal canonical paths (every symbolic link followed,
    /// in the file itself and in its folders, also for a file not created yet), or, both existing,
    /// the same device and inode, which also catches hard links.
    public static func sameFile(_ a: URL, _ b: URL) -> Bool {
        FileIdentity(a).matches(FileIdentity(b))
    }

    /// `path` made absolute with every symbolic link followed: `realpath` of its deepest existing
    /// ancestor, then the components that do not exist yet (a dangling link is followed to its target).
    public static func canonicalPath(_ path: String) -> String {
        var absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        for _ in 0..<32 {
            // A dangling symbolic link: the file it names is the one that would be written.
            guard let target = danglingLinkTarget(absolute) else { break }
            absolute =
                URL(fileURLWithPath: target, relativeTo: URL(fileURLWithPath: absolute).deletingLastPathComponent())
                .standardizedFileURL.path
        }
        var head = absolute
        var tail: [String] = []
        while !head.isEmpty && head != "/" {
            if let resolved = realpath(head, nil) {
                defer { free(resolved) }
                return ([String(cString: resolved)] + tail.reversed()).joined(separator: "/")
            }
            tail.append((head as NSString).lastPathComponent)
            head = (head as NSString).deletingLastPathComponent
        }
        return absolute
    }

    /// The target of `path` when it is a symbolic link to nothing, else nil.
    private static func danglingLinkTarget(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, stat(path, &info) != 0 else { return nil }
        return try? FileManager.default.destinationOfSymbolicLink(atPath: path)
    }
}
