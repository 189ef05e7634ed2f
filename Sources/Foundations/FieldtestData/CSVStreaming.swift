import Foundation

/// Where a streaming command's output goes: a file written atomically (`AtomicFile.Writer`: the
/// target changes only when the whole output is written), or standard output, written as it comes.
public final class OutputSink {
    private let writer: AtomicFile.Writer?

    /// An output to `path`; nil or `-` is standard output (after whatever `print` buffered).
    /// - Throws: `DataError.unwritable` when the file cannot be started, `OutputText.StandardOutputError`.
    public init(path: String?) throws {
        if let path, path != OutputText.standardStreamName {
            writer = try AtomicFile.Writer(url: URL(fileURLWithPath: path))
        } else {
            writer = nil
            try OutputText.flushStandardOutput()
        }
    }

    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws {
        if let writer { return try writer.append(bytes) }
        if let reason = bytes.withUnsafeBytes({ AtomicFile.writeAll($0, to: STDOUT_FILENO) }) {
            throw OutputText.StandardOutputError(reason: reason)
        }
    }

    /// Ends the output (the file replaces its target).
    public func finish() throws {
        try writer?.commit()
    }
}

/// The streaming batch commands' loop (`sun`, `route`, `locate`, `classify`): the input CSV read a run
/// of records at a time (`CSVChunkReader`), each run turned into output rows, written as they come.
/// Memory stays bounded by the run size whatever the input's; the output is the same, byte for byte,
/// as from the whole table at once when each row's output depends on that row alone.
public enum CSVStreaming {
    /// Refuses an `output` naming the input, then writes `header` and the rows `body` renders for each
    /// run of `path` (`-`: standard input) to `output` (`OutputSink`). A bad row throws its located
    /// error and leaves an output file as it was.
    /// - Throws: `OutputPathCheck.OverwritesInput`, `DataError`, and what `body` throws.
    public static func transform(
        input path: String, option: String, output: String?, header: [String],
        chunkBytes: Int = CSVChunkReader.defaultChunkBytes, _ body: (CSVTable) throws -> CSVWriter
    ) throws {
        let name = OutputText.inputPath(path)
        try OutputPathCheck.refuseOverwritingInputs(
            [OutputPathCheck.Input(option: option, url: URL(fileURLWithPath: name))], output: output)
        try transform(file: name, output: output, header: header, chunkBytes: chunkBytes, body)
    }

    /// `transform(input:…)` without the overwrite check (the caller made it, with all its inputs).
    public static func transform(
        file name: String, output: String?, header: [String], chunkBytes: Int = CSVChunkReader.defaultChunkBytes,
        _ body: (CSVTable) throws -> CSVWriter
    ) throws {
        try transform(file: name, output: output, header: header, chunkBytes: chunkBytes, parts: { [try body($0)] })
    }

    /// `transform(file:…)` with each run's rows rendered in parts (e.g. one per thread), written in
    /// order without first being copied into one buffer.
    public static func transform(
        file name: String, output: String?, header: [String], chunkBytes: Int = CSVChunkReader.defaultChunkBytes,
        parts body: (CSVTable) throws -> [CSVWriter]
    ) throws {
        var sink: OutputSink?
        try CSVChunkReader(fileName: name, chunkBytes: chunkBytes).forEachTable(path: name) { table in
            let parts = try body(table)
            if sink == nil {
                // Started once the first run is good: a file refused at its header leaves no output.
                sink = try OutputSink(path: output)
                var w = CSVWriter()
                w.row(header)
                try sink?.write(w.bytes)
            }
            for rows in parts { try sink?.write(rows.bytes) }
        }
        try sink?.finish()
    }

    /// `transform(file:…parts:)` with each run's parts handed to `emit` as they are rendered, in
    /// order, and written at once (e.g. while other threads render the next ones). `emit` may be
    /// called from any thread, one call at a time; `body` returns once every part is emitted.
    public static func transform(
        file name: String, output: String?, header: [String], chunkBytes: Int = CSVChunkReader.defaultChunkBytes,
        emitting body: (CSVTable, _ emit: @Sendable (CSVWriter) throws -> Void) throws -> Void
    ) throws {
        // One call at a time (the caller's promise), so the sink needs no lock of its own.
        nonisolated(unsafe) var sink: OutputSink?
        var sawTable = false
        try CSVChunkReader(fileName: name, chunkBytes: chunkBytes).forEachTable(path: name) { table in
            sawTable = true
            try body(table) { rows in
                if sink == nil {
                    // Started with the first rows: a file refused at its header leaves no output.
                    sink = try OutputSink(path: output)
                    var w = CSVWriter()
                    w.row(header)
                    try sink?.write(w.bytes)
                }
                try sink?.write(rows.bytes)
            }
        }
        if sink == nil && sawTable {
            // No rows at all: the header alone, as `transform(file:…parts:)` writes it.
            sink = try OutputSink(path: output)
            var w = CSVWriter()
            w.row(header)
            try sink?.write(w.bytes)
        }
        try sink?.finish()
    }
}
