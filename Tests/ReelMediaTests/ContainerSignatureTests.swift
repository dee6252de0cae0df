import Foundation
import Testing
@testable import ReelMedia

@Suite("Container signatures")
struct ContainerSignatureTests {
    @Test func recognisesTheContainersWeAccept() {
        let samples: [[UInt8]] = [
            [0, 0, 0, 0x20] + Array("ftypisom".utf8),
            [0x1A, 0x45, 0xDF, 0xA3, 0x01],
            [0xFF, 0xD8, 0xFF, 0xE0],
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A],
            Array("GIF89a".utf8),
            Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8),
        ]
        for sample in samples { #expect(ContainerSignature.looksLikeMedia(Data(sample))) }
    }

    @Test func rejectsTextHTMLAndShortFiles() {
        for text in ["this is not a video", "<!doctype html>", "{\"a\":1}", "ab"] {
            #expect(!ContainerSignature.looksLikeMedia(Data(text.utf8)))
        }
        #expect(!ContainerSignature.looksLikeMedia(Data()))
    }
}
