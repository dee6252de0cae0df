import Crypto
import Foundation

/// API keys and session tokens: 32 random bytes, base64url, with a readable prefix. Only their
/// SHA-256 is stored, so a leaked database does not leak working credentials.
public enum Credentials {
    public static let apiKeyPrefix = "rh_"
    public static let sessionCookie = "reelhouse_session"

    public static func newAPIKey() -> String { apiKeyPrefix + randomToken() }
    public static func newSessionToken() -> String { randomToken() }

    public static func hash(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The first characters of a key, shown in `reelhouse key list` to tell keys apart.
    public static func displayPrefix(_ key: String) -> String { String(key.prefix(apiKeyPrefix.count + 6)) }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Base64URL.encode(Data(bytes))
    }
}

enum Base64URL {
    static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: some StringProtocol) -> Data? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
