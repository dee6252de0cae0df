import Foundation

/// One declaration per operator setting. The config-file key (a property of its feature's
/// `FeatureSettings`), the `REELHOUSE_*` environment variable, the `serve` flag and the `serve --help`
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

    /// The property of its `FeatureSettings` type, and the config-file key.
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
    /// Every setting: the node's own and each feature's (`FeatureSettings.declarations`), in the
    /// order `serve --help` lists them.
    public static let all: [ConfigurationSetting] = ServerConfiguration.settingsTypes.flatMap { $0.declarations }

    public static func named(_ key: String) -> ConfigurationSetting? { all.first { $0.key == key } }

    /// The settings part of `serve --help`: every flag with its variable and default.
    public static func helpText(defaults: ServerConfiguration = ServerConfiguration()) -> String {
        let values = defaults.values
        return all.map { setting in
            let value = setting.kind == .boolean ? "" : " <value>"
            let fallback = setting.defaultText(in: values).map { " (default \($0))" } ?? ""
            return "\(setting.flag)\(value)  \(setting.help)\(fallback)\n    env \(setting.environment), config key \"\(setting.key)\""
        }.joined(separator: "\n")
    }

    /// This setting's value in `values` (`ServerConfiguration.values`) as help shows it; nil when it has none (it is worked out at run time).
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
