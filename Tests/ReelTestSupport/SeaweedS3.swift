import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
import ReelTestFiles
#endif

/// One SeaweedFS (`weed server -s3`) per test process, on 127.0.0.1 and free ports, with an S3
/// identity of a known access key and secret, its data in a temporary folder. It enforces
/// SigV4, so a wrong signature fails a test instead of passing silently.
///
/// The server runs under a small shell watchdog that kills it when this process is gone (even
/// after SIGKILL), and `atexit` stops it on a normal exit. When `weed` is not installed the
/// test fails and says what to run; it never skips.
public final class SeaweedS3: Sendable {
    public static let accessKey = "REELTESTACCESSKEY"
    public static let secretKey = "reel-test-secret-key-0123456789"
    public static let region = "us-east-1"

    /// `http://127.0.0.1:PORT`
    public let endpoint: String
    public let folder: URL

    private init(endpoint: String, folder: URL) {
        self.endpoint = endpoint
        self.folder = folder
    }

    /// The process's server, started on first use (≈ 10 s).
    public static func shared() async throws -> SeaweedS3 {
        try await starter.value
    }

    /// A port chosen free can be taken by another process before weed binds it: weed then
    /// exits at once, and a second try with fresh ports is made.
    private static let starter = Task<SeaweedS3, any Error> {
        var attempt = 1
        while true {
            do {
                return try await start()
            } catch Failure.notReady(let log) where attempt < 3 && log.hasPrefix(Failure.exitedMark) {
                attempt += 1
            }
        }
    }

    public enum Failure: Error, CustomStringConvertible {
        case missingBinary
        case notReady(String)

        public var description: String {
            switch self {
            case .missingBinary:
                "SeaweedFS's `weed` binary was not found (REELHOUSE_WEED, .venv/bin/weed, PATH): run `scripts/ensure-deps.sh test`"
            case .notReady(let log): "weed server -s3 did not become ready; its log ends with:\n\(log)"
            }
        }

        static let exitedMark = "(weed exited) "
    }

    /// `REELHOUSE_WEED`, then the project's `.venv/bin/weed`, then `PATH`.
    static func locateWeed() -> String? {
        let environment = ProcessInfo.processInfo.environment
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var candidates = [environment["REELHOUSE_WEED"], packageRoot.appendingPathComponent(".venv/bin/weed").path].compactMap { $0 }
        candidates += (environment["PATH"] ?? "").split(separator: ":").map { "\($0)/weed" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func start() async throws -> SeaweedS3 {
        guard let weed = locateWeed() else { throw Failure.missingBinary }
        let folder = TemporaryFolder.fresh("reelhouse-seaweed")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
        let identities = """
            {"identities":[{"name":"reelhouse-test","credentials":[{"accessKey":"\(accessKey)","secretKey":"\(secretKey)"}],
            "actions":["Admin","Read","Write","List","Tagging"]}]}
            """
        try Data(identities.utf8).write(to: folder.appendingPathComponent("identities.json"))
        // Every listening port chosen here: weed's defaults (9333, 8080, 8888, 8333, 9101…)
        // may be taken by another test process or helper on this machine.
        let names = ["master.port", "master.port.grpc", "volume.port", "volume.port.grpc", "filer.port", "filer.port.grpc",
                     "s3.port", "s3.port.grpc", "s3.port.iceberg", "s3.port.lance"]
        let ports = try await FreePorts.take(names.count)
        let portFlags = zip(names, ports).map { "-\($0)=\($1)" }
        let s3Port = ports[names.firstIndex(of: "s3.port")!]
        // -logtostderr: into weed.log below; by default weed also writes log files to /tmp.
        let arguments = [
            "-logtostderr", "server", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-dir=\(folder.appendingPathComponent("data").path)", "-s3",
            "-s3.config=\(folder.appendingPathComponent("identities.json").path)", "-master.volumeSizeLimitMB=64", "-volume.max=0",
        ] + portFlags
        let log = folder.appendingPathComponent("weed.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)

        // The watchdog: starts weed, then waits while this test process lives; kills weed when
        // the test process is gone or the watchdog is told to stop.
        // Its data folder goes with it (the folder is ours: made above under the temp folder).
        let watchdog = """
            parent=$1; folder=$2; shift 2
            "$@" & child=$!
            trap 'kill -9 $child 2>/dev/null; wait $child 2>/dev/null; rm -rf "$folder"; exit 0' TERM INT
            while kill -0 "$parent" 2>/dev/null && kill -0 "$child" 2>/dev/null; do sleep 1; done
            kill -9 $child 2>/dev/null; wait $child 2>/dev/null
            # weed exited by itself: the test process reads its log, then cleans up at exit.
            kill -0 "$parent" 2>/dev/null || rm -rf "$folder"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", watchdog, "seaweed-watchdog", String(ProcessInfo.processInfo.processIdentifier), folder.path, weed] + arguments
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        Stopper.register(pid: process.processIdentifier, folder: folder)

        let endpoint = "http://127.0.0.1:\(s3Port)"
        // Ready once the S3 gateway answers at all (an unsigned request is refused with 403).
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            var request = URLRequest(url: URL(string: endpoint + "/")!)
            request.timeoutInterval = 2
            if let (_, response) = try? await URLSession.shared.data(for: request), response is HTTPURLResponse {
                return SeaweedS3(endpoint: endpoint, folder: folder)
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        let tail = (try? String(contentsOf: log, encoding: .utf8)).map { String($0.suffix(2000)) } ?? ""
        if process.isRunning {
            process.terminate()
            throw Failure.notReady(tail)
        }
        throw Failure.notReady(Failure.exitedMark + tail)
    }
}

/// Stops the watchdogs (and so weed) and deletes their folders when the test process exits.
private enum Stopper {
    nonisolated(unsafe) static var pids: [Int32] = []
    nonisolated(unsafe) static var folders: [String] = []
    static let lock = NSLock()
    static let once: Void = {
        atexit {
            let (pids, folders) = Stopper.lock.withLock { (Stopper.pids, Stopper.folders) }
            for pid in pids { kill(pid, SIGTERM) }
            // The watchdog kills weed and deletes the folder; this is for a watchdog that is gone.
            usleep(300_000)
            for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
        }
    }()

    static func register(pid: Int32, folder: URL) {
        _ = once
        lock.withLock {
            pids.append(pid)
            folders.append(folder.path)
        }
    }
}
