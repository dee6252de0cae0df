import Foundation
import ReelHLS
import ReelMedia
import ReelModels
import ReelStorage

/// Turns ffmpeg's per-rung output into what we publish: each segment encrypted in place
/// (AES-128 full-segment, RFC 8216 §5.2 — ffmpeg cannot encrypt fMP4 itself), media playlists
/// rewritten with the key line after the map (so the init section stays clear), and a master
/// playlist whose BANDWIDTH figures are measured from the real segments rather than guessed
/// from the encoder settings.
struct HLSPackager {
    /// Key URI written into media playlists. Relative, so it inherits the signed token in the
    /// playlist's own URL: `/media/{token}/{id}/720p/index.m3u8` → `/media/{token}/{id}/key`.
    static let keyURI = "../key"
    static let masterName = "master.m3u8"

    let directory: URL

    func package(plan: LadderPlan, key: Data?) throws -> [Rendition] {
        try plan.rungs.map { rung in try packageRung(rung, key: key) }
    }

    func writeMaster(_ renditions: [Rendition], subtitles: [SubtitleTrack] = []) throws {
        let master = MasterPlaylist(
            independentSegments: true,
            variants: Self.variants(renditions),
            subtitles: SubtitlePackager.renditions(subtitles)
        )
        try Data(master.render().utf8).write(to: directory.appendingPathComponent(Self.masterName), options: .atomic)
    }

    /// Segment durations of a packaged rung (all rungs share them).
    func segmentDurations(_ rendition: Rendition) throws -> [Double] {
        let text = try String(contentsOf: directory.appendingPathComponent(rendition.playlist), encoding: .utf8)
        return try MediaPlaylist.parse(text).segments.map(\.duration)
    }

    private static func variants(_ renditions: [Rendition]) -> [MasterPlaylist.Variant] {
        renditions.map { rendition in
            MasterPlaylist.Variant(
                bandwidth: rendition.bandwidth, averageBandwidth: rendition.averageBandwidth,
                width: rendition.width, height: rendition.height, codecs: rendition.codecs,
                frameRate: rendition.frameRate, uri: rendition.playlist
            )
        }
    }

    private func packageRung(_ rung: Rung, key: Data?) throws -> Rendition {
        let rungDirectory = directory.appendingPathComponent(rung.name, isDirectory: true)
        let playlistURL = rungDirectory.appendingPathComponent("index.m3u8")
        guard let text = try? String(contentsOf: playlistURL, encoding: .utf8) else {
            throw PipelineError.inconsistent("ffmpeg wrote no playlist for \(rung.name)")
        }
        var playlist = try MediaPlaylist.parse(text)
        guard let mapURI = playlist.mapURI, !playlist.segments.isEmpty else {
            throw PipelineError.inconsistent("the \(rung.name) playlist has no init section or no segments")
        }
        var sizes: [Int] = []
        for (index, segment) in playlist.segments.enumerated() {
            let url = try Self.child(rungDirectory, segment.uri)
            var bytes = try Data(contentsOf: url)
            if let key {
                bytes = try SegmentCipher.encrypt(bytes, key: key, mediaSequence: playlist.mediaSequence + UInt64(index))
                try bytes.write(to: url, options: .atomic)
            }
            sizes.append(bytes.count)
        }
        if key != nil {
            playlist.key = HLSKey(method: "AES-128", uri: Self.keyURI, iv: nil)
        }
        try Data(playlist.render().utf8).write(to: playlistURL, options: .atomic)
        let (peak, average) = BandwidthMeter.measure(segmentBytes: sizes, durations: playlist.segments.map(\.duration))
        return Rendition(
            name: rung.name, width: rung.width, height: rung.height, frameRate: rung.frameRate,
            bandwidth: peak, averageBandwidth: average, codecs: rung.codecs,
            playlist: "\(rung.name)/index.m3u8", initSegment: "\(rung.name)/\(mapURI)",
            segments: playlist.segments.map { "\(rung.name)/\($0.uri)" }
        )
    }

    /// ffmpeg writes bare file names; anything else in its playlist means something is wrong.
    static func child(_ directory: URL, _ name: String) throws -> URL {
        guard !name.isEmpty, !name.contains("/"), !name.contains("\\"), name != ".", name != ".." else {
            throw PipelineError.inconsistent("unexpected segment name \(name)")
        }
        return directory.appendingPathComponent(name)
    }
}
