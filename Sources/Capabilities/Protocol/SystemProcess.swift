import CSystemSpawn
import FieldtestData
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Closes a descriptor (a free function, as types here have `close()` methods of their own).
func closeDescriptor(_ fd: Int32) { _ = close(fd) }

/// `write(2)`, for the same reason.
func writeDescriptor(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }

/// One running external system: a child process in a process group of its own, its standard
/// input and output on pipes the harness writes and reads directly (a line at a time, each with a
/// deadline), its standard error drained by a thread into a bounded `StderrLog`.
///
/// The child is started by `fieldtest_spawn_system` (fork and exec) from `SystemSpawnThread`, and
/// asks the kernel for SIGKILL should the harness die (Linux `PR_SET_PDEATHSIG`). Stopping it
/// sends SIGTERM to its whole group, then SIGKILL after a short grace, and reaps it: nothing the
/// system started outlives it. Every live group is listed in `SystemProcessGroups`, which kills them
/// on SIGINT, SIGTERM and `exit`. Writes never block: the harness's end of the input pipe is
/// non-blocking and a write waits for room only until the answer's deadline.
final class SystemProcess: @unchecked Sendable {
    typealias ReadFailure = LineReadFailure

    /// How a write ended.
    enum WriteOutcome: Equatable {
        /// All bytes are in the pipe.
        case written
        /// The system closed its input (it exited).
        case closed
        /// The system did not read them before the deadline.
        case timedOut
    }

    let command: [String]
    /// The process id (also its process group's).
    let pid: Int32
    private var toChild: Int32
    private var fromChild: Int32
    private let reader: LineReader
    /// How long a read polls before it sleeps (see `LineReader`).
    var spinNanoseconds: UInt64 = 0
    private let stderrDone = DispatchSemaphore(value: 0)
    private var stopped = false

    /// Seconds between SIGTERM and SIGKILL when the system is stopped.
    static let termGraceSeconds = 0.2

