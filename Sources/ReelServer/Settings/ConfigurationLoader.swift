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
        var merged = ServerConfiguration().values
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
            configuration = try ServerConfiguration(object: data)
        } catch {
            throw ConfigurationError("a setting has the wrong type: \(error)")
        }
        try configuration.validate()
        return configuration
    }

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
