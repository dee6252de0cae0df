import Crypto
import Foundation
import ReelModels
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelServer

@Suite("Media tokens")
struct MediaTokenTests {
    let signer = MediaTokenSigner(secret: Data("k".utf8), windowSeconds: 3600, marginSeconds: 600)
    let now = Date(timeIntervalSince1970: 1_700_000_123)

    @Test func expiryIsTheNextWindowBoundaryPlusTheMargin() {
        #expect(signer.expiry(now: now) == 1_700_002_800 + 600)
        // Same window → same token → shared caches.
        #expect(signer.token(postID: 5, now: now) == signer.token(postID: 5, now: now.addingTimeInterval(1000)))
        #expect(signer.token(postID: 5, now: now) != signer.token(postID: 5, now: now.addingTimeInterval(3600)))
    }

    @Test func verifiesOnlyTheRightPostBeforeExpiry() {
        let token = signer.token(postID: 5, now: now)
        #expect(signer.check(token, postID: 5, now: now).map(\.viewer) == .success(nil))
        #expect(signer.check(token, postID: 6, now: now).map(\.viewer) == .failure(.badSignature))
        #expect(signer.check(token, postID: 5, now: now.addingTimeInterval(7200)).map(\.viewer) == .failure(.expired))
        var chars = Array(token)
        chars[chars.count - 2] = chars[chars.count - 2] == "A" ? "B" : "A"
        #expect(signer.check(String(chars), postID: 5, now: now).map(\.viewer) == .failure(.badSignature))
        #expect(signer.check("", postID: 5, now: now).map(\.viewer) == .failure(.malformed))
        #expect(signer.check("..%2F", postID: 5, now: now).map(\.viewer) == .failure(.malformed))
        let other = MediaTokenSigner(secret: Data("other".utf8), windowSeconds: 3600, marginSeconds: 600)
        #expect(other.check(token, postID: 5, now: now).map(\.viewer) == .failure(.badSignature))
    }

    @Test("a token names its viewer (user, key, access fingerprint), and none of them can be changed")
    func tokensNameTheirViewer() {
        let viewers = [
            MediaViewer(userID: 42, keyID: nil, fingerprint: 0xDEAD_BEEF),
            MediaViewer(userID: 42, keyID: 7, fingerprint: 0),
            MediaViewer(userID: Int64.max, keyID: Int64.max, fingerprint: UInt32.max),
        ]
        for viewer in viewers {
            let token = signer.token(postID: 5, viewer: viewer, now: now)
            #expect(token.count <= MediaTokenSigner.maxLength)
            #expect(signer.check(token, postID: 5, now: now).map(\.viewer) == .success(viewer))
            #expect(signer.check(token, postID: 6, now: now).map(\.viewer) == .failure(.badSignature))
        }
        // Another viewer's bytes under this token's signature: a forgery.
        let mine = [UInt8](Base64URL.decode(signer.token(postID: 5, viewer: viewers[0], now: now))!)
        let theirs = [UInt8](Base64URL.decode(signer.token(postID: 5, viewer: MediaViewer(userID: 43, keyID: nil, fingerprint: 0xDEAD_BEEF), now: now))!)
        let swapped = Array(theirs.prefix(theirs.count - 16)) + mine.suffix(16)
        #expect(signer.check(Base64URL.encode(Data(swapped)), postID: 5, now: now).map(\.viewer) == .failure(.badSignature))
        // A viewer part that does not parse is malformed, not someone else.
        let garbled = Array(mine.prefix(8)) + Array("x42".utf8) + [0, 0, 0, 0] + mine.suffix(16)
        #expect(signer.check(Base64URL.encode(Data(garbled)), postID: 5, now: now).map(\.viewer) == .failure(.malformed))
    }

