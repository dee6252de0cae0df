import Foundation
import Logging
import PostgresNIO
import ReelStorePostgres

#if canImport(Glibc)
import Glibc
import ReelTestFiles
#endif

/// One private PostgreSQL 15 cluster per test process, started on first use: `initdb` and the
/// server under a temp folder, on a free port of 127.0.0.1, as the `postgres` user when the
/// tests run as root (initdb refuses root). Each test takes a fresh database from it.
///
/// No cluster outlives the test process:
/// - the server is our own child, not daemonized by `pg_ctl`, started through
///   `setpriv --pdeathsig INT` from a thread that never ends (the kernel sends the signal when
///   the *thread* that forked the child ends), so even a SIGKILLed runner stops it (SIGINT is
///   PostgreSQL's fast shutdown);
/// - an `atexit` handler stops it (SIGINT, then waits) and deletes the folder on a normal exit;
/// - a folder left behind by a killed runner (its `owner.pid` names a dead process) is deleted
///   by the next cluster that starts.
/// When the server binaries are missing, `freshDatabase()` throws saying what to install: the
/// tests fail, they never skip.
///
/// The server speaks TLS (`ssl=on`, a self-signed certificate for `localhost` and 127.0.0.1 made
/// by openssl at start), so the stores' default `sslmode=prefer` runs every PostgreSQL test
/// over TLS, and `serverCertificate()` lets a test verify the server by it.
public actor PostgresCluster {
    public static let shared = PostgresCluster()

    /// Debian's PostgreSQL 15; `REELHOUSE_PG_BIN` points elsewhere.
    public static let binDirectory = ProcessInfo.processInfo.environment["REELHOUSE_PG_BIN"] ?? "/usr/lib/postgresql/15/bin"
    static let folderPrefix = "reelhouse-pg-"
    static let superuser = "postgres"

    private var port: Int?
    private var certificate: String?
    /// The one start: concurrent first callers await the same task (the actor is reentrant
    /// across its awaits, so a plain flag would start one cluster per caller).
    private var starting: Task<Int, any Error>?
    private let logger = Logger(label: "reelhouse.tests.postgres")

    /// A new empty database `t_<uuid>` on the cluster (started if needed).
    public func freshDatabase() async throws -> PostgresDatabaseURL {
        let port = try await start()
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await admin(port: port, "CREATE DATABASE \"\(name)\"")
        return PostgresDatabaseURL(user: Self.superuser, password: nil, host: "127.0.0.1", port: port, database: name)
    }

    /// The PEM file of the server's self-signed certificate (for `sslrootcert`).
    public func serverCertificate() async throws -> String {
        _ = try await start()
        guard let certificate else { throw ClusterError.failed("the cluster started without a certificate") }
        return certificate
    }

    /// Drops a database made by `freshDatabase()`, disconnecting whoever is still connected.
    public func drop(_ url: PostgresDatabaseURL) async {
        guard let port else { return }
        try? await admin(port: port, "DROP DATABASE IF EXISTS \"\(url.database)\" WITH (FORCE)")
    }

    private func admin(port: Int, _ sql: String) async throws {
        let configuration = PostgresConnection.Configuration(
            host: "127.0.0.1", port: port, username: Self.superuser, password: nil, database: "postgres", tls: .disable
        )
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }

    // MARK: - Starting

    private func start() async throws -> Int {
        if let port { return port }
        if let starting { return try await starting.value }
        let task = Task { try await self.startCluster() }
        starting = task
        let chosen = try await task.value
        port = chosen
        return chosen
    }

    private func startCluster() async throws -> Int {
        for binary in ["initdb", "postgres"] where !FileManager.default.isExecutableFile(atPath: "\(Self.binDirectory)/\(binary)") {
            throw ClusterError.missing(
                "\(Self.binDirectory)/\(binary) not found: the PostgreSQL tests need Debian's PostgreSQL 15 server; run `scripts/ensure-deps.sh test` (installs `postgresql`)"
            )
        }
        Self.removeAbandonedFolders()
        let folder = TemporaryFolder.fresh(String(Self.folderPrefix.dropLast()))  // `<prefix><UUID>`, as the sweep of abandoned folders expects
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "\(getpid())".write(to: folder.appendingPathComponent("owner.pid"), atomically: true, encoding: .utf8)
        let account = Self.runsAsRoot ? try Self.postgresAccount() : nil
        if let account { chown(folder.path, account.uid, account.gid) }
        let data = folder.appendingPathComponent("data").path
        let log = folder.appendingPathComponent("server.log")

        // C locale: text sorts by code point, as SQLite's default BINARY collation does.
        try Self.runToEnd(Self.asServerUser(account, "\(Self.binDirectory)/initdb", [
            "-D", data, "-U", Self.superuser, "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C",
        ]), log: folder.appendingPathComponent("initdb.log"))

        let (certificate, key) = try Self.makeCertificate(in: folder, account: account)
        self.certificate = certificate

        let chosen = try await FreePorts.one()
        let server = try Self.asServerUser(account, "\(Self.binDirectory)/postgres", [
            "-D", data, "-p", "\(chosen)", "-k", folder.path,
            "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
            "-c", "full_page_writes=off",
            "-c", "ssl=on", "-c", "ssl_cert_file=\(certificate)", "-c", "ssl_key_file=\(key)",
            // Suites run in parallel, each store with its own pool (8 connections).
            "-c", "max_connections=400", "-c", "shared_buffers=32MB",
        ], parentDeathSignal: "INT")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        server.standardOutput = logHandle
        server.standardError = logHandle
        try ParentDeathLauncher.launch(server)
        ClusterExit.register(pid: server.processIdentifier, folder: folder.path)

        try await waitUntilReady(port: chosen, server: server, log: log)
        return chosen
    }

    /// A self-signed certificate for `localhost` and 127.0.0.1 and its key (mode 0600, owned by
    /// the server's user, as PostgreSQL demands), by openssl: an EC key, made in milliseconds.
    private static func makeCertificate(in folder: URL, account: (uid: uid_t, gid: gid_t)?) throws -> (certificate: String, key: String) {
        guard let openssl = ["/usr/bin/openssl", "/bin/openssl"].first(where: FileManager.default.isExecutableFile) else {
            throw ClusterError.missing("openssl not found: run `scripts/ensure-deps.sh test` (installs openssl)")
        }
        let certificate = folder.appendingPathComponent("server.crt").path
        let key = folder.appendingPathComponent("server.key").path
        try runToEnd(asServerUser(account, openssl, [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "3",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "-keyout", key, "-out", certificate,
        ]), log: folder.appendingPathComponent("openssl.log"))
        chmod(key, 0o600)
        return (certificate, key)
    }

    private func waitUntilReady(port: Int, server: Process, log: URL) async throws {
        let configuration = PostgresConnection.Configuration(
            host: "127.0.0.1", port: port, username: Self.superuser, password: nil, database: "postgres", tls: .disable
        )
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            guard server.isRunning else {
                let tail = (try? String(contentsOf: log, encoding: .utf8))?.suffix(2_000) ?? ""
                throw ClusterError.failed("postgres exited while starting:\n\(tail)")
            }
            if let connection = try? await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger) {
                try? await connection.close()
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ClusterError.failed("postgres did not accept connections on 127.0.0.1:\(port) within 60 s")
    }

    // MARK: - Processes

    static var runsAsRoot: Bool { geteuid() == 0 }

    private static func postgresAccount() throws -> (uid: uid_t, gid: gid_t) {
        guard let entry = getpwnam("postgres") else {
            throw ClusterError.missing("no `postgres` user (tests run as root, and initdb refuses root): run `scripts/ensure-deps.sh test`")
        }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    /// The program as the `postgres` user when we are root (through util-linux's setpriv),
    /// with a parent-death signal when asked.
    private static func asServerUser(
        _ account: (uid: uid_t, gid: gid_t)?, _ program: String, _ arguments: [String], parentDeathSignal: String? = nil
    ) throws -> Process {
        let process = Process()
        var prefix: [String] = []
        if account != nil { prefix += ["--reuid=\(superuser)", "--regid=\(superuser)", "--init-groups"] }
        if let parentDeathSignal { prefix += ["--pdeathsig", parentDeathSignal] }
        if prefix.isEmpty {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
        } else {
            guard let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first(where: FileManager.default.isExecutableFile) else {
                throw ClusterError.missing("setpriv not found: run `scripts/ensure-deps.sh test` (installs util-linux)")
            }
            process.executableURL = URL(fileURLWithPath: setpriv)
            process.arguments = prefix + ["--", program] + arguments
        }
        return process
    }

    private static func runToEnd(_ process: Process, log: URL) throws {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let tail = (try? String(contentsOf: log, encoding: .utf8))?.suffix(2_000) ?? ""
            throw ClusterError.failed("\(process.arguments?.joined(separator: " ") ?? "") failed:\n\(tail)")
        }
    }

    /// Deletes cluster folders whose test process is gone (a SIGKILLed runner's: its server
    /// already stopped on the parent-death signal).
    private static func removeAbandonedFolders() {
        let temp = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temp.path)) ?? []
        for name in names where name.hasPrefix(folderPrefix) {
            let folder = temp.appendingPathComponent(name)
            guard let text = try? String(contentsOf: folder.appendingPathComponent("owner.pid"), encoding: .utf8),
                  let owner = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { continue }
            if kill(owner, 0) != 0 && errno == ESRCH { try? FileManager.default.removeItem(at: folder) }
        }
    }

    public enum ClusterError: Error, CustomStringConvertible {
        case missing(String)
        case failed(String)

        public var description: String {
            switch self {
            case .missing(let what), .failed(let what): return what
            }
        }
    }
}

