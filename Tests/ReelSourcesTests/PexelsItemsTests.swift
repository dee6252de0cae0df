import AsyncHTTPClient
import Foundation
import ReelImport
import ReelModels
import Testing
@testable import ReelSources

/// The choices made from Pexels' answers, without a server: which file, which names, which
/// sidecar, and that the importer reads that sidecar as intended.
@Suite("Pexels items: file choice, names, sidecars")
struct PexelsItemsTests {
    func file(_ quality: String?, _ width: Int?, _ height: Int?, type: String? = "video/mp4", link: String = "https://videos.example/f.mp4") -> PexelsWire.VideoFile {
        PexelsWire.VideoFile(id: nil, quality: quality, fileType: type, width: width, height: height, link: link)
    }

    @Test("the largest MP4 within HD wins; 2K, 4K, HLS and other types never do")
    func bestFile() {
        let sd = file("sd", 540, 960), hd = file("hd", 1080, 1920), uhd = file("uhd", 2160, 3840), twoK = file("hd", 1440, 2560)
        let hls = file("hls", nil, nil, link: "https://videos.example/p.m3u8")
        #expect(PexelsItems.bestFile([uhd, sd, hls, hd, twoK])?.width == 1080)
        #expect(PexelsItems.bestFile([uhd, sd])?.width == 540)
        #expect(PexelsItems.bestFile([file("hd", 1920, 1080)])?.height == 1080)
        #expect(PexelsItems.bestFile([uhd, twoK, hls]) == nil)
        #expect(PexelsItems.bestFile([file("hd", 720, 1280, type: "video/webm")]) == nil)
    }

    @Test("story authors are the catalogue and the author's name as an ASCII slug")
    func storyAuthor() {
        func author(_ name: String?) -> String { SourceAttribution(source: "Pexels", author: name, authorURL: nil, pageURL: nil).storyAuthor }
        #expect(author("Jane Doe") == "pexels-jane-doe")
        #expect(author("José  Núñez") == "pexels-jose-nunez")
        #expect(author("  Ma Ř. (studio) ") == "pexels-ma-r-studio")
        #expect(author("李明") == "pexels-li-ming")
        #expect(author("🙂") == "pexels")
        #expect(author(nil) == "pexels")
        #expect(author(String(repeating: "ab ", count: 40)).count <= 7 + 64)
        #expect(!author(String(repeating: "ab ", count: 40)).hasSuffix("-"))
    }

    @Test("a video page names its clip; search words are encoded, + included")
    func pageTitlesAndQueries() {
        #expect(PexelsItems.titleFromPageURL("https://www.pexels.com/video/aerial-view-of-a-beach-2499611/") == "Aerial view of a beach")
        #expect(PexelsItems.titleFromPageURL("https://www.pexels.com/video/2499611/") == nil)
        #expect(PexelsSource.queryString([("query", "cats & dogs+ café"), ("page", "2")]) == "query=cats%20%26%20dogs%2B%20caf%C3%A9&page=2")
    }

    @Test("the sidecar is read by the importer as yt-dlp metadata carrying the attribution")
    func sidecarReadsBack() throws {
        let item = SourceItem(
            id: "42", kind: .video, downloadURL: URL(string: "https://videos.example/42.mp4")!, fileExtension: "mp4", width: 1080, height: 1920,
            duration: 7, attribution: SourceAttribution(source: "Pexels", author: "Jane Doe", authorURL: "https://www.pexels.com/@jane", pageURL: "https://www.pexels.com/video/surf-42/"),
            tags: ["surf", "pexels"], description: "Surf"
        )
        let parsed = try SidecarParser.parse(json: SourceSidecar(item: item).data()).get()
        #expect(parsed.format == .ytDLP)
        #expect(parsed.warnings.isEmpty)
        #expect(parsed.metadata == PostMetadata(
            description: "Surf", uploader: "Jane Doe", username: "jane", shortcode: "pexels-video-42", sourceURL: "https://www.pexels.com/video/surf-42/", tags: ["surf", "pexels"]
        ))
        #expect(item.stem == "pexels-video-42")
    }

    @Test("a key or base URL that cannot be used is refused before any request")
    func configuration() {
        #expect(throws: SourceError.notConfigured("no Pexels key: set REELHOUSE_PEXELS_KEY or pass --key")) {
            _ = try PexelsSource(client: .shared, apiKey: "  ")
        }
        #expect(throws: SourceError.self) { _ = try PexelsSource(client: .shared, apiKey: "k\r\nX-Evil: 1") }
        #expect(throws: SourceError.self) { _ = try PexelsSource(client: .shared, apiKey: "k", baseURL: "file:///etc") }
        #expect(throws: Never.self) { _ = try PexelsSource(client: .shared, apiKey: "k", baseURL: "http://127.0.0.1:8080/") }
    }
}