    /// The bytes other nodes (and `check`) read, computed here from the format's description
    /// with swift-crypto and Foundation's base64, not with the signer's own helpers.
    @Test("tokens, image signatures and cursors are the documented bytes")
    func theWireFormatIsTheDocumentedOne() {
        func base64url(_ bytes: [UInt8]) -> String {
            Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        func mac(_ purpose: String, _ message: String, _ count: Int) -> [UInt8] {
            let key = SymmetricKey(data: SHA256.hash(data: Data(purpose.utf8) + Data("k".utf8)))
            return Array(Array(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: key)).prefix(count))
        }
        let expiry: Int64 = 1_700_003_400
        let expiryBytes: [UInt8] = [0, 0, 0, 0, 0x65, 0x53, 0xFE, 0x48]
        #expect(expiryBytes == withUnsafeBytes(of: UInt64(expiry).bigEndian, Array.init))
        let viewer = MediaViewer(userID: 42, keyID: 7, fingerprint: 0xDEAD_BEEF)
        let named = expiryBytes + Array("u42k7".utf8) + [0xDE, 0xAD, 0xBE, 0xEF]
            + mac("reelhouse media token", "media|v2|5|1700003400|u42k7|3735928559", 16)
        #expect(signer.token(postID: 5, viewer: viewer, expiry: expiry) == base64url(named))
        let keyless = MediaViewer(userID: 9, keyID: nil, fingerprint: 1)
        let session = expiryBytes + Array("u9".utf8) + [0, 0, 0, 1] + mac("reelhouse media token", "media|v2|5|1700003400|u9|1", 16)
        #expect(signer.token(postID: 5, viewer: keyless, expiry: expiry) == base64url(session))
        let shared = expiryBytes + mac("reelhouse media token", "media|v2|5|1700003400|-", 16)
        #expect(signer.token(postID: 5, viewer: nil, expiry: expiry) == base64url(shared))
        let image = mac("reelhouse image url", "image|v1|3|abcd", 12)
        #expect(ImageURLSigner(secret: Data("k".utf8)).signature(postID: 3, contentHash: "abcd") == base64url(image))
        let cursor = CursorSigner(purpose: "reelhouse feed cursor", secret: Data("k".utf8)).seal(Data("page 2".utf8), context: "tags=cats")
        #expect(cursor == base64url(Array("page 2".utf8)) + "." + base64url(mac("reelhouse feed cursor", "page 2|tags=cats", 16)))
    }

    @Test func imageSignaturesArePermanentAndBoundToTheContentHash() {
        let images = ImageURLSigner(secret: Data("k".utf8))
        let signature = images.signature(postID: 3, contentHash: "abcd")
        #expect(images.verify(signature, postID: 3, contentHash: "abcd"))
        #expect(!images.verify(signature, postID: 3, contentHash: "abce"))
        #expect(!images.verify(signature, postID: 4, contentHash: "abcd"))
    }
}

@Suite("Configuration layering")
struct ConfigurationTests {
    @Test func defaultsThenFileThenEnvironmentThenFlags() throws {
        let file = Data(#"{"port": 9000, "host": "0.0.0.0", "compatRoutes": true}"#.utf8)
        let configuration = try ConfigurationLoader.load(
            file: file, environment: ["REELHOUSE_PORT": "9100", "REELHOUSE_WORKER": "false"], overrides: ["port": "9200"]
        )
        #expect(configuration.port == 9200)
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration[CompatSettings.self].compatRoutes == true)
        #expect(configuration.worker == false)
        #expect(configuration[MediaSettings.self].mediaTokenWindowSeconds == ServerConfiguration()[MediaSettings.self].mediaTokenWindowSeconds)
    }

    /// Each feature's settings are a value of their own type: changing one leaves the others at
    /// their defaults, shows in equality and in the config keys, and is checked by its own rules.
    @Test func eachFeatureKeepsItsOwnSettings() throws {
        var configuration = ServerConfiguration()
        configuration[UploadSettings.self].uploadMaxBytes = 1234
        #expect(configuration != ServerConfiguration())
        #expect(configuration[StorySettings.self] == StorySettings() && configuration.node == NodeSettings())
        #expect(configuration.values["uploadMaxBytes"] as? Int == 1234)
        var same = ServerConfiguration()
        same[UploadSettings.self] = configuration[UploadSettings.self]
        #expect(same == configuration)
        configuration[UploadSettings.self].uploadExpirySeconds = 1
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        #expect(throws: Never.self) { try same.validate() }
    }

