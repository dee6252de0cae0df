import Foundation
import ReelModels
import Testing
@testable import ReelImport

@Suite("instaloader .json / .json.xz")
struct InstaloaderSidecarTests {
    @Test func carouselPostMapsEveryField() throws {
        let result = try SidecarParser.parse(json: Fixture.data("instaloader-sidecar.json")).get()
        #expect(result.format == .instaloader)
        #expect(result.warnings.isEmpty)
        #expect(result.metadata == PostMetadata(
            description: "Golden hour at the lake 🌅✨\nSwipe for the before/after.\n#Sunset #golden_hour #2023 #lakeside#sunset #Ünïcode",
            uploader: "Lakeside Studio",
            username: "lakeside.studio",
            shortcode: "CuXyZ12AbCd",
            datePosted: "2023-07-22T04:26:40Z",
            sourceURL: "https://www.instagram.com/p/CuXyZ12AbCd/",
            // Lowercased; digits alone are not a hashtag; `#lakeside#sunset` is two.
            tags: ["sunset", "golden_hour", "lakeside", "ünïcode"]
        ))
    }

    @Test func clipsLinkToTheReelPage() throws {
        let metadata = try SidecarParser.parse(json: Fixture.data("instaloader-clip.json")).get().metadata
        #expect(metadata.sourceURL == "https://www.instagram.com/reel/Cv1ReelXyZ0/")
        #expect(metadata.username == "trail.runner.example")
        #expect(metadata.uploader == "trail.runner.example", "no full_name: the username stands in")
        #expect(metadata.datePosted == "2023-08-05T11:22:47Z")
        #expect(metadata.tags == ["trailrunning", "mountains"])
    }

    @Test func compressedSidecarLoadsThroughTheInjectedDecompressor() throws {
        let loaded = SidecarLoader.load(
            sidecar: Fixture.url("instaloader-clip.json.xz"), caption: nil, decompressXZ: Fixture.decompressXZ
        )
        let plain = try SidecarParser.parse(json: Fixture.data("instaloader-clip.json")).get().metadata
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.metadata == plain)
    }

    @Test func bareNodeFromOlderVersions() throws {
        let result = try SidecarParser.parse(json: Fixture.data("instaloader-bare-node.json")).get()
        #expect(result.format == .instaloader)
        #expect(result.metadata.shortcode == "BoldNode123")
        #expect(result.metadata.description == "Shot on film. #film #35mm")
        #expect(result.metadata.datePosted == "2017-07-14T02:40:00Z", "a timestamp in a string still counts")
        #expect(result.metadata.tags == ["film", "35mm"])
        #expect(result.metadata.sourceURL == "https://www.instagram.com/p/BoldNode123/")
    }

    @Test func storiesHaveNoPermanentLink() throws {
        let json = #"{"node": {"shortcode": "St0ry", "taken_at_timestamp": 1690000000}, "instaloader": {"node_type": "StoryItem"}}"#
        let metadata = try SidecarParser.parse(json: Data(json.utf8)).get().metadata
        #expect(metadata.sourceURL == nil)
        #expect(metadata.shortcode == "St0ry")
    }

    @Test func wrongTypesInsideTheNode() throws {
        let json = """
        {"node": {"shortcode": 12345, "owner": "not-an-object", "taken_at_timestamp": {"x": 1},
                  "edge_media_to_caption": {"edges": [{"node": {"text": null}}]}, "caption": {"text": "From the newer API #New"}},
         "instaloader": {"version": "4.13", "node_type": "Post"}}
        """
        let result = try SidecarParser.parse(json: Data(json.utf8)).get()
        #expect(result.metadata.shortcode == "12345")
        #expect(result.metadata.username == nil)
        #expect(result.metadata.datePosted == nil)
        #expect(result.metadata.description == "From the newer API #New")
        #expect(result.metadata.tags == ["new"])
        #expect(result.warnings.contains("field \"node.owner\" is text, not an object; ignored"))
        #expect(result.warnings.contains("field \"node.taken_at_timestamp\" is an object, not a number; ignored"))
    }
}
