import Foundation

/// `#EXT-X-KEY`: how the segments after it are encrypted.
public struct HLSKey: Sendable, Equatable {
    /// `AES-128` (whole-segment AES-128-CBC, RFC 8216 §5.2).
    public var method: String
    public var uri: String
    /// `0x…` hex; nil means the IV is the segment's media sequence number (RFC 8216 §5.2).
    public var iv: String?

    public init(method: String, uri: String, iv: String? = nil) {
        self.method = method
        self.uri = uri
        self.iv = iv
    }
}

/// One rung's media playlist: read from ffmpeg's output, rewritten with an encryption key.
/// Only what a single-key VOD fMP4 playlist uses is modelled; unknown tags are dropped on
/// render, so parse → render is a normalisation, not a byte-exact copy.
public struct MediaPlaylist: Sendable, Equatable {
    public struct Segment: Sendable, Equatable {
        /// Seconds (`#EXTINF`).
        public var duration: Double
        /// Relative to the playlist, as ffmpeg writes it (`seg_00000.m4s`).
        public var uri: String

        public init(duration: Double, uri: String) {
            self.duration = duration
            self.uri = uri
        }
    }

    public var version: Int
    public var targetDuration: Int
    public var mediaSequence: UInt64
    public var playlistType: String?
    public var independentSegments: Bool
    /// `#EXT-X-MAP` URI: the fMP4 init section.
    public var mapURI: String?
    public var key: HLSKey?
    public var segments: [Segment]
    public var endList: Bool

    public init(
        version: Int = 7, targetDuration: Int, mediaSequence: UInt64 = 0, playlistType: String? = "VOD",
        independentSegments: Bool = true, mapURI: String? = nil, key: HLSKey? = nil, segments: [Segment],
        endList: Bool = true
    ) {
        self.version = version
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.playlistType = playlistType
        self.independentSegments = independentSegments
        self.mapURI = mapURI
        self.key = key
        self.segments = segments
        self.endList = endList
    }

    /// Rejects anything that is not a media playlist (no `#EXTM3U`, a master playlist, an
    /// `#EXTINF` without its URI, numbers that do not parse).
    public static func parse(_ text: String) throws(HLSError) -> MediaPlaylist {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        guard lines.first == "#EXTM3U" else { throw .invalidPlaylist("missing #EXTM3U header") }
        var playlist = MediaPlaylist(version: 1, targetDuration: 0, playlistType: nil, independentSegments: false, segments: [], endList: false)
        var sawTargetDuration = false
        var pendingDuration: Double?
        for line in lines.dropFirst() {
            if let duration = pendingDuration, !line.hasPrefix("#") {
                playlist.segments.append(Segment(duration: duration, uri: line))
                pendingDuration = nil
                continue
            }
            guard line.hasPrefix("#") else { throw .invalidPlaylist("unexpected line \(line)") }
            let (tag, value) = split(line)
            switch tag {
            case "#EXT-X-VERSION": playlist.version = try integer(value, tag)
            case "#EXT-X-TARGETDURATION":
                playlist.targetDuration = try integer(value, tag)
                sawTargetDuration = true
            case "#EXT-X-MEDIA-SEQUENCE":
                guard let sequence = UInt64(value) else { throw .invalidPlaylist("bad \(tag) \(value)") }
                playlist.mediaSequence = sequence
            case "#EXT-X-PLAYLIST-TYPE": playlist.playlistType = String(value)
            case "#EXT-X-INDEPENDENT-SEGMENTS": playlist.independentSegments = true
            case "#EXT-X-MAP": playlist.mapURI = try HLSAttributes.parse(value)["URI"]
            case "#EXT-X-KEY":
                let attributes = try HLSAttributes.parse(value)
                guard let method = attributes["METHOD"] else { throw .invalidPlaylist("#EXT-X-KEY without METHOD") }
                playlist.key = method == "NONE" ? nil : HLSKey(method: method, uri: attributes["URI"] ?? "", iv: attributes["IV"])
            case "#EXTINF":
                let number = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                guard let duration = Double(number), duration >= 0 else { throw .invalidPlaylist("bad #EXTINF \(value)") }
                pendingDuration = duration
            case "#EXT-X-ENDLIST": playlist.endList = true
            case "#EXT-X-STREAM-INF": throw .invalidPlaylist("this is a master playlist, not a media playlist")
            default: continue  // comments and tags we do not model
            }
        }
        if pendingDuration != nil { throw .invalidPlaylist("#EXTINF without a segment URI at the end") }
        guard sawTargetDuration else { throw .invalidPlaylist("missing #EXT-X-TARGETDURATION") }
        return playlist
    }

    /// Tag order as RFC 8216 and ffmpeg write it, with the key AFTER the map so the init
    /// section is fetched in the clear (full-segment encryption applies to media segments only).
    /// The version is raised to at least 6 when a map is present (RFC 8216 §7: MAP without
    /// I-frames-only needs 6) and target duration to at least the ceiling of the longest segment
    /// (always compliant, whichever rounding a player applies).
    public func render() -> String {
        let longest = segments.map(\.duration).max() ?? 0
        let target = max(targetDuration, Int((longest - 1e-6).rounded(.up)))
        var lines = ["#EXTM3U", "#EXT-X-VERSION:\(mapURI == nil ? version : max(version, 6))", "#EXT-X-TARGETDURATION:\(target)"]
        lines.append("#EXT-X-MEDIA-SEQUENCE:\(mediaSequence)")
        if let playlistType { lines.append("#EXT-X-PLAYLIST-TYPE:\(playlistType)") }
        if independentSegments { lines.append("#EXT-X-INDEPENDENT-SEGMENTS") }
        if let mapURI { lines.append("#EXT-X-MAP:URI=\"\(mapURI)\"") }
        if let key {
            var attributes = "METHOD=\(key.method),URI=\"\(key.uri)\""
            if let iv = key.iv { attributes += ",IV=\(iv)" }
            lines.append("#EXT-X-KEY:\(attributes)")
        }
        for segment in segments {
            lines.append("#EXTINF:\(HLSAttributes.decimal(segment.duration, digits: 6)),")
            lines.append(segment.uri)
        }
        if endList { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    static func split(_ line: String) -> (Substring, Substring) {
        guard let colon = line.firstIndex(of: ":") else { return (Substring(line), "") }
        return (line[..<colon], line[line.index(after: colon)...])
    }

    static func integer(_ value: Substring, _ tag: Substring) throws(HLSError) -> Int {
        guard let number = Int(value), number >= 0 else { throw .invalidPlaylist("bad \(tag) \(value)") }
        return number
    }
}
