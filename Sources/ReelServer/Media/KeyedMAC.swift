import Crypto
import Foundation

/// HMAC-SHA256 under a key derived once from the server's secret and a purpose (media tokens,
/// image URLs, each kind of cursor), over messages written as bytes.
///
/// Each message copies the keyed state instead of deriving the key's pads again (a third of
/// signing's time), and is written into one byte array instead of an interpolated String and
/// a Data: the feed signs two URLs per item, and on 1M posts nearly every item is new.
struct KeyedMAC: Sendable {
    private let keyed: HMAC<SHA256>

    init(purpose: String, secret: Data) {
        keyed = HMAC(key: SymmetricKey(data: SHA256.hash(data: Data(purpose.utf8) + secret)))
    }

    /// The first `count` bytes of `message`'s MAC.
    func mac(_ message: [UInt8], prefix count: Int) -> [UInt8] {
        var mac = keyed
        message.withUnsafeBytes { mac.update(data: $0) }
        return mac.finalize().withUnsafeBytes { Array($0.prefix(count)) }
    }

    /// Compares in time that depends only on the lengths, so a forger learns nothing from it.
    static func constantTimeEqual(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

extension [UInt8] {
    /// Appends `text`'s UTF-8 bytes (the ASCII parts of a message: `media|v2|`, `|`, a hash).
    mutating func append(text: some StringProtocol) {
        append(contentsOf: text.utf8)
    }

    /// Appends `value` in decimal, as `"\(value)"` would write it.
    mutating func append(decimal value: some BinaryInteger) {
        append(contentsOf: String(value).utf8)
    }

    /// Appends `value`'s bytes, most significant first.
    mutating func append<Value: FixedWidthInteger>(bigEndian value: Value) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
