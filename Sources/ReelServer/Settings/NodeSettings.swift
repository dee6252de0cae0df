import Foundation

/// What every node has whatever its features: where it listens and keeps its data, what it
/// runs, what the media pipeline accepts and makes, and the secrets (`SecretSetting`).
/// `ServerConfiguration` reads these as its own properties (`configuration.port`).
public struct NodeSettings: FeatureSettings {
    public var host = "127.0.0.1"
    public var port = 8080
    /// What this node does (docs/scale-out.md): `all` serves HTTP and, when `worker` is on,
    /// runs jobs; `api` only serves (stateless nodes behind a balancer); `worker` only runs jobs.
    public var role = "all"
    /// Run the transcode worker inside the server process (with role `all`).
    public var worker = true
    public var workerConcurrency: Int?
    /// Largest JSON request body.
    public var maxBodyBytes = 64 * 1024
    public var pexelsBaseURL = "https://api.pexels.com"
    /// Directory of the web client; nil serves none.
    public var webRoot: String?
    /// What import and uploads accept and how videos are published. Nil keeps the pipeline's
    /// own default (`MediaLimits`, `TranscodeOptions`), which this module does not link.
    public var maxDuration: Double?
    public var maxImagePixels: Int?
    public var encryption = true
    public var preset: String?
    /// Videos open with short segments (ReelMedia's `LadderPlanner.leadSegments`): a first
    /// picture sooner on a slow link. False: 2 s segments from the start.
    public var quickStart = true
    /// The job queue: every worker's lease and attempt timeout (nil: the queue's defaults; tests
    /// shorten both), and the slots of the light worker (upload imports and generation steps,
    /// which must not wait behind a transcode).
    public var leaseSeconds: Double?
    public var jobTimeoutSeconds: Double?
    public var lightWorkerConcurrency = 2
    /// Scale-out (docs/scale-out.md): the metadata store as `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`
    /// (nil: SQLite in the data folder), and how many connections each node's pool may hold.
    public var databaseUrl: String?
    public var databasePool = 8
    /// Published media: nil or `file:` is the data folder; `s3://BUCKET[/PREFIX]?endpoint=…&region=…`
    /// a bucket (docs/scale-out.md). Checked where the storage is made (`reelhouse`).
    public var storage: String?
    /// Secrets, declared in `SecretSetting.all` (config file, environment, `--…-file` flag; no
    /// value flag, since a process list is readable by every user). Never printed.
    /// The media-token and cursor HMAC key; nil: `<data>/secret.key`.
    public var secret: String?
    public var openAIApiKey: String?
    public var pexelsKey: String?
    /// S3 keys: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN` as every S3 tool.
    public var s3AccessKeyId: String?
    public var s3SecretAccessKey: String?
    public var s3SessionToken: String?

    public init() {}

