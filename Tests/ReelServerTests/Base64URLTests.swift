import Crypto
import Foundation
import ReelModels
import Testing
@testable import ReelServer

@Suite("Base64URL")
struct Base64URLTests {
    @Test func matchesFoundationsBase64WithTheURLAlphabetAndNoPadding() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let data = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let expected = data.base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(data) == expected)
            #expect(Base64URL.decode(Base64URL.encode(data)) == data)
        }
        #expect(Base64URL.encode(Data([0xFB, 0xFF])) == "-_8")
    }
}

@Suite("Hex text of bytes")
struct HexTests {
    @Test("digests and edge bytes are written as lowercase pairs")
    func digests() {
        #expect(Hex.lowercase(SHA256.hash(data: Data("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Hex.lowercase([0x00, 0x0f, 0xf0, 0xff]) == "000ff0ff")
        #expect(Hex.lowercase([UInt8]()) == "")
        #expect(Credentials.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