    @Test func badValuesAreClearErrors() {
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.load(file: Data("[]".utf8), environment: [:], overrides: [:]) }
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.load(file: Data(#"{"prot": 1}"#.utf8), environment: [:], overrides: [:]) }
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.load(file: nil, environment: ["REELHOUSE_PORT": "eighty"], overrides: [:]) }
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.load(file: nil, environment: ["REELHOUSE_METRICS": "maybe"], overrides: [:]) }
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.load(file: nil, environment: ["REELHOUSE_LEASE_SECONDS": "soon"], overrides: [:]) }
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.load(file: nil, environment: ["REELHOUSE_JOB_TIMEOUT_SECONDS": "0"], overrides: [:]) }
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.load(file: nil, environment: ["REELHOUSE_PRESET": "bogus"], overrides: [:]) }
    }

    /// `storage` (docs/scale-out.md): the data folder, or a bucket whose keys come from AWS's
    /// variables or the config file's `s3AccessKeyId` / `s3SecretAccessKey`.
    @Test func storageAndS3Keys() throws {
        let s3 = "s3://reel-media?endpoint=http://127.0.0.1:8333&region=us-east-1"
        let fromEnvironment = try ConfigurationLoader.load(file: nil, environment: [
            "REELHOUSE_STORAGE": s3, "AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "SECRET", "AWS_SESSION_TOKEN": "TOKEN",
        ], overrides: [:])
        #expect(fromEnvironment.storage == s3 && fromEnvironment.usesObjectStorage)
        #expect(fromEnvironment.s3AccessKeyId == "AKID" && fromEnvironment.s3SecretAccessKey == "SECRET" && fromEnvironment.s3SessionToken == "TOKEN")

        let file = Data(#"{"storage": "s3://reel-media", "s3AccessKeyId": "FILEKEY", "s3SecretAccessKey": "FILESECRET"}"#.utf8)
        let fromFile = try ConfigurationLoader.load(file: file, environment: [:], overrides: [:])
        #expect(fromFile.s3AccessKeyId == "FILEKEY" && fromFile.s3SecretAccessKey == "FILESECRET")
        // The environment wins over the file, as for every setting.
        let both = try ConfigurationLoader.load(file: file, environment: ["AWS_ACCESS_KEY_ID": "ENVKEY"], overrides: ["storage": s3])
        #expect(both.s3AccessKeyId == "ENVKEY" && both.storage == s3)

        #expect(!(try ConfigurationLoader.load(file: nil, environment: [:], overrides: [:])).usesObjectStorage)
        #expect(!(try ConfigurationLoader.load(file: nil, environment: [:], overrides: ["storage": "file:"])).usesObjectStorage)
        // A bucket without keys, or a storage that is neither, is refused at startup.
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.load(file: nil, environment: ["REELHOUSE_STORAGE": s3], overrides: [:]) }
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.load(file: nil, environment: ["REELHOUSE_STORAGE": s3, "AWS_ACCESS_KEY_ID": "AKID"], overrides: [:])
        }
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.load(file: nil, environment: [:], overrides: ["storage": "ftp://x"]) }
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.load(file: Data(#"{"s3SecretAccessKey": 5}"#.utf8), environment: [:], overrides: [:])
        }
    }

    /// The media and job settings kept the variable names and flags tests and scripts use.
    @Test func mediaAndJobSettingsKeepTheirOldSpellings() throws {
        let environment = ["REELHOUSE_ENCRYPT": "0", "REELHOUSE_PRESET": "ultrafast", "REELHOUSE_LEASE_SECONDS": "2", "REELHOUSE_MAX_DURATION": "5"]
        let fromEnvironment = try ConfigurationLoader.load(file: nil, environment: environment, overrides: [:])
        #expect(!fromEnvironment.encryption && fromEnvironment.preset == "ultrafast")
        #expect(fromEnvironment.leaseSeconds == 2 && fromEnvironment.maxDuration == 5)
        let flags = try ConfigurationFlags.parse(["--no-encryption", "--preset", "ultrafast", "--max-duration", "2.5", "--max-image-pixels", "2000000"])
        let fromFlags = try ConfigurationLoader.load(file: nil, environment: [:], overrides: flags)
        #expect(!fromFlags.encryption && fromFlags.preset == "ultrafast")
        #expect(fromFlags.maxDuration == 2.5 && fromFlags.maxImagePixels == 2_000_000)
    }
}

