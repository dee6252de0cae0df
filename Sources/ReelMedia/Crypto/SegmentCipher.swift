import Crypto
import Foundation
import _CryptoExtras

/// Whole-segment AES-128-CBC as HLS `METHOD=AES-128` defines it (RFC 8216 §5.2): PKCS7 padding,
/// and — since our playlists carry no IV attribute — the IV is the segment's media sequence
/// number as a 128-bit big-endian integer. ffmpeg cannot encrypt fMP4 segments itself, so the
/// packager applies this to each `.m4s` after ffmpeg has finished.
public enum SegmentCipher {
    public static let keySize = 16

    /// 16 bytes from the system CSPRNG (`SystemRandomNumberGenerator` reads getrandom/arc4random).
    public static func makeKey() -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<keySize).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// 15 zero bytes then the sequence number, big-endian: `iv(forMediaSequence: 5)` = `00…05`.
    public static func iv(forMediaSequence sequence: UInt64) -> Data {
        var bytes = Data(count: 8)
        withUnsafeBytes(of: sequence.bigEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    public static func encrypt(_ plain: Data, key: Data, mediaSequence: UInt64) throws(MediaError) -> Data {
        try encrypt(plain, key: key, iv: iv(forMediaSequence: mediaSequence), noPadding: false)
    }

    public static func decrypt(_ cipher: Data, key: Data, mediaSequence: UInt64) throws(MediaError) -> Data {
        try decrypt(cipher, key: key, iv: iv(forMediaSequence: mediaSequence), noPadding: false)
    }

    /// Explicit IV; `noPadding` only for block-aligned known-answer vectors.
    public static func encrypt(_ plain: Data, key: Data, iv: Data, noPadding: Bool) throws(MediaError) -> Data {
        let (symmetricKey, cbcIV) = try prepare(key: key, iv: iv)
        do {
            return try AES._CBC.encrypt(plain, using: symmetricKey, iv: cbcIV, noPadding: noPadding)
        } catch {
            throw .crypto("encryption failed: \(error)")
        }
    }

    public static func decrypt(_ cipher: Data, key: Data, iv: Data, noPadding: Bool) throws(MediaError) -> Data {
        let (symmetricKey, cbcIV) = try prepare(key: key, iv: iv)
        guard !cipher.isEmpty, cipher.count % 16 == 0 else {
            throw .crypto("ciphertext of \(cipher.count) bytes is not a whole number of 16-byte blocks")
        }
        do {
            return try AES._CBC.decrypt(cipher, using: symmetricKey, iv: cbcIV, noPadding: noPadding)
        } catch {
            throw .crypto("decryption failed (wrong key or corrupt data): \(error)")
        }
    }

    private static func prepare(key: Data, iv: Data) throws(MediaError) -> (SymmetricKey, AES._CBC.IV) {
        guard key.count == keySize else { throw .crypto("AES-128 needs a 16-byte key, got \(key.count) bytes") }
        guard iv.count == 16 else { throw .crypto("AES-CBC needs a 16-byte IV, got \(iv.count) bytes") }
        do {
            return (SymmetricKey(data: key), try AES._CBC.IV(ivBytes: iv))
        } catch {
            throw .crypto("invalid IV: \(error)")
        }
    }
}
