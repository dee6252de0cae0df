import Foundation

/// One declaration per secret: its `NodeSettings` property and config-file key, its
/// environment variable, and a `--…-file` flag that names a file holding it. A secret has no
/// value flag, because a command line is readable by every user of the machine (`ps`).
///
/// Secrets are never printed: `serve --help` names them without a value, a setting error names
/// the key and never the text, and `ServerConfiguration.description` masks them.
public struct SecretSetting: Sendable, Equatable {
    /// The `NodeSettings` property and config-file key.
    public let key: String
    /// The variable the usual tools already read (`OPENAI_API_KEY`, AWS's keys) or ours.
    public let environment: String
    /// `--openai-api-key-file /run/secrets/openai`: the file's text, without its last newline.
    public let fileFlag: String
    public let help: String

    init(_ key: String, env: String, fileFlag: String, _ help: String) {
        self.key = key
        self.environment = env
        self.fileFlag = fileFlag
        self.help = help
    }
}

extension SecretSetting {
    public static let all: [SecretSetting] = [
        .init("secret", env: "REELHOUSE_SECRET", fileFlag: "--secret-file",
              "HMAC secret of media tokens and cursors, the same on every API node (at least 32 characters; default: <data>/secret.key, made once)."),
        .init("openAIApiKey", env: "OPENAI_API_KEY", fileFlag: "--openai-api-key-file",
              "API key of the openai generation provider (without it, only the local provider runs)."),
        .init("pexelsKey", env: "REELHOUSE_PEXELS_KEY", fileFlag: "--pexels-key-file", "Pexels API key for `reelhouse source pexels`."),
        .init("s3AccessKeyId", env: "AWS_ACCESS_KEY_ID", fileFlag: "--s3-access-key-id-file", "Access key of the storage bucket."),
        .init("s3SecretAccessKey", env: "AWS_SECRET_ACCESS_KEY", fileFlag: "--s3-secret-access-key-file", "Secret key of the storage bucket."),
        .init("s3SessionToken", env: "AWS_SESSION_TOKEN", fileFlag: "--s3-session-token-file", "Session token of temporary bucket keys."),
    ]

    public static let keys = Set(all.map(\.key))

    public static func named(_ key: String) -> SecretSetting? { all.first { $0.key == key } }

    /// The secrets part of `serve --help`: where each may come from, never a value.
    public static var helpText: String {
        all.map { "\($0.fileFlag) <path>  \($0.help)\n    env \($0.environment), config key \"\($0.key)\"" }.joined(separator: "\n")
    }

    /// Reads a `--…-file` flag's file: its text without the trailing newline an editor adds.
    /// The error names the flag and the path, never the content.
    public static func readFile(_ path: String, flag: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError("\(flag): cannot read \(path)")
        }
        let value = text.trimmingCharacters(in: .newlines)
        guard !value.isEmpty else { throw ConfigurationError("\(flag): \(path) is empty") }
        return value
    }
}

extension ServerConfiguration: CustomStringConvertible {
    /// Every setting as its config key, with each secret that is set shown as `<set>`: a
    /// configuration may be logged or printed in a test failure, a secret never.
    public var description: String {
        let values = self.values
        return values.keys.sorted().map { key in
            "\(key): " + (SecretSetting.keys.contains(key) ? "<set>" : "\(values[key] ?? "")")
        }.joined(separator: ", ")
    }
}