/// Launches processes from one thread that lives as long as the test process: a parent-death
/// signal fires when the forking *thread* ends, and Swift's pool threads may be retired.
private final class ParentDeathLauncher: @unchecked Sendable {
    private static let shared = ParentDeathLauncher()

    /// One launch: the process, and where its outcome goes (guarded by `condition`).
    private final class Request {
        let process: Process
        var finished = false
        var failure: (any Error)?
        init(_ process: Process) { self.process = process }
    }

    private let condition = NSCondition()
    private var queue: [Request] = []
    private var started = false

    static func launch(_ process: Process) throws {
        try shared.launch(process)
    }

    private func launch(_ process: Process) throws {
        let request = Request(process)
        condition.lock()
        defer { condition.unlock() }
        if !started {
            started = true
            let thread = Thread { [self] in serve() }
            thread.name = "postgres-launcher"
            thread.start()
        }
        queue.append(request)
        condition.broadcast()
        while !request.finished { condition.wait() }
        if let failure = request.failure { throw failure }
    }

    private func serve() {
        condition.lock()
        while true {
            while queue.isEmpty { condition.wait() }
            let request = queue.removeFirst()
            do { try request.process.run() } catch { request.failure = error }
            request.finished = true
            condition.broadcast()
        }
    }
}

/// Stops the server and deletes its folder when the test process exits normally.
private enum ClusterExit {
    nonisolated(unsafe) private static var pid: pid_t = 0
    nonisolated(unsafe) private static var folder: String = ""

    static func register(pid: pid_t, folder: String) {
        Self.pid = pid
        Self.folder = folder
        atexit {
            let pid = ClusterExit.pid
            guard pid > 0 else { return }
            kill(pid, SIGINT)
            // Up to 10 s for the fast shutdown; waitpid also reaps it (-1: already reaped).
            for _ in 0..<200 {
                var status: Int32 = 0
                let reaped = waitpid(pid, &status, WNOHANG)
                if reaped == pid || reaped == -1 { break }
                usleep(50_000)
            }
            try? FileManager.default.removeItem(atPath: ClusterExit.folder)
        }
    }
}
