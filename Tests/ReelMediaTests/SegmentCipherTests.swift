import Foundation
import Testing
@testable import ReelMedia

@Suite("AES-128 segment encryption")
struct SegmentCipherTests {
    static func hex(_ text: String) -> Data {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return Data(bytes)
    }

    /// NIST SP 800-38A, F.2.1 CBC-AES128.Encrypt.
    @Test func nistKnownAnswer() throws {
        let key = Self.hex("2b7e151628aed2a6abf7158809cf4f3c")
        let iv = Self.hex("000102030405060708090a0b0c0d0e0f")
        let plain = Self.hex("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
            + "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")
        let cipher = Self.hex("7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
            + "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7")
        #expect(try SegmentCipher.encrypt(plain, key: key, iv: iv, noPadding: true) == cipher)
        #expect(try SegmentCipher.decrypt(cipher, key: key, iv: iv, noPadding: true) == plain)
    }

    /// `printf 'Reelhouse segment' | openssl enc -aes-128-cbc -K 000102…0f -iv 00…05` (OpenSSL 3).
    @Test func matchesOpenSSLWithPKCS7AndSequenceIV() throws {
        let key = Self.hex("000102030405060708090a0b0c0d0e0f")
        let expected = Self.hex("da8a746a604e12f2ebf10796cd8a531dc8b5d0a27f1fff53ee6562d9610708cb")
        #expect(try SegmentCipher.encrypt(Data("Reelhouse segment".utf8), key: key, mediaSequence: 5) == expected)
        #expect(try SegmentCipher.decrypt(expected, key: key, mediaSequence: 5) == Data("Reelhouse segment".utf8))
    }

    @Test(arguments: [0, 1, 15, 16, 17, 100_000])
    func pkcs7RoundTrip(size: Int) throws {
        let key = SegmentCipher.makeKey()
        let plain = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let cipher = try SegmentCipher.encrypt(plain, key: key, mediaSequence: 42)
        #expect(cipher.count == (size / 16 + 1) * 16)
        #expect(try SegmentCipher.decrypt(cipher, key: key, mediaSequence: 42) == plain)
    }

    @Test func ivIsBigEndianSequence() {
        #expect(SegmentCipher.iv(forMediaSequence: 5) == Data(repeating: 0, count: 15) + [5])
        #expect(SegmentCipher.iv(forMediaSequence: 0x0102) == Data(repeating: 0, count: 14) + [1, 2])
        #expect(SegmentCipher.iv(forMediaSequence: .max) == Data(repeating: 0, count: 8) + Data(repeating: 0xFF, count: 8))
    }

    @Test func keysAreRandom() {
        let first = SegmentCipher.makeKey(), second = SegmentCipher.makeKey()
        #expect(first.count == 16 && second.count == 16 && first != second)
    }

    @Test func rejectsBadInput() {
        #expect(throws: MediaError.self) { try SegmentCipher.encrypt(Data([1]), key: Data(count: 15), mediaSequence: 0) }
        #expect(throws: MediaError.self) { try SegmentCipher.decrypt(Data(count: 17), key: Data(count: 16), mediaSequence: 0) }
        #expect(throws: MediaError.self) { try SegmentCipher.decrypt(Data(count: 16), key: Data(count: 16), iv: Data(count: 3), noPadding: true) }
    }
}
