import NIOPosix

/// Runs blocking file work (hashing a clip, decompressing a sidecar, `stat`, reading a
/// playlist) on NIO's small fixed thread pool instead of Swift's cooperative pool, whose few
/// threads (one per core) must never wait on a disk: a slow read there stalls every request.
public enum BlockingIO {
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(work)
    }
}
