import Foundation

/// Refuses an output path that names one of a command's input files, before anything is
/// read or written: the atomic write would replace the input with the output.
public enum OutputPathCheck {
    /// An input file and the option that named it (e.g. `--input`; empty for a positional argument).
    public struct Input: Sendable {
        /// The option that named the file.
        public var option: String
        /// The file.
        public var url: URL

        /// An input named by `option`.
        public init(option: String, url: URL) {
            self.option = option
            self.url = url
        }
    }

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

    /// Labelled tweet files named by `option`, with the TweetEval labels file read beside each `*_text*` file.
    public static func tweetInputs(_ paths: [String], option: String = "--input") -> [Input] {
        paths.flatMap { path -> [Input] in
            let url = URL(fileURLWithPath: path)
            return [Input(option: option, url: url)]
                + (TweetEvalLoader.labelsURL(forText: url).map { [Input(option: option, url: $0)] } ?? [])
        }
    }

    /// Throws `OverwritesInput` when `output` (the value of `outputOption`) resolves to the same
    /// file as one of `inputs`; does nothing when `output` is nil (standard output).
    public static func refuseOverwritingInputs(_ inputs: [Input], output: String?, outputOption: String = "--output")
        throws(OverwritesInput)
    {
        guard let output else { return }
        let target = URL(fileURLWithPath: output)
        for input in inputs where sameFile(input.url, target) {
            let named = input.option.isEmpty ? input.url.relativePath : "\(input.option) \(input.url.relativePath)"
            throw OverwritesInput(outputOption: outputOption, output: output, input: named)
        }
    }

    /// Whether `a` and `b` name the same file: equal paths once standardized and with symbolic
    /// links resolved, or (both existing) the same device and inode, which also catches hard links.
    public static func sameFile(_ a: URL, _ b: URL) -> Bool {
        let ra = a.standardizedFileURL.resolvingSymlinksInPath()
        let rb = b.standardizedFileURL.resolvingSymlinksInPath()
        if ra.path == rb.path { return true }
        var sa = stat()
        var sb = stat()
        guard stat(ra.path, &sa) == 0, stat(rb.path, &sb) == 0 else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }
}