    public static let roles = ["all", "api", "worker"]
    public static let databasePoolRange = 1...1000
    /// Checked at startup: an unknown one would only fail each transcode, attempt after attempt.
    static let x264Presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]

    /// Whether this node listens for HTTP.
    public var servesHTTP: Bool { role != "worker" }
    /// Whether this node runs the job workers.
    public var runsJobs: Bool { role == "worker" || (role == "all" && worker) }
    /// Whether `storage` names a bucket rather than the data folder.
    public var usesObjectStorage: Bool { storage.map { $0.lowercased().hasPrefix("s3://") } ?? false }

    public static let declarations: [ConfigurationSetting] = [
        .init("host", .text, env: "REELHOUSE_HOST", example: "0.0.0.0", "Address to listen on."),
        .init("port", .integer, env: "REELHOUSE_PORT", example: "9090", "Port to listen on; 0 picks a free one (printed)."),
        .init("role", .text, env: "REELHOUSE_ROLE", example: "api",
              "What this node does: all (HTTP and jobs), api (HTTP only: stateless nodes behind a balancer) or worker (jobs only)."),
        .init("worker", .boolean, env: "REELHOUSE_WORKER", example: "false", "Run the transcode and generation worker in this process."),
        .init("workerConcurrency", .integer, env: "REELHOUSE_WORKER_CONCURRENCY", example: "2",
              "Jobs the worker runs at once (default: 1 on ≤ 2 cores)."),
        .init("maxBodyBytes", .integer, env: "REELHOUSE_MAX_BODY_BYTES", example: "4096",
              "Largest JSON request body (uploads are not bound by it)."),
        .init("pexelsBaseURL", .text, env: "REELHOUSE_PEXELS_URL", example: "http://127.0.0.1:9998",
              "Pexels API endpoint for `reelhouse source pexels` (its key is the pexelsKey secret)."),
        .init("webRoot", .text, env: "REELHOUSE_WEB_ROOT", example: "/srv/reelhouse/Web",
              "Folder of the web client (default: Web/ beside the binary or here)."),
        .init("maxDuration", .number, env: "REELHOUSE_MAX_DURATION", example: "2.5", "Longest accepted video, in seconds."),
        .init("maxImagePixels", .integer, env: "REELHOUSE_MAX_IMAGE_PIXELS", example: "2000000", "Largest accepted image, in pixels."),
        .init("encryption", .boolean, env: "REELHOUSE_ENCRYPT", example: "false",
              "Encrypt each video's segments with its own AES-128 key (REELHOUSE_ENCRYPT=0 publishes them clear)."),
        .init("preset", .text, env: "REELHOUSE_PRESET", example: "ultrafast", "x264 preset of transcodes."),
        .init("quickStart", .boolean, env: "REELHOUSE_QUICK_START", example: "false",
              "Open each video with short segments (0.5, 0.5, 1 s, then 2 s), so its first picture needs a fraction of the bytes."),
        .init("leaseSeconds", .number, env: "REELHOUSE_LEASE_SECONDS", example: "2.5",
              "A worker's claim on a job lapses after this long without a heartbeat (another worker takes the job)."),
        .init("jobTimeoutSeconds", .number, env: "REELHOUSE_JOB_TIMEOUT_SECONDS", example: "120",
              "An attempt still running after this long is stopped and its job failed for good."),
        .init("lightWorkerConcurrency", .integer, env: "REELHOUSE_LIGHT_WORKER_CONCURRENCY", example: "4",
              "Upload imports and generation steps run at once, beside the transcodes."),
        .init("databaseUrl", .text, env: "REELHOUSE_DATABASE_URL", example: "postgres://reel@127.0.0.1:5432/reelhouse",
              "The metadata store: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE&sslrootcert=CA.pem] (TLS as libpq: prefer by default; verify-full across a network); default: SQLite in the data folder."),
        .init("databasePool", .integer, env: "REELHOUSE_DATABASE_POOL", example: "4",
              "PostgreSQL connections this node's main pool may hold (1 to 1000); the feed's hot statements have a second pool of half as many."),
        .init("storage", .text, env: "REELHOUSE_STORAGE", example: "file:",
              "Where published media lives: the data folder (default, or file:), or s3://BUCKET[/PREFIX]?endpoint=…&region=… (keys from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY)."),
    ]

    public func validate() throws(ConfigurationError) {
        if let storage, !storage.isEmpty, !usesObjectStorage, !storage.lowercased().hasPrefix("file:") {
            throw ConfigurationError("storage must be file: (the data folder) or s3://BUCKET[/PREFIX]?endpoint=…&region=…")
        }
        if usesObjectStorage, (s3AccessKeyId ?? "").isEmpty || (s3SecretAccessKey ?? "").isEmpty {
            throw ConfigurationError(
                "storage s3://… needs keys: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or s3AccessKeyId and s3SecretAccessKey in the config file"
            )
        }
        if let secret, secret.count < 32 {
            throw ConfigurationError("secret (REELHOUSE_SECRET) must be at least 32 characters")
        }
        guard Self.roles.contains(role) else { throw ConfigurationError("role must be all, api or worker, not \"\(role)\"") }
        guard (0...65535).contains(port) else { throw ConfigurationError("port must be between 0 and 65535") }
        guard Self.databasePoolRange.contains(databasePool) else { throw ConfigurationError("databasePool must be between 1 and 1000") }
        if let databaseUrl, !["postgres://", "postgresql://"].contains(where: databaseUrl.lowercased().hasPrefix) {
            // Never echo the value: it may hold a password.
            throw ConfigurationError("databaseUrl must be a postgres:// URL (leave it unset for SQLite)")
        }
        try requirePositive([
            "maxDuration": maxDuration, "maxImagePixels": maxImagePixels.map(Double.init), "leaseSeconds": leaseSeconds,
            "jobTimeoutSeconds": jobTimeoutSeconds, "lightWorkerConcurrency": Double(lightWorkerConcurrency),
        ])
        if let preset, !Self.x264Presets.contains(preset) {
            throw ConfigurationError("preset must be one of \(Self.x264Presets.joined(separator: ", "))")
        }
    }
}
