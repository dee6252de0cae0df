import Foundation
import ReelModels
import Testing
@testable import ReelImport

@Suite("yt-dlp / youtube-dl .info.json")
struct YTDLPSidecarTests {
    private func parse(_ fixture: String) throws -> SidecarResult {
        try SidecarParser.parse(json: Fixture.data(fixture)).get()
    }

    @Test func tikTokMapsEveryField() throws {
        let result = try parse("ytdlp-tiktok.info.json")
        #expect(result.format == .ytDLP)
        #expect(result.warnings.isEmpty)
        #expect(result.metadata == PostMetadata(
            description: "when the cat hears the treat bag 🐱 #cats #CatsOfTikTok #funny",
            uploader: "pixel.fox",
            username: "6812345678901234567",
            shortcode: "7216549873210987654",
            datePosted: "2023-04-01T12:00:00Z",
            sourceURL: "https://www.tiktok.com/@pixel.fox/video/7216549873210987654",
            // tags ∪ categories: "cats" repeats "Cats", the empty tag is dropped, "  cattok  " trimmed.
            tags: ["Cats", "funny", "cattok", "Comedy"]
        ))
    }

    @Test func shortsFallBackToTheTitleAndStripTheAtSign() throws {
        let metadata = try parse("ytdlp-shorts.info.json").metadata
        #expect(metadata.description == "Perfect pancakes in 30 seconds #shorts")
        #expect(metadata.uploader == "Example Kitchen")
        #expect(metadata.username == "examplekitchen")
        #expect(metadata.shortcode == "aBcD3fGh1jK")
        #expect(metadata.datePosted == "2024-01-15T12:00:00Z")
        #expect(metadata.sourceURL == "https://www.youtube.com/shorts/aBcD3fGh1jK")
        #expect(metadata.tags == ["pancakes", "breakfast", "recipe", "Howto & Style"])
    }

    @Test func oldYoutubeDLFileWithOnlyAnUploadDate() throws {
        let result = try parse("youtubedl-old.info.json")
        #expect(result.format == .ytDLP)
        #expect(result.warnings.isEmpty)
        #expect(result.metadata.description == "Rehearsing the new song in the garage.\nRecorded on a phone.")
        #expect(result.metadata.uploader == "Garage Trio")
        #expect(result.metadata.username == "UCgaragetrio000000000000")
        #expect(result.metadata.datePosted == "2019-07-12T00:00:00Z")
        #expect(result.metadata.sourceURL == "https://www.youtube.com/watch?v=Xy9_old-clip")
        #expect(result.metadata.tags.isEmpty)
    }

    @Test func wrongTypesAreCoercedOrSkippedWithWarnings() throws {
        let result = try parse("ytdlp-wrong-types.info.json")
        let metadata = result.metadata
        #expect(metadata.description == "Fallback title", "null description falls back to the title")
        #expect(metadata.uploader == "12345", "a numeric uploader is used as text")
        #expect(metadata.username == nil, "an array is not a username")
        #expect(metadata.shortcode == "987654321", "a numeric id is used as text")
        #expect(metadata.datePosted == "2023-04-01T12:00:00Z", "a timestamp in a string still counts")
        #expect(metadata.sourceURL == "https://video.example.com/v/987654321", "javascript: is never a source")
        #expect(metadata.tags == ["funny", "cats", "memes", "1", "Gaming"])
        #expect(result.warnings.contains { $0.contains("\"uploader_id\"") })
        #expect(result.warnings.contains { $0.contains("\"webpage_url\"") })
        #expect(result.warnings.contains { $0.contains("\"categories\" has 1 entries") })
    }

    @Test func uploadDateIsUsedWhenTheTimestampIsUnusable() throws {
        let json = #"{"extractor": "x", "timestamp": [1], "upload_date": "20230230"}"#
        let result = try SidecarParser.parse(json: Data(json.utf8)).get()
        #expect(result.metadata.datePosted == nil, "February 30th is not a date")
        #expect(result.warnings.count == 2)

        let fallback = try SidecarParser.parse(json: Data(#"{"extractor": "x", "timestamp": -5, "upload_date": 20230228}"#.utf8)).get()
        #expect(fallback.metadata.datePosted == "2023-02-28T00:00:00Z")
    }

    @Test func channelStandsInForAMissingUploader() throws {
        let json = #"{"_type": "video", "channel": "Only A Channel", "uploader": null, "original_url": "https://e.example/v"}"#
        let metadata = try SidecarParser.parse(json: Data(json.utf8)).get().metadata
        #expect(metadata.uploader == "Only A Channel")
        #expect(metadata.sourceURL == "https://e.example/v")
        #expect(metadata.description == nil)
    }

    @Test func tagsAreCappedAtFiftyAndLongOnesDropped() throws {
        let many = (1...80).map { "\"tag\($0)\"" }.joined(separator: ",")
        let long = String(repeating: "a", count: 65)
        let json = "{\"extractor\": \"x\", \"tags\": [\"\(long)\", \"#hash\", \(many)]}"
        let tags = try SidecarParser.parse(json: Data(json.utf8)).get().metadata.tags
        #expect(tags.count == 50)
        #expect(tags.first == "hash")
        #expect(!tags.contains(long))
    }
}
