import Foundation
import ReelModels
import Testing
@testable import ReelImport

@Suite("Scanning subtitle sidecars")
struct SubtitleScanTests {
    @Test func ytDLPSubtitlesBelongToTheirVideo() throws {
        let tree = try TemporaryTree()
        try tree.files(
            "clip.mp4", "clip.info.json", "clip.en.vtt", "clip.pt-BR.vtt", "clip.en-orig.vtt", "clip.fr.srt",
            "clip.en.srt",  // same language as clip.en.vtt: the WebVTT one wins
            "other.mp4", "other.vtt",  // no tag: undetermined
            "clip.mp4.part.vtt", "lonely.de.vtt", "photo.jpg", "photo.en.vtt"
        )
        let result = try LibraryScanner.scan([tree.root])
        let clip = try #require(result.candidates.first { $0.displayPath == "clip.mp4" })
        #expect(clip.subtitles.map(\.tag) == ["en", "en-orig", "fr", "pt-BR"])
        #expect(clip.subtitles.map(\.url.lastPathComponent) == ["clip.en.vtt", "clip.en-orig.vtt", "clip.fr.srt", "clip.pt-BR.vtt"])
        #expect(clip.sidecar?.lastPathComponent == "clip.info.json")
        let other = try #require(result.candidates.first { $0.displayPath == "other.mp4" })
        #expect(other.subtitles == [SubtitleSidecar(url: tree.url("other.vtt"), tag: "und")])
        let photo = try #require(result.candidates.first { $0.displayPath == "photo.jpg" })
        #expect(photo.subtitles.isEmpty, "images have no subtitles")
        #expect(result.ignored == [
            IgnoredFile(path: "clip.en.srt", reason: "subtitles in the same language as clip.en.vtt"),
            IgnoredFile(path: "clip.mp4.part.vtt", reason: "subtitles without a matching video"),
            IgnoredFile(path: "lonely.de.vtt", reason: "subtitles without a matching video"),
            IgnoredFile(path: "photo.en.vtt", reason: "subtitles without a matching video"),
        ])
    }

    @Test func aVideoWhoseNameHasDotsKeepsItsOwnSubtitles() throws {
        let tree = try TemporaryTree()
        try tree.files("talk.v2.mp4", "talk.v2.en.vtt", "talk.mp4", "talk.de.srt")
        let result = try LibraryScanner.scan([tree.root])
        let dotted = try #require(result.candidates.first { $0.displayPath == "talk.v2.mp4" })
        #expect(dotted.subtitles.map(\.tag) == ["en"])
        let plain = try #require(result.candidates.first { $0.displayPath == "talk.mp4" })
        #expect(plain.subtitles.map(\.tag) == ["de"], "talk.v2.en.vtt is not talk.mp4's in language v2.en")
        #expect(result.ignored.isEmpty)
    }

    @Test func tagsAreSafeFileNameParts() {
        #expect(SubtitleSidecar.normalizedTag("pt-BR") == "pt-BR")
        #expect(SubtitleSidecar.normalizedTag("en_US") == "en-US")
        #expect(SubtitleSidecar.normalizedTag("zh-Hans") == "zh-Hans")
        for bad in ["", "1en", "en-", "a--b", "../x", "en US", "日本", String(repeating: "a", count: 36)] {
            #expect(SubtitleSidecar.normalizedTag(Substring(bad)) == nil, "\(bad)")
        }
    }
}
