import Foundation
import ReelImport
import ReelModels
import ReelStorage
import ReelStorageLocal
import Testing
@testable import ReelPipeline
import ReelTestFiles

/// The pipeline's part of captions: sidecars read into normalised WebVTT (bad ones become
/// warnings), kept in `sources/`, and published as a subtitle rendition next to the ladder.
@Suite("Subtitles in the pipeline")
struct SubtitlePipelineTests {
    let root = TemporaryFolder.fresh("reel-subtitles")

    private func write(_ name: String, _ bytes: Data) throws -> URL {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let url = root.appendingPathComponent(name)
        try bytes.write(to: url)
        return url
    }

    @Test func sidecarsBecomeWebVTTAndBadOnesWarnings() throws {
        let srt = try write("clip.pt.srt", Data("\u{FEFF}7\r\n00:00:01,000 --> 00:00:02,000\r\nOlá — ação\r\n".utf8))
        let vtt = try write("clip.en.vtt", Data("WEBVTT\n\n00:01.000 --> 00:02.000\nCrème brûlée — 日本語\n".utf8))
        let bad = try write("clip.de.vtt", Data("not subtitles at all".utf8))
        let missing = root.appendingPathComponent("clip.fr.vtt")
        let (tracks, warnings) = SubtitleSidecars.load([
            SubtitleSidecar(url: vtt, tag: "en"), SubtitleSidecar(url: srt, tag: "pt"),
            SubtitleSidecar(url: bad, tag: "de"), SubtitleSidecar(url: missing, tag: "fr"),
        ])
        #expect(tracks.map(\.tag) == ["en", "pt"])
        #expect(String(decoding: tracks[1].vtt, as: UTF8.self) == "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nOlá — ação\n")
        #expect(String(decoding: tracks[0].vtt, as: UTF8.self).contains("00:00:01.000 --> 00:00:02.000\nCrème brûlée — 日本語"))
        #expect(warnings.count == 2)
        #expect(warnings[0] == "subtitles clip.de.vtt does not start with WEBVTT; ignored")
        #expect(warnings[1].hasPrefix("subtitles clip.fr.vtt cannot be read"))
    }

    @Test func keptSubtitlesAreSourcesTheTranscodeRecognises() throws {
        let folder = DataFolder(root: root)
        try folder.prepare()
        let store = SourceStore(dataFolder: folder)
        let bytes = Data("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhi\n".utf8)
        let kept = try store.keepSubtitles(bytes, tag: "pt-BR")
        #expect(kept == "sources/\(ContentHasher.sha256(of: bytes)).pt-BR.vtt")
        #expect(try Data(contentsOf: folder.sourceURL(kept)) == bytes)
        #expect(try store.keepSubtitles(bytes, tag: "pt-BR") == kept, "the same file twice is one file")
        #expect(SourcePath.subtitleTag(ofSourcePath: kept) == "pt-BR")
        #expect(SourcePath.subtitleTag(ofSourcePath: "sources/abc.mp4") == nil)
        #expect(SourcePath.subtitleTag(ofSourcePath: "sources/abc.webm") == nil)
        for bad in ["sources/a-é.vtt", "sources/-/../x.vtt", "sources/a b.vtt"] {
            #expect(throws: PipelineError.self) { try folder.sourceURL(bad) }
        }
    }

    @Test func packagerWritesOneSegmentPerVideoSegmentAndTheMasterEntries() throws {
        let kept = try write("sub.en.vtt", Data("WEBVTT\n\n00:00:01.500 --> 00:00:02.500\nCrème brûlée — 日本語\n".utf8))
        let broken = try write("sub.xx.vtt", Data("garbage".utf8))
        let staging = root.appendingPathComponent("out")
        let tracks = try SubtitlePackager(directory: staging).package(
            [(tag: "en", url: kept), (tag: "xx", url: broken)], segmentDurations: [2, 2, 0.5], firstPresentationTime: 0.1
        )
        #expect(tracks == [SubtitleTrack(
            tag: "en", language: "en", name: "English", playlist: "subtitles/en/index.m3u8",
            segments: ["subtitles/en/seg_00000.vtt", "subtitles/en/seg_00001.vtt", "subtitles/en/seg_00002.vtt"]
        )])
        let playlist = try String(contentsOf: staging.appendingPathComponent("subtitles/en/index.m3u8"), encoding: .utf8)
        #expect(playlist.contains("#EXT-X-TARGETDURATION:2\n") && playlist.contains("#EXTINF:0.500000,\nseg_00002.vtt\n"))
        #expect(playlist.hasSuffix("#EXT-X-ENDLIST\n") && !playlist.contains("#EXT-X-MAP") && !playlist.contains("#EXT-X-KEY"))
        let first = try String(contentsOf: staging.appendingPathComponent("subtitles/en/seg_00000.vtt"), encoding: .utf8)
        let second = try String(contentsOf: staging.appendingPathComponent("subtitles/en/seg_00001.vtt"), encoding: .utf8)
        #expect(first.contains("X-TIMESTAMP-MAP=MPEGTS:9000,LOCAL:00:00:00.000") && first.contains("Crème brûlée — 日本語"))
        #expect(second.contains("Crème brûlée — 日本語"), "the cue spans the 2 s boundary")
        try HLSPackager(directory: staging).writeMaster([], subtitles: tracks)
        let master = try String(contentsOf: staging.appendingPathComponent("master.m3u8"), encoding: .utf8)
        #expect(master.contains(
            "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=NO,AUTOSELECT=YES,URI=\"subtitles/en/index.m3u8\"\n"
        ))
    }
}
