import Foundation
import ReelHLS
import ReelMedia
import ReelModels

/// Publishes a video's kept subtitle files as HLS subtitle renditions: per language
/// `subtitles/<tag>/index.m3u8` and one WebVTT segment per video segment (same durations, so
/// a player fetches the captions of the segment it plays), plus the `#EXT-X-MEDIA` entries
/// for the master playlist. Text is not encrypted: there is nothing in it a key would protect
/// that the signed URL does not.
struct SubtitlePackager {
    static let folder = "subtitles"

    let directory: URL

    /// `sources` are `(tag, kept WebVTT file)`; `segmentDurations` the video's (every rung has
    /// the same, keyframes are forced on one grid). A kept file that no longer parses is left
    /// out rather than failing the video.
    func package(
        _ sources: [(tag: String, url: URL)], segmentDurations: [Double], firstPresentationTime: Double
    ) throws -> [SubtitleTrack] {
        var usable: [(tag: String, cues: [SubtitleCue])] = []
        for source in sources {
            guard let data = try? Data(contentsOf: source.url),
                  case .success(let cues) = SubtitleParser.parse(data, format: .webVTT) else { continue }
            usable.append((source.tag, cues))
        }
        let names = SubtitleLanguage.uniqueNames(usable.map(\.tag))
        var tracks: [SubtitleTrack] = []
        for (index, source) in usable.enumerated() {
            let folder = directory.appendingPathComponent(Self.folder, isDirectory: true)
                .appendingPathComponent(source.tag, isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let texts = SubtitleSegmenter.segments(
                source.cues, segmentDurations: segmentDurations, firstPresentationTime: firstPresentationTime
            )
            var segments: [MediaPlaylist.Segment] = []
            for (number, text) in texts.enumerated() {
                let name = "seg_" + Self.fiveDigits(number) + ".vtt"
                try Data(text.utf8).write(to: folder.appendingPathComponent(name), options: .atomic)
                segments.append(MediaPlaylist.Segment(duration: segmentDurations[number], uri: name))
            }
            let playlist = MediaPlaylist(
                version: 3, targetDuration: Int((segmentDurations.max() ?? 1).rounded(.up)), independentSegments: false,
                segments: segments
            )
            try Data(playlist.render().utf8).write(to: folder.appendingPathComponent("index.m3u8"), options: .atomic)
            let prefix = "\(Self.folder)/\(source.tag)/"
            tracks.append(SubtitleTrack(
                tag: source.tag, language: SubtitleLanguage.hlsLanguage(source.tag), name: names[index],
                playlist: prefix + "index.m3u8", segments: segments.map { prefix + $0.uri }
            ))
        }
        return tracks
    }

    static func renditions(_ tracks: [SubtitleTrack]) -> [MasterPlaylist.SubtitleRendition] {
        tracks.map { MasterPlaylist.SubtitleRendition(name: $0.name, language: $0.language, uri: $0.playlist) }
    }

    private static func fiveDigits(_ number: Int) -> String {
        let text = String(number)
        return text.count >= 5 ? text : String(repeating: "0", count: 5 - text.count) + text
    }
}
