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
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// RFC 4648 §5 without padding, written byte by byte: this runs several times per feed item
    /// (media token, image signatures), so it avoids Foundation string replacement.
    static func encode(_ data: Data) -> String {
        var output = [UInt8]()
        output.reserveCapacity((data.count * 4 + 2) / 3)
        var index = data.startIndex
        while index < data.endIndex {
            let b0 = data[index]
            let b1 = data.index(after: index) < data.endIndex ? data[data.index(after: index)] : nil
            let b2 = b1 != nil && data.index(index, offsetBy: 2) < data.endIndex ? data[data.index(index, offsetBy: 2)] : nil
            output.append(alphabet[Int(b0 >> 2)])
            output.append(alphabet[Int((b0 & 0x03) << 4 | (b1 ?? 0) >> 4)])
            if let b1 { output.append(alphabet[Int((b1 & 0x0F) << 2 | (b2 ?? 0) >> 6)]) }
            if let b2 { output.append(alphabet[Int(b2 & 0x3F)]) }
            index = data.index(index, offsetBy: min(3, data.distance(from: index, to: data.endIndex)))
        }
        return String(decoding: output, as: UTF8.self)
    }

    static func decode(_ text: some StringProtocol) -> Data? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
