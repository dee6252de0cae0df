import Foundation
import ReelModels
import Testing
@testable import ReelImport

@Suite("instaloader story sidecars")
struct InstaloaderStoryTests {
    @Test func storyItemVideoNamesItsAccountAndTime() throws {
        let result = try SidecarParser.parse(json: Fixture.data("instaloader-story-video.json")).get()
        #expect(result.format == .instaloader)
        #expect(result.warnings.isEmpty)
        #expect(result.story == StorySidecar(
            author: "harbour.swimmer", postedAt: Date(timeIntervalSince1970: 1_700_000_000),
            expiringAt: Date(timeIntervalSince1970: 1_700_086_400)
        ))
        #expect(result.metadata.username == "harbour.swimmer")
        #expect(result.metadata.datePosted == "2023-11-14T22:13:20Z")
        #expect(result.metadata.sourceURL == nil, "a story has no permanent page")
    }

    @Test func bareGraphStoryImageIsAStoryByItsTypeName() throws {
        let result = try SidecarParser.parse(json: Fixture.data("instaloader-story-image.json")).get()
        #expect(result.format == .instaloader)
        #expect(result.story?.author == "harbour.swimmer")
        #expect(result.story?.postedAt == Date(timeIntervalSince1970: 1_700_003_600))
        #expect(result.story?.expiringAt == Date(timeIntervalSince1970: 1_700_090_000))
    }

    /// A `StoryItem` whose node carries the newer API's names (`taken_at`, `user`) and no
    /// `__typename`: the node type alone makes it a story.
    @Test func storyItemNodeTypeWithoutATypeName() throws {
        let result = try SidecarParser.parse(json: Fixture.data("instaloader-storyitem-mobile.json")).get()
        #expect(result.story == StorySidecar(
            author: "night.market.eats", postedAt: Date(timeIntervalSince1970: 1_700_007_200),
            expiringAt: Date(timeIntervalSince1970: 1_700_093_600)
        ))
    }

    @Test func plainPostIsNotAStory() throws {
        let result = try SidecarParser.parse(json: Fixture.data("instaloader-post-video.json")).get()
        #expect(result.story == nil)
        #expect(result.metadata.username == "harbour.swimmer")
        #expect(result.metadata.sourceURL == "https://www.instagram.com/p/Cz9PostVid0/")
        for other in ["instaloader-clip.json", "instaloader-sidecar.json", "instaloader-bare-node.json", "gallerydl-instagram.json", "ytdlp-shorts.info.json"] {
            #expect(try SidecarParser.parse(json: Fixture.data(other)).get().story == nil, "\(other)")
        }
    }

    @Test func storyTypeNameInsideAPostWrapperStillCounts() throws {
        let json = #"{"node": {"__typename": "GraphStoryVideo", "owner": {"username": "a.b"}, "taken_at_timestamp": 1700000000.25}, "instaloader": {"node_type": "Post"}}"#
        let story = try SidecarParser.parse(json: Data(json.utf8)).get().story
        #expect(story?.author == "a.b")
        #expect(story?.postedAt == Date(timeIntervalSince1970: 1_700_000_000.25), "the time is kept to the fraction the sidecar has")
    }

    /// `instaloader --stories harbour.swimmer` saves `harbour.swimmer/2023-11-14_22-13-20_UTC.json`:
    /// a node without owner or time still says whose story it is through where it lies.
    @Test func loaderFillsAccountAndTimeFromInstaloadersFolderAndFileName() throws {
        let tree = try TemporaryTree()
        let node = #"{"node": {"__typename": "GraphStoryImage", "id": "1"}, "instaloader": {"node_type": "StoryItem"}}"#
        let named = try tree.file("harbour.swimmer/2023-11-14_22-13-20_UTC.json", node)
        let loaded = SidecarLoader.loadResult(sidecar: named, caption: nil, decompressXZ: Fixture.decompressXZ)
        #expect(loaded.result?.story == StorySidecar(author: "harbour.swimmer", postedAt: Date(timeIntervalSince1970: 1_700_000_000)))

        // `instaloader :stories` puts everyone's stories in one `:stories` folder, which names nobody.
        let pooled = try tree.file(":stories/2023-11-14_22-13-20_UTC.json", node)
        let fromPool = SidecarLoader.loadResult(sidecar: pooled, caption: nil, decompressXZ: Fixture.decompressXZ)
        #expect(fromPool.result?.story == StorySidecar(author: nil, postedAt: Date(timeIntervalSince1970: 1_700_000_000)))

        // The node's own facts win over the folder and name.
        let owned = try tree.file("someone.else/2020-01-01_00-00-00_UTC.json", try String(contentsOf: Fixture.url("instaloader-story-video.json"), encoding: .utf8))
        let fromNode = SidecarLoader.loadResult(sidecar: owned, caption: nil, decompressXZ: Fixture.decompressXZ)
        #expect(fromNode.result?.story?.author == "harbour.swimmer")
        #expect(fromNode.result?.story?.postedAt == Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test func instaloaderFileNamesAndUsernames() {
        #expect(StorySidecar.date(fromInstaloaderName: "2023-11-14_22-13-20_UTC.json.xz") == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(StorySidecar.date(fromInstaloaderName: "2023-02-30_22-13-20_UTC.json") == nil, "no such day")
        #expect(StorySidecar.date(fromInstaloaderName: "clip.json") == nil)
        #expect(StorySidecar.isPlausibleUsername("harbour.swimmer_2"))
        #expect(!StorySidecar.isPlausibleUsername(":stories"))
        #expect(!StorySidecar.isPlausibleUsername("a name with spaces"))
    }
}
