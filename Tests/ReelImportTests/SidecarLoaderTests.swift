import Foundation
import ReelModels
import Testing
@testable import ReelImport

@Suite("Loading sidecars and captions from disk")
struct SidecarLoaderTests {
    private static func noXZ(_ url: URL) throws -> Data {
        Issue.record("decompression was not expected for \(url.lastPathComponent)")
        return Data()
    }

    @Test func malformedSidecarYieldsNoMetadataAndAWarning() {
        let loaded = SidecarLoader.load(sidecar: Fixture.url("malformed-truncated.json"), caption: nil, decompressXZ: Self.noXZ)
        #expect(loaded.metadata == nil)
        #expect(loaded.warnings == ["sidecar malformed-truncated.json is not valid JSON; imported without metadata"])
    }

    @Test func everyUnusableSidecarIsAWarning() {
        for (name, phrase) in [("empty.json", "is empty"), ("array.json", "is not a yt-dlp, instaloader or gallery-dl file")] {
            let loaded = SidecarLoader.load(sidecar: Fixture.url(name), caption: nil, decompressXZ: Self.noXZ)
            #expect(loaded.metadata == nil)
            #expect(loaded.warnings == ["sidecar \(name) \(phrase); imported without metadata"])
        }
        let missing = SidecarLoader.load(sidecar: Fixture.url("gone.info.json"), caption: nil, decompressXZ: Self.noXZ)
        #expect(missing.metadata == nil)
        #expect(missing.warnings.first?.hasPrefix("sidecar gone.info.json cannot be read") == true)
    }

    @Test func failingDecompressionIsAWarning() throws {
        let tree = try TemporaryTree()
        let broken = try tree.file("post.json.xz", "this is not xz")
        let loaded = SidecarLoader.load(sidecar: broken, caption: nil, decompressXZ: Fixture.decompressXZ)
        #expect(loaded.metadata == nil)
        #expect(loaded.warnings == ["sidecar post.json.xz could not be decompressed (xz exited with status 1); imported without metadata"])
    }

    @Test func captionFillsAnEmptyDescriptionAndAddsItsHashtags() throws {
        let tree = try TemporaryTree()
        let sidecar = try tree.file("p.json", #"{"node": {"shortcode": "Abc", "edge_media_to_caption": {"edges": []}}, "instaloader": {"node_type": "Post"}}"#)
        let loaded = SidecarLoader.loadResult(sidecar: sidecar, caption: Fixture.url("caption-emoji.txt"), decompressXZ: Self.noXZ)
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.result?.format == .instaloader)
        #expect(loaded.result?.metadata.shortcode == "Abc")
        #expect(loaded.result?.metadata.description == "Sunday market haul 🍅🥕\nEverything local. #FarmersMarket #veggies #été")
        #expect(loaded.result?.metadata.tags == ["farmersmarket", "veggies", "été"])
    }

    @Test func sidecarDescriptionWinsOverTheCaption() throws {
        let loaded = SidecarLoader.load(
            sidecar: Fixture.url("instaloader-sidecar.json"), caption: Fixture.url("caption-emoji.txt"), decompressXZ: Self.noXZ
        )
        #expect(loaded.metadata?.description?.hasPrefix("Golden hour") == true)
        #expect(loaded.metadata?.tags.contains("veggies") == false)
    }

    @Test func captionAloneIsMetadata() {
        let loaded = SidecarLoader.loadResult(sidecar: nil, caption: Fixture.url("caption-emoji.txt"), decompressXZ: Self.noXZ)
        #expect(loaded.result?.format == .captionText)
        #expect(loaded.result?.metadata.tags == ["farmersmarket", "veggies", "été"])
        #expect(SidecarLoader.load(sidecar: nil, caption: nil, decompressXZ: Self.noXZ).metadata == nil)
    }

    @Test func captionSurvivesABrokenSidecar() {
        let loaded = SidecarLoader.load(
            sidecar: Fixture.url("empty.json"), caption: Fixture.url("caption-emoji.txt"), decompressXZ: Self.noXZ
        )
        #expect(loaded.metadata?.description?.hasPrefix("Sunday market haul") == true)
        #expect(loaded.warnings == ["sidecar empty.json is empty; imported with its caption only"])
    }

    @Test func fieldWarningsNameTheSidecar() {
        let loaded = SidecarLoader.load(sidecar: Fixture.url("ytdlp-wrong-types.info.json"), caption: nil, decompressXZ: Self.noXZ)
        #expect(loaded.metadata?.uploader == "12345")
        #expect(loaded.warnings.contains("sidecar ytdlp-wrong-types.info.json: field \"uploader_id\" is an array, not text; ignored"))
    }
}
