import Foundation
import Synchronization

/// Reads a comma-separated file with a header in bounded memory: a run of whole records at a
/// time, each handed over as a `CSVTable` whose rows carry the lines they have in the file.
///
/// The file is read in blocks; a run ends after the last record end found outside a quoted field
/// once about `chunkBytes` are held (the scanner follows the rules of `CSVReader`: a quote opens a
/// quoted field only at a field's start, `""` inside one is a quote, LF, CRLF and a lone CR end a
/// record). A record longer than `chunkBytes` makes its run longer, up to `limit`, past which (as
/// for the whole input) a located `DataError` says so. Errors inside a run are those `CSVTable`
/// reports for the whole file, at the same lines. Runs are read ahead on a thread of their own, at most
/// `RunQueue.depth` of them beyond the one being handled. Memory: O(chunkBytes + the longest record) per run.
public struct CSVChunkReader: Sendable {
    /// Bytes of input per run by default: 2 MiB (a few tens of MB of parsed rows at most).
    public static let defaultChunkBytes = 2 << 20

    /// File name used in messages.
    public var fileName: String
    /// Bytes of input per run (at least one record).
    public var chunkBytes: Int
    /// The most bytes read in all (`InputLimits.dataBytes` unless given).
    public var limit: Int

    /// A reader of `fileName`'s bytes.
    public init(fileName: String, chunkBytes: Int = defaultChunkBytes, limit: Int = InputLimits.dataBytes) {
        self.fileName = fileName
        self.chunkBytes = max(1, chunkBytes)
        self.limit = limit
    }

    /// One run of whole records of the file.
    public struct Run: Sendable {
        /// The run's bytes. The first run holds the header record alone (and any blank lines before it).
        public var bytes: [UInt8]
        /// The file's line number of the run's first byte.
        public var firstLine: Int
        /// Whether this is the first run (the header).
        public var isHeader: Bool { firstLine == 1 }
    }

    /// Calls `body` with each run of the file at `path` in order: the first run's table is the header
    /// alone (no records; `CSVTable`'s `empty` error is thrown for a file without a header), the
    /// others hold the data rows and share it.
    /// - Throws: `DataError` (unreadable, too large, malformed), and what `body` throws.
    public func forEachTable(path: String, _ body: (CSVTable) throws -> Void) throws {
        var header: CSVHeader?
        try forEachRun(path: path) { run in
            if let header {
                try body(try CSVTable(header: header, bytes: run.bytes, file: fileName, firstLine: run.firstLine))
            } else {
                let table = try CSVTable(bytes: run.bytes, file: fileName)
                header = table.header
                try body(table)
            }
        }
    }

    /// Calls `body` with each run of the file's bytes in order (see `Run`); at least one run, the
    /// header's, is passed even for an empty file.
    /// - Throws: `DataError` (unreadable, too large), and what `body` throws.
    public func forEachRun(path: String, _ body: (Run) throws -> Void) throws {
        if fileIsDirectory(URL(fileURLWithPath: path)) {
            throw DataError.unreadable(file: fileName, reason: "it is a directory; give the path of a file")
        }
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) > limit {
            throw InputLimits.exceeded(fileName, bytes: Int(info.st_size), limit: limit)
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DataError.unreadable(file: fileName, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        // The next runs are read and cut on a thread of their own while `body` handles this one, so
        // reading overlaps the work; runs, then the end or an error, arrive in file order.
        let queue = RunQueue()
        let reader = self
        Thread {
            do {
                try reader.readRuns(fd: fd) { try queue.put($0) }
                queue.finish(nil)
            } catch {
                queue.finish(error)
            }
        }.start()
        defer { queue.stop() }  // before the file is closed
        while let run = try queue.take() { try body(run) }
    }

    /// The loop of `forEachRun`: reads `fd` and passes each run to `emit` in order.
    private func readRuns(fd: Int32, _ emit: (Run) throws -> Void) throws {
        var scanner = Scanner()
        scanner.stopAfterFirstRecord = true  // the header is a run of its own
        var buffer: [UInt8] = []
        var total = 0
        var atEnd = false
        var startLine = 1
        var block = [UInt8](repeating: 0, count: min(1 << 16, chunkBytes))
        var wanted = min(chunkBytes, 1 << 16)
        var emitted = false
        while true {
            // Fill up to the run size, then cut after the last record end.
            while buffer.count < wanted && !atEnd {
                let count = block.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw DataError.unreadable(file: fileName, reason: String(cString: strerror(errno)))
                }
                if count == 0 {
                    atEnd = true
                    break
                }
                total += count
                guard total <= limit else { throw InputLimits.exceeded(fileName, bytes: total, limit: limit) }
                buffer.append(contentsOf: block[0..<count])
            }
            scanner.scan(buffer, atEnd: atEnd)
            let cut: Int
            if scanner.stopAfterFirstRecord {
                cut = scanner.stoppedAtFirstRecord ? scanner.lastCut : atEnd ? buffer.count : 0
            } else {
                cut = atEnd ? buffer.count : scanner.lastCut
            }
            guard cut > 0 else {
                if atEnd {
                    if !emitted { try emit(Run(bytes: [], firstLine: startLine)) }  // an empty file
                    return
                }
                wanted = buffer.count + chunkBytes  // no record ends in the run yet: read on (one long record)
                continue
            }
            try emit(Run(bytes: Array(buffer[0..<cut]), firstLine: startLine))
            emitted = true
            buffer.removeFirst(cut)
            startLine = scanner.cutLine
            scanner.shift(by: cut)
            scanner.stopAfterFirstRecord = false
            wanted = chunkBytes
            if atEnd && buffer.isEmpty { return }
        }
    }

