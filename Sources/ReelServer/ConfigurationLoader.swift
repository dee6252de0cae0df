import Foundation

/// Layers configuration: defaults < JSON config file < environment < flags, for the settings
/// (`ConfigurationSetting`) and the secrets (`SecretSetting`) alike.
/// Pure but for a secret's `--…-file`: the caller passes the file's bytes, the environment and
/// the flags it parsed, and may pass the reader of those files.
public enum ConfigurationLoader {
    /// Environment variable → config key, from `ConfigurationSetting.all`.
    public static let environmentKeys: [String: String] = Dictionary(
        uniqueKeysWithValues: ConfigurationSetting.all.map { ($0.environment, $0.key) }
    )

    /// `overrides` are flag values by config key; a secret's is the path its `--…-file` flag named.
    public static func load(
        file: Data?, environment: [String: String], overrides: [String: String],
        readSecretFile: (_ path: String, _ flag: String) throws -> String = SecretSetting.readFile
    ) throws -> ServerConfiguration {
        var merged = try JSONSerialization.jsonObject(with: JSONEncoder().encode(ServerConfiguration())) as? [String: Any] ?? [:]
        if let file, !file.isEmpty {
            guard let values = try? JSONSerialization.jsonObject(with: file) as? [String: Any] else {
                throw ConfigurationError("the config file is not a JSON object")
            }
            for (key, value) in values {
                if SecretSetting.keys.contains(key) {
                    guard value is String else { throw ConfigurationError("\(key) must be a string") }
                    merged[key] = value
                    continue
                }
                guard ConfigurationSetting.named(key) != nil else { throw ConfigurationError("unknown setting \"\(key)\" in the config file") }
                merged[key] = value
            }
        }
        for (variable, key) in environmentKeys {
            if let text = environment[variable], !text.isEmpty { merged[key] = try typed(text, key: key, name: variable) }
        }
        for secret in SecretSetting.all {
            if let text = environment[secret.environment], !text.isEmpty { merged[secret.key] = text }
        }
        for (key, text) in overrides {
            if let secret = SecretSetting.named(key) {
                merged[key] = try readSecretFile(text, secret.fileFlag)
                continue
            }
            guard let setting = ConfigurationSetting.named(key) else { throw ConfigurationError("unknown setting \(key)") }
            merged[key] = try typed(text, key: key, name: setting.flag)
        }
        let data = try JSONSerialization.data(withJSONObject: merged)
        let configuration: ServerConfiguration
        do {
            configuration = try JSONDecoder().decode(ServerConfiguration.self, from: data)
        } catch {
            throw ConfigurationError("a setting has the wrong type: \(error)")
        }
        try validate(configuration)
        return configuration
    }

