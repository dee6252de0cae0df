import Foundation
import ReelModels
import Testing

/// `JSONBytes` writes the feed's items by hand; `JSONEncoder` over the same values is the
/// reference, compared as parsed JSON (member order is not part of JSON).
@Suite("JSON bytes")
struct JSONBytesTests {
    static let awkward = [
        "", "plain", "say \"hi\" \\ back", "line\nbreak\ttab\r\u{8}\u{C}", "\u{0}\u{1}\u{1F}\u{7F}",
        "slash / </script>", "crème brûlée 🎬 日本語", "\u{2028}\u{2029}", "emoji 👩‍👩‍👧 and é (e\u{301})",
    ]

    static func video(text: String, index: Int) -> APIVideo {
        let image = APIImage(url: "/img/sig/\(index)/hash/poster.jpg", width: 720, height: 1280)
        let withOptionals = index % 2 == 0
        return APIVideo(
            id: Int64(index) * 1_000_003, folderName: "folder \(text)", isFavorited: false, rating: 0,
            description: withOptionals ? text : nil, tags: [APITagRef(id: 1, name: text), APITagRef(id: Int64.max, name: "b")],
            flags: withOptionals ? [APITagRef(id: 3, name: "flag \(text)")] : [], shortcode: withOptionals ? "s\(index)" : nil,
            datePosted: withOptionals ? "2026-01-02" : nil, uploader: withOptionals ? text : nil, username: withOptionals ? "u" : nil,
            dateAdded: "2026-11-23T11:45:18Z", kind: PostKind.allCases[index % PostKind.allCases.count],
            sourceUrl: withOptionals ? "https://example.com/v/\(index)?a=1&b=\(text)" : nil,
            duration: [nil, 15.0, 12.5, 1e-5, 0.1 + 0.2, 123_456_789.25, 3e20][index % 7],
            width: 720, height: -1, position: nil,
            media: APIMedia(
                master: withOptionals ? "/media/~tok~/\(index)/master.m3u8" : nil, encrypted: withOptionals,
                poster: withOptionals ? image : nil, thumbnail: image, download: withOptionals ? "/media/t/\(index)/dl.mp4" : nil,
                prefetch: withOptionals
                    ? APIPrefetch(rendition: "240p", playlist: "p.m3u8", initSegment: "i.mp4", firstSegment: "s0.m4s", key: index % 4 == 0 ? "k" : nil)
                    : nil,
                images: index % 3 == 0 ? [] : [[image], [image, image]], expiresAt: withOptionals ? 1_800_000_000 : nil
            ),
            captions: [nil, [], [APICaption(language: "en", name: text)]][index % 3]
        )
    }

    static func parsed(_ bytes: some Sequence<UInt8>) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary)
    }

    @Test func aSharedPartIsWhatJSONEncoderWrites() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        for (index, text) in Self.awkward.enumerated() {
            for offset in 0..<6 {
                let part = APIVideo.SharedPart(Self.video(text: text, index: index + offset))
                var json = JSONBytes()
                try part.write(into: &json)
                let written = try Self.parsed(json.bytes)
                let reference = try Self.parsed(try encoder.encode(part))
                #expect(written == reference, "\(String(decoding: json.bytes, as: UTF8.self))")
            }
        }
    }

    @Test func stringsRoundTripThroughAnyJSONParser() throws {
        for text in Self.awkward {
            var json = JSONBytes()
            json.object { json in json.key("text"); json.string(text) }
            #expect(try Self.parsed(json.bytes)["text"] as? String == text)
            #expect(try JSONDecoder().decode([String: String].self, from: Data(json.bytes))["text"] == text)
        }
    }

    @Test func numbersAreJSONNumbersAndNonFiniteOnesAreRefused() throws {
        for value in [0, -0.5, 15, 1e-5, 12.5, 9_007_199_254_740_993, -3e300, Double.leastNonzeroMagnitude] {
            var json = JSONBytes()
            try json.double(value)
            #expect(try JSONDecoder().decode(Double.self, from: Data(json.bytes)) == value)
        }
        var json = JSONBytes()
        try json.double(15)
        #expect(json.bytes == Array("15".utf8))
        for value in [Double.nan, .infinity, -.infinity] {
            var json = JSONBytes()
            #expect(throws: JSONBytes.NonFiniteNumber.self) { try json.double(value) }
        }
    }
}
