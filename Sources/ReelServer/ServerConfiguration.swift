import Foundation
import ReelStore

/// Everything an operator can set. Layered by `ConfigurationLoader`: these defaults, then a
/// JSON config file, then `REELHOUSE_*` environment variables, then command-line flags.
public struct ServerConfiguration: Codable, Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Signed media URLs expire at the end of the current window plus the margin, so every
    /// client in one window gets the same URL and browser/CDN caches hit. Tests shorten the
    /// window to a few seconds (`REELHOUSE_MEDIA_TOKEN_WINDOW=4 REELHOUSE_MEDIA_TOKEN_MARGIN=0`) to
    /// watch clients recover from a real expiry.
    public var mediaTokenWindowSeconds = 3600
    public var mediaTokenMarginSeconds = 900
    /// Seed 000's routes (`/api/feed/random`, `/videos/{folder}/index.m3u8`…), off unless a seed
    /// 000 client is used: their playlists and encrypted segments are served without credentials
    /// (the key route checks the caller's libraries).
    public var compatRoutes = false
    /// The custom URL scheme seed 000's resource loader intercepts for key requests.
    public var compatKeyScheme = "lockdown"
    /// Login limits per `loginWindowSeconds` (see `SessionController`): attempts per address
    /// (PeerTube: 15 per 5 min), wrong passwords per account from one address, and the
    /// account's backstop over all addresses (it refuses only addresses that failed themselves).
    public var loginAttemptsPerIP = 15
    public var loginAttemptsPerAccount = 15
    public var loginFailuresPerAccount = 100
    public var loginWindowSeconds = 300
    /// API requests per credential per minute.
    public var apiRequestsPerMinute = 1200
    /// Comma-separated addresses of the proxies in front of this node (the nginx edge, a CDN):
    /// from them, `X-Forwarded-For` names the client that per-IP limits count.
    public var trustedProxies = ""
    public var sessionDays = 30
    /// Seconds a verified key or session is remembered per node (a revocation takes effect
    /// within this time); 0 checks the database on every request.
    public var credentialCacheSeconds = 5
    /// Seconds a node remembers what a person may see for their media URLs (`MediaAccess`): a
    /// revoked grant or key, a changed password or a removed library ends the URLs already
    /// issued within this time (plus the edge's 30 s); 0 checks on every request.
    public var mediaAccessCacheSeconds = 20
    /// Serve `/metrics` (requires an owner's credentials).
    public var metrics = true
    /// What this node does (docs/scale-out.md): `all` serves HTTP and, when `worker` is on,
    /// runs jobs; `api` only serves (stateless nodes behind a balancer); `worker` only runs jobs.
    public var role = "all"
    /// Run the transcode worker inside the server process (with role `all`).
    public var worker = true
    public var workerConcurrency: Int?

    public static let roles = ["all", "api", "worker"]
    /// Whether this node listens for HTTP.
    public var servesHTTP: Bool { role != "worker" }
    /// Whether this node runs the job workers.
    public var runsJobs: Bool { role == "worker" || (role == "all" && worker) }
    /// Server-sent event streams (job progress) one user may hold open at once, and how long
    /// one lasts before the server ends it (the browser's EventSource reconnects by itself).
    public var eventStreamsPerUser = 4
    public var eventStreamLifetimeSeconds = 600
    /// Largest JSON request body.
    public var maxBodyBytes = 64 * 1024
    /// Serve the benchmark baseline route (owner only). Off in production.
    public var benchmarkBaselines = false
    /// Generation: the provider used when a request names none ("local" needs nothing;
    /// "openai" needs `OPENAI_API_KEY` in the environment), and per-user limits.
    public var generationProvider = "local"
    public var generationsPerMinute = 6
    public var generationsPerDay = 20
    /// OpenAI-compatible endpoint for the "openai" provider (tests and gateways change it).
    public var openAIBaseURL = "https://api.openai.com"
    public var pexelsBaseURL = "https://api.pexels.com"
    public var openAIVideoModel = "sora-2"
    /// Upload size policy (seed 004): larger uploads are refused at creation; videos above
    /// `uploadCompressAboveBytes` are compressed to H.264 ≤ 1080p30 before their ladder and
    /// the compressed file kept (the original too when `keepOriginalUploads`).
    public var uploadMaxBytes = 50_000_000
    public var uploadCompressAboveBytes = 10_000_000
    public var keepOriginalUploads = false
    /// An incomplete upload is deleted this long after it was created.
    public var uploadExpirySeconds = 86_400
    /// How long an upload's completing PATCH waits for its import before answering with the
    /// import job alone (the client then follows the job or asks HEAD). 0 answers at once.
    public var uploadImportWaitSeconds: Double = 20
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
    /// shorten both), the slots of the light worker (upload imports and generation steps, which
    /// must not wait behind a transcode), and the bounds of each new generation's job.
    public var leaseSeconds: Double?
    public var jobTimeoutSeconds: Double?
    public var lightWorkerConcurrency = 2
    public var generationMaxAttempts = GenerationJobLimits().maxAttempts
    public var generationTimeLimitSeconds = Int(GenerationJobLimits().timeLimit)
    /// The resume rule (`ResumeRule`): positions are resumed, and listed under Continue
    /// watching, for posts of at least `resumeMinDuration` seconds, between the two fractions.
    public var resumeMinDuration = ResumeRule().minDuration
    public var resumeMinFraction = ResumeRule().minFraction
    public var resumeMaxFraction = ResumeRule().maxFraction

    /// Stories: how long one stays in the tray, how long a photo shows, and whether the owner
    /// keeps an archive of their expired stories (else the expiry sweep deletes them).
    public var storyLifetimeHours: Double = 24
    public var storyPhotoSeconds: Double = 5
    public var storyArchive = true

    /// A story's lifetime in seconds.
    public var storyLifetime: TimeInterval { storyLifetimeHours * 3600 }

    /// For You: how long raw watch events are kept (`events.expire`); events older than this
    /// are refused at ingest too. The aggregates they fed (signals, affinities) stay.
    public var eventRetentionDays = 180
    public static let eventRetentionRange = 1...3650

    public var eventRetention: TimeInterval { TimeInterval(eventRetentionDays) * 86_400 }

    /// For You: how often `recs.neighbors` rebuilds the item-to-item neighbours from the events.
    public var neighborRefreshMinutes: Double = 10

    /// Scale-out (docs/scale-out.md): the metadata store as `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`
    /// (nil: SQLite in the data folder), and how many connections each node's pool may hold.
    public var databaseUrl: String?
    public var databasePool = 8
    public static let databasePoolRange = 1...1000

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

    /// Whether `storage` names a bucket rather than the data folder.
    public var usesObjectStorage: Bool { storage.map { $0.lowercased().hasPrefix("s3://") } ?? false }

    public var resumeRule: ResumeRule {
        ResumeRule(minDuration: resumeMinDuration, minFraction: resumeMinFraction, maxFraction: resumeMaxFraction)
    }

    public init() {}
}