    /// Values that decode but make no sense are refused at startup, not at the first request.
    static func validate(_ configuration: ServerConfiguration) throws {
        if let storage = configuration.storage, !storage.isEmpty, !configuration.usesObjectStorage, !storage.lowercased().hasPrefix("file:") {
            throw ConfigurationError("storage must be file: (the data folder) or s3://BUCKET[/PREFIX]?endpoint=…&region=…")
        }
        if configuration.usesObjectStorage, (configuration.s3AccessKeyId ?? "").isEmpty || (configuration.s3SecretAccessKey ?? "").isEmpty {
            throw ConfigurationError(
                "storage s3://… needs keys: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or s3AccessKeyId and s3SecretAccessKey in the config file"
            )
        }
        if let secret = configuration.secret, secret.count < 32 {
            throw ConfigurationError("secret (REELHOUSE_SECRET) must be at least 32 characters")
        }
        let scheme = configuration.compatKeyScheme
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
              !["http", "https"].contains(scheme.lowercased())
        else {
            throw ConfigurationError("compatKeyScheme must be a custom URL scheme such as lockdown (not http or https)")
        }
        guard ServerConfiguration.roles.contains(configuration.role) else {
            throw ConfigurationError("role must be all, api or worker, not \"\(configuration.role)\"")
        }
        guard (0...65535).contains(configuration.port) else { throw ConfigurationError("port must be between 0 and 65535") }
        // Short windows exist for tests that watch a URL expire; production keeps the hour.
        guard configuration.mediaTokenWindowSeconds >= 2 else { throw ConfigurationError("mediaTokenWindowSeconds must be at least 2") }
        guard ["local", "openai"].contains(configuration.generationProvider) else {
            throw ConfigurationError("generationProvider must be local or openai")
        }
        guard configuration.uploadMaxBytes >= 1, configuration.uploadCompressAboveBytes >= 0, configuration.uploadExpirySeconds >= 60 else {
            throw ConfigurationError("uploadMaxBytes must be positive, uploadCompressAboveBytes not negative, uploadExpirySeconds at least 60")
        }
        guard (0...600).contains(configuration.uploadImportWaitSeconds) else {
            throw ConfigurationError("uploadImportWaitSeconds must be between 0 and 600")
        }
        guard configuration.loginAttemptsPerIP >= 1, configuration.loginAttemptsPerAccount >= 1, configuration.loginFailuresPerAccount >= 1 else {
            throw ConfigurationError("loginAttemptsPerIP, loginAttemptsPerAccount and loginFailuresPerAccount must be at least 1")
        }
        guard configuration.eventStreamsPerUser >= 1, configuration.eventStreamLifetimeSeconds >= 1 else {
            throw ConfigurationError("eventStreamsPerUser and eventStreamLifetimeSeconds must be at least 1")
        }
        guard configuration.generationsPerMinute >= 1, configuration.generationsPerDay >= 1 else {
            throw ConfigurationError("generationsPerMinute and generationsPerDay must be at least 1")
        }
        guard configuration.generationMaxAttempts >= 1, configuration.generationTimeLimitSeconds >= 1 else {
            throw ConfigurationError("generationMaxAttempts and generationTimeLimitSeconds must be at least 1")
        }
        guard configuration.resumeMinDuration >= 0,
              0...1 ~= configuration.resumeMinFraction, 0...1 ~= configuration.resumeMaxFraction,
              configuration.resumeMinFraction <= configuration.resumeMaxFraction else {
            throw ConfigurationError("resumeMinDuration must not be negative, and 0 ≤ resumeMinFraction ≤ resumeMaxFraction ≤ 1")
        }
        guard ServerConfiguration.eventRetentionRange.contains(configuration.eventRetentionDays) else {
            throw ConfigurationError("eventRetentionDays must be between 1 and 3650")
        }
        guard ServerConfiguration.databasePoolRange.contains(configuration.databasePool) else {
            throw ConfigurationError("databasePool must be between 1 and 1000")
        }
        if let url = configuration.databaseUrl, !["postgres://", "postgresql://"].contains(where: url.lowercased().hasPrefix) {
            // Never echo the value: it may hold a password.
            throw ConfigurationError("databaseUrl must be a postgres:// URL (leave it unset for SQLite)")
        }
        let positive: [(String, Double?)] = [
            ("maxDuration", configuration.maxDuration), ("maxImagePixels", configuration.maxImagePixels.map(Double.init)),
            ("leaseSeconds", configuration.leaseSeconds), ("jobTimeoutSeconds", configuration.jobTimeoutSeconds),
            ("lightWorkerConcurrency", Double(configuration.lightWorkerConcurrency)),
            ("storyLifetimeHours", configuration.storyLifetimeHours), ("storyPhotoSeconds", configuration.storyPhotoSeconds),
            ("neighborRefreshMinutes", configuration.neighborRefreshMinutes),
        ]
        if let (key, _) = positive.first(where: { ($0.1 ?? 1) <= 0 }) { throw ConfigurationError("\(key) must be positive") }
        if let preset = configuration.preset, !x264Presets.contains(preset) {
            throw ConfigurationError("preset must be one of \(x264Presets.joined(separator: ", "))")
        }
    }

    /// Checked at startup: an unknown one would only fail each transcode, attempt after attempt.
    static let x264Presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]

    static let booleans = Set(ConfigurationSetting.all.filter { $0.kind == .boolean }.map(\.key))
    static let integers = Set(ConfigurationSetting.all.filter { $0.kind == .integer }.map(\.key))
    static let numbers = Set(ConfigurationSetting.all.filter { $0.kind == .number }.map(\.key))

    /// Converts a string from the environment or a flag to the setting's type.
    static func typed(_ text: String, key: String, name: String) throws -> Any {
        if booleans.contains(key) {
            switch text.lowercased() {
            case "1", "true", "yes", "on": return true
            case "0", "false", "no", "off": return false
            default: throw ConfigurationError("\(name) must be true or false")
            }
        }
        if integers.contains(key) {
            guard let value = Int(text) else { throw ConfigurationError("\(name) must be an integer") }
            return value
        }
        if numbers.contains(key) {
            guard let value = Double(text), value.isFinite else { throw ConfigurationError("\(name) must be a number") }
            return value
        }
        return text
    }
}

public struct ConfigurationError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
