import Foundation

/// What a finished child process left behind.
public struct ProcessOutput: Sendable {
    public var exitCode: Int32
    public var stdout: Data
    /// The last bytes of stderr only: enough for a human-readable failure reason, bounded so a
    /// chatty ffmpeg can't grow the worker's memory.
    public var stderrTail: String

    public init(exitCode: Int32, stdout: Data, stderrTail: String) {
        self.exitCode = exitCode
        self.stdout = stdout
        self.stderrTail = stderrTail
    }

    public var succeeded: Bool { exitCode == 0 }
}

/// Runs external programs (ffprobe, ffmpeg, xz) with an argument array — never a shell string,
/// so no file name can ever be interpreted as shell syntax.
public protocol ProcessRunner: Sendable {
    /// Runs to completion and collects stdout. Cancelling the calling task terminates the child.
    func run(_ executable: String, _ arguments: [String]) async throws -> ProcessOutput
    /// Runs to completion, handing each stdout line to `onLine` as it arrives (for ffmpeg
    /// `-progress pipe:1`). The returned output has empty `stdout`.
    func run(_ executable: String, _ arguments: [String], onLine: @escaping @Sendable (String) -> Void) async throws -> ProcessOutput
}
