import Foundation
import ReelServer
import ReelStorage

/// The HMAC secret for media tokens and cursors: the `secret` setting (`REELHOUSE_SECRET`,
/// the config file or `--secret-file`, so several API nodes share it), else
/// `<data>/secret.key`, created once with 32 random bytes, mode 0600.
enum ServerSecret {
    static func load(dataFolder: DataFolder, configured: String?) throws -> Data {
        if let configured { return Data(configured.utf8) }   // at least 32 characters: ConfigurationLoader
        let file = dataFolder.root.appendingPathComponent("secret.key")
        if FileManager.default.fileExists(atPath: file.path) {
            guard let data = try? Data(contentsOf: file) else {
                throw CLIError("serve: cannot read \(file.path): fix its permissions (every signed URL and cursor depends on it)")
            }
            guard data.count >= 32 else {
                throw CLIError("serve: \(file.path) holds \(data.count) bytes, not a secret of at least 32: restore it or delete it to make a new one")
            }
            return data
        }
        // A secret that cannot be kept would change on every start and break every URL and
        // cursor a client holds, so the server refuses to start instead.
        var generator = SystemRandomNumberGenerator()
        let secret = Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        guard FileManager.default.createFile(atPath: file.path, contents: secret, attributes: [.posixPermissions: 0o600]),
              (try? Data(contentsOf: file)) == secret
        else {
            throw CLIError("serve: cannot write \(file.path): make the data folder writable, or set REELHOUSE_SECRET")
        }
        return secret
    }

    /// The secret `serve` would use, without making one: the configured one, else
    /// `<dataPath>/secret.key` when a data folder is named; nil when there is none yet.
    static func existing(dataPath: String?, configured: String?) throws -> Data? {
        if let configured { return Data(configured.utf8) }
        guard let dataPath else { return nil }
        let file = URL(fileURLWithPath: dataPath).appendingPathComponent("secret.key")
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        guard let secret = try? Data(contentsOf: file) else { throw CLIError("edge nginx: cannot read \(file.path): run it as a user who can") }
        return secret
    }
}