    /// Starts `command` with standard error going to `log`; lines longer than `maxLineBytes`
    /// are refused (`LineReadFailure.tooLong`). Throws `SystemError.launch` when it cannot start.
    init(
        command: [String], environment: [String: String], workingDirectory: String?, log: StderrLog,
        maxLineBytes: Int = LineReader.defaultMaxLineBytes
    ) throws(SystemError) {
        self.command = command
        guard let program = Self.resolve(command.first ?? "", workingDirectory: workingDirectory) else {
            throw .launch(command: command, reason: "'\(command.first ?? "")' is not an executable file or in PATH")
        }
        var inPipe: [Int32] = [-1, -1]
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard pipe(&inPipe) == 0, pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            for fd in inPipe + outPipe + errPipe where fd >= 0 { closeDescriptor(fd) }
            throw .launch(command: command, reason: "no pipe could be made (\(String(cString: strerror(errno))))")
        }
        // No end may leak into this or any later child; the child's ends are placed on 0, 1, 2.
        for fd in inPipe + outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(inPipe[1], F_SETFL, fcntl(inPipe[1], F_GETFL) | O_NONBLOCK)
        LineReader.enlargePipe(inPipe[1])
        LineReader.enlargePipe(outPipe[0])
        // A write to a system that has exited must fail with EPIPE, not kill the harness.
        signal(SIGPIPE, SIG_IGN)
        SystemProcessGroups.installCleanup()

        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        let started = SystemSpawnThread.shared.run { () -> (Int32, Int32, Int32) in
            Self.spawn(
                program, arguments: command, environment: env, directory: workingDirectory,
                fds: (inPipe[0], outPipe[1], errPipe[1]))
        }
        closeDescriptor(inPipe[0])
        closeDescriptor(outPipe[1])
        closeDescriptor(errPipe[1])
        guard started.0 > 0 else {
            closeDescriptor(inPipe[1])
            closeDescriptor(outPipe[0])
            closeDescriptor(errPipe[0])
            let step = ["start", "start", "enter its working directory", "run"][Int(max(0, min(3, started.2)))]
            throw .launch(command: command, reason: "could not \(step): \(String(cString: strerror(started.1)))")
        }
        pid = started.0
        SystemProcessGroups.shared.add(pid)
        toChild = inPipe[1]
        fromChild = outPipe[0]
        reader = LineReader(fd: outPipe[0], maxLineBytes: maxLineBytes)
        StderrLog.drain(errPipe[0], into: log, finished: stderrDone)
    }

    deinit { terminate() }

    /// fork and exec with everything the child needs prepared first (the child may not allocate).
    private static func spawn(
        _ program: String, arguments: [String], environment: [String: String], directory: String?,
        fds: (Int32, Int32, Int32)
    ) -> (Int32, Int32, Int32) {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var error: Int32 = 0
        var step: Int32 = 0
        func spawn(in folder: UnsafePointer<CChar>?) -> Int32 {
            argv.withUnsafeBufferPointer { a in
                envp.withUnsafeBufferPointer { e in
                    fieldtest_spawn_system(
                        program, a.baseAddress, e.baseAddress, folder, fds.0, fds.1, fds.2, &error, &step)
                }
            }
        }
        let pid = directory.map { $0.withCString { spawn(in: $0) } } ?? spawn(in: nil)
        return (pid, error, step)
    }

    /// The executable `program` names: a path (relative to `workingDirectory`) when it holds a
    /// `/`, else the first executable of that name in `PATH`.
    static func resolve(_ program: String, workingDirectory: String?) -> String? {
        guard !program.isEmpty else { return nil }
        if program.contains("/") {
            let base = URL(fileURLWithPath: workingDirectory ?? FileManager.default.currentDirectoryPath)
            let path = URL(fileURLWithPath: program, relativeTo: base).path
            return FileManager.default.isExecutableFile(atPath: path) ? path : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = String(folder) + "/" + program
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate)
            {
                return candidate
            }
        }
        return nil
    }

    /// Writes `bytes` (one or more whole lines), waiting for room in the pipe at most until
    /// `deadline` (`DispatchTime` uptime nanoseconds).
    func write(_ bytes: [UInt8], deadline: UInt64) -> WriteOutcome {
        let outcome = send(bytes, deadline: deadline)
        if outcome != .written { SystemProcessGroups.shared.parkIfInterrupted() }
        return outcome
    }

    private func send(_ bytes: [UInt8], deadline: UInt64) -> WriteOutcome {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = writeDescriptor(toChild, raw.baseAddress! + offset, raw.count - offset)
                if n > 0 {
                    offset += n
                    continue
                }
                if n < 0 && errno == EINTR { continue }
                guard n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) else { return .closed }
                let now = DispatchTime.now().uptimeNanoseconds
                if now >= deadline { return .timedOut }
                var p = pollfd(fd: toChild, events: Int16(POLLOUT), revents: 0)
                let wait = Int32(min(UInt64(Int32.max), (deadline - now + 999_999) / 1_000_000))
                if poll(&p, 1, wait) < 0 && errno != EINTR { return .closed }
                if p.revents & Int16(POLLERR | POLLHUP) != 0 && p.revents & Int16(POLLOUT) == 0 { return .closed }
            }
            return .written
        }
    }

    /// The next line of output (without its newline), waiting at most until `deadline`
    /// (`DispatchTime` uptime nanoseconds).
    func readLine(deadline: UInt64) throws(ReadFailure) -> ArraySlice<UInt8> {
        do { return try reader.next(deadline: deadline, spinNanoseconds: spinNanoseconds) } catch {
            SystemProcessGroups.shared.parkIfInterrupted()
            throw error
        }
    }

    /// Stops the process: closes its input (a well-behaved system exits on end of file), waits up
    /// to `graceSeconds` for it to exit, then sends SIGTERM to its process group, SIGKILL after
    /// `termGraceSeconds`, and reaps it; waits (bounded) for its standard error to be drained.
    func terminate(graceSeconds: Double = 0.5) {
        guard !stopped else { return }
        stopped = true
        closeDescriptor(toChild)
        toChild = -1
        var exited = graceSeconds > 0 && reap(within: graceSeconds)
        if !exited {
            kill(-pid, SIGTERM)
            exited = reap(within: Self.termGraceSeconds)
        }
        // The group, even when its leader has exited: a shell script's own children go too.
        kill(-pid, SIGKILL)
        if !exited { _ = reap(within: 5) }
        SystemProcessGroups.shared.remove(pid)
        closeDescriptor(fromChild)
        fromChild = -1
        _ = stderrDone.wait(timeout: .now() + 2)
    }

    /// Waits up to `seconds` for the child to exit and reaps it; whether it did.
    private func reap(within seconds: Double) -> Bool {
        let end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid || (r < 0 && errno == ECHILD) { return true }
            if DispatchTime.now().uptimeNanoseconds >= end { return false }
            usleep(2_000)
        }
    }
}

/// The process groups of the running systems, killed when the harness is interrupted (SIGINT,
/// SIGTERM, through `InterruptCleanup`) or exits without stopping them.
final class SystemProcessGroups: @unchecked Sendable {
    static let shared = SystemProcessGroups()
    private let lock = NSLock()
    private var groups: Set<Int32> = []
    private var interrupted = false
    private static let installed = NSLock()
    nonisolated(unsafe) private static var isInstalled = false

    func add(_ pid: Int32) { lock.withLock { _ = groups.insert(pid) } }
    func remove(_ pid: Int32) { lock.withLock { _ = groups.remove(pid) } }

    /// After an interrupt, a thread that finds its system gone waits here for the interrupt
    /// handler to end the process (exit 130 or 143), rather than report the system as faulted and
    /// exit with another code first.
    func parkIfInterrupted() {
        guard lock.withLock({ interrupted }) else { return }
        while true { sleep(60) }
    }

    /// Kills every group (`killAll`) for an interrupt: threads that lose their system park.
    func interrupt() {
        lock.withLock { interrupted = true }
        killAll()
    }

    /// SIGTERM to every group, a short grace, then SIGKILL.
    func killAll() {
        let all = lock.withLock { groups }
        guard !all.isEmpty else { return }
        for pid in all { kill(-pid, SIGTERM) }
        usleep(UInt32(SystemProcess.termGraceSeconds * 1e6))
        for pid in all { kill(-pid, SIGKILL) }
    }

    /// Registers the kill with `InterruptCleanup` and `atexit`, once.
    static func installCleanup() {
        installed.withLock {
            guard !isInstalled else { return }
            isInstalled = true
            _ = InterruptCleanup.install { SystemProcessGroups.shared.interrupt() }
            atexit { SystemProcessGroups.shared.killAll() }
        }
    }
}
