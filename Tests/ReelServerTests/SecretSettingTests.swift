import Foundation
import ReelTestFiles
import Testing
@testable import ReelServer

/// Secrets (`SecretSetting.all`) come from the config file, the environment or a file named by
/// a `--…-file` flag, in that order of strength, and are never shown.
@Suite("Secrets go through the settings table")
struct SecretSettingTests {
    func value(_ configuration: ServerConfiguration, _ key: String) -> String? {
        configuration.values[key] as? String
    }

    @Test(arguments: SecretSetting.all)
    func fileEnvironmentAndFileFlagEachSetIt(_ secret: SecretSetting) throws {
        // Long enough for `secret`, which must be at least 32 characters.
        let fromFile = String(repeating: "f", count: 40), fromEnvironment = String(repeating: "e", count: 40)
        let fromFlag = String(repeating: "g", count: 40)
        #expect(value(try ConfigurationLoader.load(file: nil, environment: [:], overrides: [:]), secret.key) == nil)

        let file = try JSONSerialization.data(withJSONObject: [secret.key: fromFile])
        #expect(value(try ConfigurationLoader.load(file: file, environment: [:], overrides: [:]), secret.key) == fromFile)

        let environment = [secret.environment: fromEnvironment]
        #expect(value(try ConfigurationLoader.load(file: file, environment: environment, overrides: [:]), secret.key) == fromEnvironment)

        // The flag names a file; the loader reads it (here through the injected reader).
        let flags = try ConfigurationFlags.parse([secret.fileFlag, "/run/secrets/x"])
        #expect(flags == [secret.key: "/run/secrets/x"])
        let loaded = try ConfigurationLoader.load(file: file, environment: environment, overrides: flags) { path, flag in
            #expect(path == "/run/secrets/x" && flag == secret.fileFlag)
            return fromFlag
        }
        #expect(value(loaded, secret.key) == fromFlag)
        #expect(try ConfigurationFlags.parse(["\(secret.fileFlag)=/a/b"]) == [secret.key: "/a/b"])
    }

    @Test func aFileFlagReadsTheFileWithoutItsLastNewline() throws {
        let folder = try TemporaryFolder(prefix: "secret-file")
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("openai")
        try Data("sk-test-0123456789\n".utf8).write(to: file)
        let flags = try ConfigurationFlags.parse(["--openai-api-key-file", file.path])
        #expect(try ConfigurationLoader.load(file: nil, environment: [:], overrides: flags).openAIApiKey == "sk-test-0123456789")

        // A missing or empty file is named with its flag; the loader never guesses.
        let missing = folder.url.appendingPathComponent("nothing").path
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.load(file: nil, environment: [:], overrides: ConfigurationFlags.parse(["--pexels-key-file", missing]))
        }
        #expect(error?.description == "--pexels-key-file: cannot read \(missing)")
        try Data("\n".utf8).write(to: file)
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.load(file: nil, environment: [:], overrides: flags) }
        #expect(throws: ConfigurationError.self) { try ConfigurationFlags.parse(["--secret-file"]) }
    }

    /// No secret is ever a value on the command line: it would show in every process list.
    @Test func aSecretHasNoValueFlag() {
        #expect(throws: ConfigurationError.self) { try ConfigurationFlags.parse(["--secret", String(repeating: "s", count: 40)]) }
        #expect(throws: ConfigurationError.self) { try ConfigurationFlags.parse(["--openai-api-key", "sk-1"]) }
        #expect(Set(SecretSetting.all.map(\.fileFlag)).isDisjoint(with: ConfigurationSetting.all.map(\.flag)))
    }

    @Test func secretsAreNeverShown() throws {
        let texts = SecretSetting.all.map { "\($0.key)-\(String(repeating: "x", count: 40))" }
        let environment = Dictionary(uniqueKeysWithValues: zip(SecretSetting.all.map(\.environment), texts))
        let configuration = try ConfigurationLoader.load(
            file: nil, environment: environment.merging(["REELHOUSE_STORAGE": "s3://b"]) { $1 }, overrides: [:]
        )
        #expect(configuration.openAIApiKey == texts[1])
        let shown = "\(configuration)"
        #expect(shown.contains("openAIApiKey: <set>") && shown.contains("port: 8080"))
        #expect(texts.allSatisfy { !shown.contains($0) })
        #expect(texts.allSatisfy { !SecretSetting.helpText.contains($0) })

        // A secret too short to sign with is refused by its key, without echoing it.
        let short = "tiny-secret-value"
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.load(file: nil, environment: ["REELHOUSE_SECRET": short], overrides: [:])
        }
        #expect(error.map { !$0.description.contains(short) && $0.description.contains("REELHOUSE_SECRET") } == true)
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.load(file: Data(#"{"openAIApiKey": 5}"#.utf8), environment: [:], overrides: [:])
        }
    }
}
