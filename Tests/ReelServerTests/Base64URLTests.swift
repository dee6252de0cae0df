import Foundation
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
