import Crypto
import Foundation
import ReelModels

/// API keys and session tokens: 32 random bytes, base64url, with a readable prefix. Only their
/// SHA-256 is stored, so a leaked database does not leak working credentials.
public enum Credentials {
    public static let apiKeyPrefix = "rh_"
    public static let sessionCookie = "reelhouse_session"

    public static func newAPIKey() -> String { apiKeyPrefix + randomToken() }
    public static func newSessionToken() -> String { randomToken() }

    public static func hash(_ secret: String) -> String {
        Hex.lowercase(SHA256.hash(data: Data(secret.utf8)))
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
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// RFC 4648 §5 without padding, written byte by byte: this runs several times per feed item
    /// (media token, image signatures), so it avoids Foundation string replacement.
    static func encode(_ data: Data) -> String {
        encode([UInt8](data))
    }

    static func encode(_ bytes: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: (bytes.count * 4 + 2) / 3) { output in
            var written = 0
            for start in stride(from: 0, to: bytes.count, by: 3) {
                let count = min(3, bytes.count - start)
                var value = UInt32(bytes[start]) << 16
                if count > 1 { value |= UInt32(bytes[start + 1]) << 8 }
                if count > 2 { value |= UInt32(bytes[start + 2]) }
                // A chunk of n bytes carries n + 1 six-bit characters; padding is left out.
                for position in 0...count {
                    output[written] = alphabet[Int(value >> (18 - 6 * UInt32(position)) & 0x3F)]
                    written += 1
                }
            }
            return written
        }
    }

    static func decode(_ text: some StringProtocol) -> Data? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
