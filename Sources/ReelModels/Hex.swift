/// Lowercase hexadecimal text of bytes (digests, ETags, cache file names), written from a
/// table: `String(format: "%02x")` per byte cost about a seventh of the feed route's CPU when
/// every request hashed its credentials that way.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    public static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