    /// Runs passed from the reading thread to the caller's: at most `depth` wait, so memory stays
    /// bounded; `stop` makes a waiting or later `put` throw and waits until the reader has finished.
    final class RunQueue: Sendable {
        /// Runs read ahead of the one being handled.
        static let depth = 2
        private enum Entry { case run(Run), end((any Error)?) }
        private struct State {
            var entries: [Entry] = []
            var stopped = false
        }
        private let state = Mutex(State())
        private let ready = DispatchSemaphore(value: 0)
        // Created at 0 and signalled up to `depth`: libdispatch traps when a semaphore is freed
        // below the value it was created with, as this one is when the caller stops early.
        private let space = DispatchSemaphore(value: 0)
        private let finished = DispatchSemaphore(value: 0)

        init() {
            for _ in 0..<Self.depth { space.signal() }
        }

        /// Hands over `run`, waiting while `depth` runs wait; throws once `stop` was called.
        func put(_ run: Run) throws {
            space.wait()
            try state.withLock {
                if $0.stopped { throw CancellationError() }
                $0.entries.append(.run(run))
            }
            ready.signal()
        }

        /// The reader is done: `error` is what stopped it (nil at the end of the file).
        func finish(_ error: (any Error)?) {
            state.withLock { $0.entries.append(.end(error)) }
            ready.signal()
            finished.signal()
        }

        /// The next run; nil at the end of the file. Throws the reader's error in its place.
        func take() throws -> Run? {
            ready.wait()
            let entry = state.withLock { $0.entries.removeFirst() }
            space.signal()
            switch entry {
            case .run(let run): return run
            case .end(nil): return nil
            case .end(let error?): throw error
            }
        }

        /// Stops the reader (a `put` waiting for space wakes and throws) and waits until it has finished.
        func stop() {
            state.withLock { $0.stopped = true }
            space.signal()
            finished.wait()
        }
    }

    /// Finds record ends, following `CSVReader`'s quoting and line counting, across fills.
    struct Scanner {
        enum State { case fieldStart, unquoted, quoted, quoteSeen }
        var state = State.fieldStart
        /// Next byte to look at.
        var position = 0
        /// 1-based line of `position`.
        var line = 1
        /// Offset just after the last record end found (0: none), and the line that starts there.
        var lastCut = 0, cutLine = 1
        /// Stop at the end of the first record that is not blank (the header).
        var stopAfterFirstRecord = false
        /// Whether the scan stopped there (`lastCut` ends the first record).
        var stoppedAtFirstRecord = false
        /// Whether the current record has a byte other than a line end.
        var recordHasContent = false

        /// Scans `bytes` from `position` on; a CR at the very end waits for the next fill (it may
        /// be half of a CRLF) unless `atEnd`.
        mutating func scan(_ bytes: [UInt8], atEnd: Bool) {
            let n = bytes.count
            if position == 0, line == 1, n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
            bytes.withUnsafeBufferPointer { p in
                var i = position
                while i < n {
                    let b = p[i]
                    if b != 0x0A && b != 0x0D { recordHasContent = true }
                    if state == .quoted {
                        if b == 0x22 { state = .quoteSeen } else if b == 0x0A { line += 1 }
                        i += 1
                        continue
                    }
                    switch b {
                    case 0x22 where state == .fieldStart || state == .quoteSeen:
                        state = .quoted  // an opening quote, or the second of a doubled one
                        i += 1
                    case 0x2C:
                        state = .fieldStart
                        i += 1
                    case 0x0A, 0x0D:
                        if b == 0x0D {
                            if i + 1 == n && !atEnd {
                                position = i
                                return
                            }
                            i += i + 1 < n && p[i + 1] == 0x0A ? 2 : 1
                        } else {
                            i += 1
                        }
                        line += 1
                        state = .fieldStart
                        (lastCut, cutLine) = (i, line)
                        if stopAfterFirstRecord && recordHasContent {
                            stoppedAtFirstRecord = true
                            position = i
                            return
                        }
                        recordHasContent = false
                    default:
                        state = .unquoted
                        i += 1
                    }
                }
                position = i
            }
        }

        /// Forgets the first `count` bytes (handed over as a run).
        mutating func shift(by count: Int) {
            position -= count
            lastCut = 0
        }
    }
}