@Suite("Every setting is reachable each way")
struct ConfigurationSettingTests {
    /// One value as JSON text (`true`, `9090`, `"0.0.0.0"`), to compare whatever its type.
    func json(_ value: Any?) throws -> String? {
        guard let value else { return nil }
        let data = try JSONSerialization.data(withJSONObject: [value], options: [.withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    func value(_ configuration: ServerConfiguration, _ key: String) throws -> String? {
        try json(configuration.values[key])
    }

    func expected(_ setting: ConfigurationSetting) throws -> String? {
        try json(ConfigurationLoader.typed(setting.example, key: setting.key, name: setting.key))
    }

    @Test func theTableDeclaresEveryPropertyOnce() {
        // Secrets are declared in their own table (no value flag): `SecretSettingTests`. Each
        // settings type declares its own properties, and no two types share a key.
        var properties: [String] = []
        for type in ServerConfiguration.settingsTypes {
            let own = Mirror(reflecting: type.init()).children.compactMap(\.label)
            #expect(Set(type.declarations.map(\.key)) == Set(own).subtracting(SecretSetting.keys), "\(type)")
            properties += own
        }
        let keys = ConfigurationSetting.all.map(\.key)
        #expect(Set(keys).union(SecretSetting.keys) == Set(properties) && Set(properties).count == properties.count)
        #expect(Set(keys).isDisjoint(with: SecretSetting.keys))
        #expect(Set(keys).count == keys.count)
        #expect(Set(ConfigurationSetting.all.map(\.environment)).count == keys.count)
        #expect(ConfigurationSetting.all.allSatisfy { $0.environment.hasPrefix("REELHOUSE_") })
    }

    @Test(arguments: ConfigurationSetting.all)
    func fileEnvironmentAndFlagEachSetIt(_ setting: ConfigurationSetting) throws {
        let defaults = try value(ServerConfiguration(), setting.key)
        let expected = try expected(setting)
        #expect(defaults != expected, "the example for \(setting.key) must differ from its default")

        let typed = try ConfigurationLoader.typed(setting.example, key: setting.key, name: setting.key)
        let file = try JSONSerialization.data(withJSONObject: [setting.key: typed])
        let fromFile = try ConfigurationLoader.load(file: file, environment: [:], overrides: [:])
        #expect(try value(fromFile, setting.key) == expected)

        let fromEnvironment = try ConfigurationLoader.load(file: nil, environment: [setting.environment: setting.example], overrides: [:])
        #expect(try value(fromEnvironment, setting.key) == expected)

        let arguments = setting.kind == .boolean
            ? [setting.example == "true" ? setting.flag : setting.negatedFlag!]
            : [setting.flag, setting.example]
        let fromFlag = try ConfigurationLoader.load(file: nil, environment: [:], overrides: ConfigurationFlags.parse(arguments))
        #expect(try value(fromFlag, setting.key) == expected)

        let help = ConfigurationSetting.helpText()
        #expect(help.contains(setting.flag + (setting.kind == .boolean ? "  " : " <value>")))
        #expect(help.contains(setting.environment))
    }

    @Test func flagsTakeBothSpellingsAndRefuseUnknownOnes() throws {
        #expect(try ConfigurationFlags.parse(["--port=0", "--no-worker", "--host", "::1"]) == ["port": "0", "worker": "false", "host": "::1"])
        #expect(throws: ConfigurationError.self) { try ConfigurationFlags.parse(["--prot", "1"]) }
        #expect(throws: ConfigurationError.self) { try ConfigurationFlags.parse(["--port"]) }
        #expect(throws: ConfigurationError.self) { try ConfigurationFlags.parse(["--no-worker=1"]) }
    }
}
