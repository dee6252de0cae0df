import Foundation
import ReelModels
import Testing
@testable import ReelImport

@Suite("gallery-dl .json")
struct GalleryDLSidecarTests {
    @Test func instagramPostMapsEveryField() throws {
        let result = try SidecarParser.parse(json: Fixture.data("gallerydl-instagram.json")).get()
        #expect(result.format == .galleryDL, "gallery-dl's Instagram files have `shortcode` too, but are not instaloader's")
        #expect(result.warnings.isEmpty)
        #expect(result.metadata == PostMetadata(
            description: "Low tide, long walk. #beach #Travel",
            uploader: "Wander Lens",
            username: "wander.lens",
            shortcode: "CwGalleryAb",
            datePosted: "2023-08-05T14:30:00Z",
            sourceURL: "https://www.instagram.com/p/CwGalleryAb/",
            tags: ["beach", "travel"]
        ))
    }

    @Test func twitterBuildsTheTweetLinkAndKeepsBigIDsExact() throws {
        let metadata = try SidecarParser.parse(json: Fixture.data("gallerydl-twitter.json")).get().metadata
        #expect(metadata.description == "Morning run before the heat 🏃‍♀️ #running #Health")
        #expect(metadata.username == "runner_jo")
        #expect(metadata.uploader == "Jo Runs")
        #expect(metadata.shortcode == "1690000000000000001", "a 19-digit number must not pass through a Double")
        #expect(metadata.datePosted == "2023-08-11T07:15:42Z")
        #expect(metadata.sourceURL == "https://x.com/runner_jo/status/1690000000000000001", "the media URL is not the post")
        #expect(metadata.tags == ["running", "Health"])
    }

    @Test func authorAsTextTagsAsStringAndTimestampDate() throws {
        let json = """
        {"category": "tumblr", "subcategory": "post", "author": "Some Blog", "title": "Only a title",
         "tags": "cats  dogs #birds", "date": "1690000000", "url": "https://someblog.example/post/123/only-a-title"}
        """
        let metadata = try SidecarParser.parse(json: Data(json.utf8)).get().metadata
        #expect(metadata.uploader == "Some Blog")
        #expect(metadata.username == nil)
        #expect(metadata.description == "Only a title")
        #expect(metadata.tags == ["cats", "dogs", "birds"])
        #expect(metadata.datePosted == "2023-07-22T04:26:40Z")
        #expect(metadata.sourceURL == "https://someblog.example/post/123/only-a-title", "a page URL is the post")
    }

    @Test func datesWithOffsetsAreConvertedToUTC() throws {
        let json = #"{"category": "x", "date": "2023-01-02T03:04:05.123+02:00", "user": {"username": "u", "name": "User Name"}}"#
        let metadata = try SidecarParser.parse(json: Data(json.utf8)).get().metadata
        #expect(metadata.datePosted == "2023-01-02T01:04:05Z")
        #expect(metadata.username == "u")
        #expect(metadata.uploader == "User Name")
    }

    @Test func unusableFieldsAreSkippedWithWarnings() throws {
        let json = """
        {"subcategory": "post", "description": ["not", "text"], "content": "The real text", "author": [1, 2],
         "date": "yesterday", "post_date": "2023-03-04 05:06:07", "tags": [null, 7, "ok"], "url": "https://cdn.example/a.jpg"}
        """
        let result = try SidecarParser.parse(json: Data(json.utf8)).get()
        #expect(result.metadata.description == "The real text")
        #expect(result.metadata.uploader == nil)
        #expect(result.metadata.datePosted == "2023-03-04T05:06:07Z")
        #expect(result.metadata.tags == ["7", "ok"])
        #expect(result.metadata.sourceURL == nil)
        #expect(result.warnings.count == 3)
    }
}
