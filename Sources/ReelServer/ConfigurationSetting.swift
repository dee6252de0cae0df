import Foundation

/// One declaration per operator setting. The config-file key (a `ServerConfiguration`
/// property), the `REELHOUSE_*` environment variable, the `serve` flag and the `serve --help`
/// text are all derived from this table, and a test sets every entry each of those ways.
///
/// Why not swift-configuration: its providers (JSON file, environment, command line) match our
/// layers, but it cannot give ArgumentParser's `--help` the same declarations, keeps values in a
/// reader rather than a typed `Codable` struct that tests build directly, and would be one more
/// package in every client build; this table is the part of it we need.
public struct ConfigurationSetting: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// `number` takes a fraction (`2.5` seconds); `integer` does not.
        case boolean, integer, number, text
    }

    /// The `ServerConfiguration` property and config-file key.
    public let key: String
    public let kind: Kind
    public let environment: String
    public let help: String
    /// A valid value other than the default: the reachability test sets it every way.
    public let example: String

    init(_ key: String, _ kind: Kind, env: String, example: String, _ help: String) {
        self.key = key
        self.kind = kind
        self.environment = env
        self.example = example
        self.help = help
    }

    /// `--media-token-window-seconds`; booleans also take `--no-…`.
    public var flag: String {
        "--" + key.reduce(into: "") { name, character in
            if character.isUppercase { name += "-" + character.lowercased() } else { name.append(character) }
        }
    }

    public var negatedFlag: String? { kind == .boolean ? "--no-" + flag.dropFirst(2) : nil }
}

extension ConfigurationSetting {
    /// Every setting: the node's own (`node`) and each feature's (`ServerFeature.settings`), in
    /// the order `serve --help` lists them.
    public static let all: [ConfigurationSetting] = node + ServerFeatures.standard.flatMap(\.settings)

    /// What every node has whatever its features: where it listens and keeps its data, what it
    /// runs, and what the media pipeline accepts and makes.
    static let node: [ConfigurationSetting] = [
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

    public static func named(_ key: String) -> ConfigurationSetting? { all.first { $0.key == key } }

    /// The settings part of `serve --help`: every flag with its variable and default.
    public static func helpText(defaults: ServerConfiguration = ServerConfiguration()) -> String {
        let values = Self.values(of: defaults)
        return all.map { setting in
            let value = setting.kind == .boolean ? "" : " <value>"
            let fallback = setting.defaultText(in: values).map { " (default \($0))" } ?? ""
            return "\(setting.flag)\(value)  \(setting.help)\(fallback)\n    env \(setting.environment), config key \"\(setting.key)\""
        }.joined(separator: "\n")
    }

    /// The configuration as config-file keys and values, for `defaultText(in:)`.
    public static func values(of configuration: ServerConfiguration) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: JSONEncoder().encode(configuration)) as? [String: Any]) ?? [:]
    }

    /// This setting's value as help shows it; nil when it has none (it is worked out at run time).
    public func defaultText(in values: [String: Any]) -> String? {
        guard let value = values[key] else { return nil }
        // Foundation on Linux hands booleans back as numbers, which would print as 1 or 0.
        if kind == .boolean, let flag = value as? Bool { return String(flag) }
        return "\(value)"
    }
}

/// Turns `serve`'s setting flags (`--port 0`, `--port=0`, `--worker`, `--no-worker`,
/// `--secret-file PATH`) into config keys and text values for `ConfigurationLoader`.
public enum ConfigurationFlags {
    public static func parse(_ arguments: [String]) throws -> [String: String] {
        var values: [String: String] = [:]
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0]
            if let secret = SecretSetting.all.first(where: { $0.fileFlag == name }) {
                // The path, read by `ConfigurationLoader`: the secret itself never is an argument.
                if parts.count == 2 {
                    values[secret.key] = parts[1]
                } else if let path = remaining.popFirst() {
                    values[secret.key] = path
                } else {
                    throw ConfigurationError("\(name) needs a path")
                }
                continue
            }
            if let setting = ConfigurationSetting.all.first(where: { $0.negatedFlag == name }) {
                guard parts.count == 1 else { throw ConfigurationError("\(name) takes no value") }
                values[setting.key] = "false"
                continue
            }
            guard let setting = ConfigurationSetting.all.first(where: { $0.flag == name }) else {
                throw ConfigurationError("unknown option \(argument) (see serve --help)")
            }
            if parts.count == 2 {
                values[setting.key] = parts[1]
            } else if setting.kind == .boolean {
                values[setting.key] = "true"
            } else if let value = remaining.popFirst() {
                values[setting.key] = value
            } else {
                throw ConfigurationError("\(name) needs a value")
            }
        }
        return values
    }
}
