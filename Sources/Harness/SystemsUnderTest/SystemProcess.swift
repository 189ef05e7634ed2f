import Foundation
import Subprocess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One running external system: a child process started with swift-subprocess, its standard
/// input and output on pipes the harness reads and writes directly (a line at a time, with a
/// deadline), its standard error appended to a file.
///
/// swift-subprocess spawns the child in its own process group, waits for it and reaps it; the
/// harness kills the whole group when it stops the system, so nothing the system started
/// outlives the run. The supervising task runs on its own thread (`SystemThreadExecutor`).
/// Reading and writing go straight to the pipes rather than through the library's async
/// sequences: the engine is synchronous, and a request costs a write, a few polls and a read
/// this way (`LineReader`; see `fieldtest-bench system`).
final class SystemProcess: @unchecked Sendable {
    typealias ReadFailure = LineReadFailure

    let command: [String]
    /// The process id (0 until started).
    private(set) var pid: Int32 = 0
    private var toChild: Int32 = -1
    private var fromChild: Int32 = -1
    private let reader: LineReader
    /// How long a read polls before it sleeps (see `LineReader`).
    var spinNanoseconds: UInt64 = 0
    private let stop = AsyncStream<Void>.makeStream()
    private let finished = DispatchSemaphore(value: 0)
    private let killed = DispatchSemaphore(value: 0)
    private var stopped = false

    /// Starts `command` with standard error appended to `stderrPath`; throws `SystemError.launch`
    /// when it cannot be started.
    init(command: [String], environment: [String: String], workingDirectory: String?, stderrPath: String)
        throws(SystemError)
    {
        self.command = command
        var inPipe: [Int32] = [-1, -1]
        var outPipe: [Int32] = [-1, -1]
        guard pipe(&inPipe) == 0, pipe(&outPipe) == 0 else {
            throw .launch(command: command, reason: "no pipe could be made (\(String(cString: strerror(errno))))")
        }
        let errFD = open(stderrPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard errFD >= 0 else {
            throw .launch(command: command, reason: "cannot write its standard error to \(stderrPath)")
        }
        // The harness's ends must not leak into this or any later child.
        _ = fcntl(inPipe[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(outPipe[0], F_SETFD, FD_CLOEXEC)
        toChild = inPipe[1]
        fromChild = outPipe[0]
        reader = LineReader(fd: outPipe[0])
        LineReader.enlargePipe(inPipe[1])
        LineReader.enlargePipe(outPipe[0])
        // A write to a system that has exited must fail with EPIPE, not kill the harness.
        signal(SIGPIPE, SIG_IGN)

        let executable: Executable = command[0].contains("/") ? .path(.init(command[0])) : .name(command[0])
        var options = PlatformOptions()
        options.processGroupID = 0
        let started = DispatchSemaphore(value: 0)
        let outcome = LaunchOutcome()
        let stopSignals = stop.stream
        let childIn = inPipe[0]
        let childOut = outPipe[1]
        let update = environment.reduce(into: [Environment.Key: String?]()) {
            $0[.init(stringLiteral: $1.key)] = $1.value
        }
        let arguments = Arguments(Array(command.dropFirst()))
        let directory = workingDirectory
        let done = finished
        let killSent = killed
        Task(executorPreference: SystemThreadExecutor.shared) {
            do {
                _ = try await Subprocess.run(
                    executable, arguments: arguments, environment: .inherit.updating(update),
                    workingDirectory: directory.map { .init($0) }, platformOptions: options,
                    input: .fileDescriptor(.init(rawValue: childIn), closeAfterSpawningProcess: true),
                    output: .fileDescriptor(.init(rawValue: childOut), closeAfterSpawningProcess: true),
                    error: .fileDescriptor(.init(rawValue: errFD), closeAfterSpawningProcess: true)
                ) { execution in
                    outcome.pid = execution.processIdentifier.value
                    started.signal()
                    for await _ in stopSignals { break }
                    // The whole group: a shell script's own children go too.
                    try? execution.send(signal: .kill, toProcessGroup: true)
                    killSent.signal()
                }
            } catch {
                outcome.error = String(describing: error)
                if outcome.pid == 0 {
                    close(childIn)
                    close(childOut)
                    close(errFD)
                }
                started.signal()
            }
            done.signal()
        }
        started.wait()
        if let error = outcome.error, outcome.pid == 0 {
            close(toChild)
            close(fromChild)
            toChild = -1
            fromChild = -1
            stopped = true
            throw .launch(command: command, reason: error)
        }
        pid = outcome.pid
    }

    deinit { terminate() }

    /// Writes `bytes` (one or more whole lines); false when the process no longer reads.
    func write(_ bytes: [UInt8]) -> Bool { LineReader.writeAll(bytes, to: toChild) }

    /// The next line of output (without its newline), waiting at most until `deadline`
    /// (`DispatchTime` uptime nanoseconds).
    func readLine(deadline: UInt64) throws(ReadFailure) -> ArraySlice<UInt8> {
        try reader.next(deadline: deadline, spinNanoseconds: spinNanoseconds)
    }

    /// Stops the process: closes its input (a well-behaved system exits on end of file), waits
    /// up to `graceSeconds` for it to close its output, then kills its process group and waits
    /// (bounded) for swift-subprocess to reap it.
    func terminate(graceSeconds: Double = 0.5) {
        guard !stopped else { return }
        stopped = true
        close(toChild)
        if graceSeconds > 0 {
            let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(graceSeconds * 1e9)
            while true {
                do { _ = try readLine(deadline: deadline) } catch { break }
            }
        }
        stop.continuation.yield()
        stop.continuation.finish()
        // Wait for the kill, not for the reaping: swift-subprocess finishes `run` with an
        // unstructured task on the global pool, which a caller blocked on the pool (a test)
        // could starve. The process is dead once the kill is sent; it is reaped soon after.
        _ = killed.wait(timeout: .now() + 5)
        close(fromChild)
    }

    /// What the supervising task learnt while launching.
    private final class LaunchOutcome: @unchecked Sendable {
        var pid: Int32 = 0
        var error: String?
    }
}
