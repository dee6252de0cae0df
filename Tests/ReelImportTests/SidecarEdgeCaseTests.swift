import Foundation
import ReelModels
import Testing
@testable import ReelImport

@Suite("Broken sidecars and captions")
struct SidecarEdgeCaseTests {
    @Test func truncatedJSONIsInvalid() throws {
        let result = SidecarParser.parse(json: try Fixture.data("malformed-truncated.json"))
        guard case .failure(.invalidJSON) = result else {
            Issue.record("expected invalidJSON, got \(result)")
            return
        }
    }

    @Test func anArrayIsNotASidecar() throws {
        let result = SidecarParser.parse(json: try Fixture.data("array.json"))
        #expect(result == .failure(.unrecognizedSidecar("the document is an array, not an object")))
    }

    @Test func emptyAndBlankFilesAreEmpty() throws {
        #expect(SidecarParser.parse(json: try Fixture.data("empty.json")) == .failure(.emptySidecar))
        #expect(SidecarParser.parse(json: Data(" \n\t".utf8)) == .failure(.emptySidecar))
    }

    @Test func unknownObjectsAreUnrecognized() {
        #expect(SidecarParser.parse(json: Data(#"{"foo": 1}"#.utf8)) == .failure(.unrecognizedSidecar("keys: foo")))
        #expect(SidecarParser.parse(json: Data("{}".utf8)) == .failure(.unrecognizedSidecar("an empty object")))
        #expect(SidecarParser.parse(json: Data(#""text""#.utf8)) == .failure(.unrecognizedSidecar("the document is text, not an object")))
    }

    @Test func byteOrderMarkBeforeJSONIsTolerated() throws {
        let json = Data([0xEF, 0xBB, 0xBF]) + Data(#"{"extractor": "x", "title": "t"}"#.utf8)
        #expect(try SidecarParser.parse(json: json).get().metadata.description == "t")
    }

    @Test func errorsDescribeThemselves() {
        #expect(ImportError.rootNotFound("/nope").description == "/nope: no such file or folder")
        #expect(ImportError.emptySidecar.description == "the sidecar is empty")
    }

    @Test func captionWithBOMCRLFAndEmoji() throws {
        let caption = SidecarParser.parseCaption(text: try Fixture.data("caption-emoji.txt"))
        #expect(caption == "Sunday market haul 🍅🥕\nEverything local. #FarmersMarket #veggies #été")
    }

    @Test func captionEdgeCases() {
        #expect(SidecarParser.parseCaption(text: Data()) == nil)
        #expect(SidecarParser.parseCaption(text: Data(" \r\n ".utf8)) == nil)
        #expect(SidecarParser.parseCaption(text: Data("a\rb".utf8)) == "a\nb")
        #expect(SidecarParser.parseCaption(text: Data([0x61, 0xFF, 0x62])) == "a\u{FFFD}b", "bad bytes are repaired, not fatal")
        let utf16 = Data([0xFF, 0xFE]) + "hé #x".data(using: .utf16LittleEndian)!
        #expect(SidecarParser.parseCaption(text: utf16) == "hé #x")
    }

    @Test func hashtagRules() {
        #expect(Hashtags.find(in: "#One#two word#not ##no #3 #ok_1, #日本 (#paren)") == ["one", "two", "ok_1", "日本", "paren"])
        // The web's links follow these tags (linkify in Web/js/detail, tested on the same text).
        let text = "#One#two word#not ##no #3 #ok_1, #日本 (#paren) #café-time #3#x #cafe\u{0301}"
        #expect(Hashtags.find(in: text) == ["one", "two", "ok_1", "日本", "paren", "café", "x", "cafe\u{0301}"])
    }
}
