import Foundation
import ReelStorage

/// The live `ProcessRunner`, on Foundation's `Process`.
///
/// Executables are looked up on `PATH` at each launch (a few `stat` calls, nothing beside an
/// ffmpeg run). A child dies with this process: on Linux it is started through util-linux's
/// `setpriv --pdeathsig KILL`, so a SIGKILLed worker does not leave an orphan encoder writing
/// into a job folder that the job's next attempt reuses. (A closed `-progress` pipe does not
/// stop ffmpeg: it ignores SIGPIPE and the write error, and encodes to the end.)
public struct FoundationProcessRunner: ProcessRunner {
    public static let stderrTailLimit = 4_096

    public init() {}

    public func run(_ executable: String, _ arguments: [String]) async throws -> ProcessOutput {
        let collected = LockedBuffer()
        var output = try await launch(executable, arguments) { chunk in collected.append(chunk) }
        output.stdout = collected.take()
        return output
    }

    public func run(
        _ executable: String, _ arguments: [String], onLine: @escaping @Sendable (String) -> Void
    ) async throws -> ProcessOutput {
        let splitter = LineSplitter(onLine: onLine)
        let output = try await launch(executable, arguments) { chunk in splitter.feed(chunk) }
        splitter.finish()
        return output
    }

    private func launch(
        _ executable: String, _ arguments: [String], onStdout: @escaping @Sendable (Data) -> Void
    ) async throws -> ProcessOutput {
        guard let url = ExecutableLocator.find(executable) else {
            throw PipelineError.toolMissing(executable)
        }
        let process = Process()
        if let reaper = ParentDeathSignal.launcher {
            process.executableURL = reaper.executable
            process.arguments = reaper.arguments + [url.path] + arguments
        } else {
            process.executableURL = url
            process.arguments = arguments
        }
        process.standardInput = FileHandle.nullDevice
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe

        let stderrTail = TailBuffer(limit: Self.stderrTailLimit)
        // Each pipe is drained by a blocking read loop on a thread of its own, and the exit is
        // awaited on another: no Foundation callback thread is ever blocked, and no output
        // written just before exit is lost.
        let drained = DispatchGroup()
        let stdoutHandle = UncheckedBox(stdoutPipe.fileHandleForReading)
        let stderrHandle = UncheckedBox(stderrPipe.fileHandleForReading)
        let child = UncheckedBox(process)
        let launchedPID = LockedPID()

        let exitCode: Int32 = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
                // Launched from a thread that lives until the child exits: the kernel sends the
                // parent-death signal when the launching *thread* ends, and a pool thread may
                // retire while ffmpeg is still encoding.
                Thread.detachNewThread {
                    do {
                        try child.value.run()
                        launchedPID.set(child.value.processIdentifier)
                    } catch {
                        continuation.resume(throwing: PipelineError.toolFailed(executable, "could not start: \(error)"))
                        return
                    }
                    drained.enter()
                    Thread.detachNewThread {
                        Self.drain(stdoutHandle.value, into: onStdout)
                        drained.leave()
                    }
                    drained.enter()
                    Thread.detachNewThread {
                        Self.drain(stderrHandle.value) { stderrTail.append($0) }
                        drained.leave()
                    }
                    child.value.waitUntilExit()
                    drained.wait()
                    continuation.resume(returning: child.value.terminationStatus)
                }
            }
        } onCancel: {
            // SIGKILL, not SIGTERM: children inherit the launching thread's signal mask, in which
            // SIGTERM may be blocked, so a polite signal can go unheard. Whatever a killed ffmpeg
            // leaves is inside its job's work folder, which is removed anyway.
            launchedPID.signal(SIGKILL)
        }
        try Task.checkCancellation()
        return ProcessOutput(exitCode: exitCode, stdout: Data(), stderrTail: stderrTail.text)
    }
}

extension FoundationProcessRunner {
    /// Reads until end of file; `availableData` blocks until bytes or EOF arrive.
    static func drain(_ handle: FileHandle, into sink: (Data) -> Void) {
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { return }
            sink(chunk)
        }
    }
}

/// How a child is tied to this process's life: `setpriv --pdeathsig KILL` sets the kernel's
/// parent-death signal and then executes the real program. Nil where there is no setpriv
/// (macOS): children are then only stopped by cancellation.
enum ParentDeathSignal {
    static let launcher: (executable: URL, arguments: [String])? = {
        #if os(Linux)
        guard let setpriv = ExecutableLocator.find("setpriv") else { return nil }
        return (setpriv, ["--pdeathsig", "KILL", "--"])
        #else
        return nil
        #endif
    }()
}

/// Finds programs on `PATH` (plus the usual Debian locations when PATH is minimal, as under CI).
public enum ExecutableLocator {
    public static func find(_ name: String) -> URL? {
        if name.contains("/") {
            return FileManager.default.isExecutableFile(atPath: name) ? URL(fileURLWithPath: name) : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/local/bin", "/usr/bin", "/bin"]
        for directory in directories {
            let candidate = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        return nil
    }
}

/// Hands a Foundation object that is not `Sendable` to the one thread that uses it next.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The child's pid, for the cancellation handler (which may run before or after launch).
final class LockedPID: @unchecked Sendable {
    private let lock = NSLock()
    private var pid: Int32 = 0
    private var pendingSignal: Int32?

    func set(_ value: Int32) {
        let signal: Int32? = lock.withLock {
            pid = value
            return pendingSignal
        }
        if let signal { kill(value, signal) }
    }

    /// Signals the child now, or as soon as it is launched.
    func signal(_ signal: Int32) {
        let target: Int32 = lock.withLock {
            if pid == 0 { pendingSignal = signal }
            return pid
        }
        if target > 0 { kill(target, signal) }
    }
}

/// Accumulates bytes from a pipe reader thread.
final class LockedBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func append(_ chunk: Data) { lock.withLock { data.append(chunk) } }
    func take() -> Data { lock.withLock { data } }
}

/// Keeps only the last `limit` bytes written to it.
final class TailBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    func append(_ chunk: Data) {
        lock.withLock {
            data.append(chunk)
            if data.count > limit { data.removeFirst(data.count - limit) }
        }
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}

/// Turns pipe chunks into lines.
final class LineSplitter: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = Data()
    private let onLine: @Sendable (String) -> Void

    init(onLine: @escaping @Sendable (String) -> Void) { self.onLine = onLine }

    func feed(_ chunk: Data) {
        let lines: [String] = lock.withLock {
            pending.append(chunk)
            var lines: [String] = []
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...newline)
            }
            return lines
        }
        lines.forEach(onLine)
    }

    func finish() {
        let rest: Data = lock.withLock {
            defer { pending.removeAll() }
            return pending
        }
        if !rest.isEmpty { onLine(String(decoding: rest, as: UTF8.self)) }
    }
}
