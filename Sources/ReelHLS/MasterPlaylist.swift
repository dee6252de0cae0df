/// The multivariant playlist we write ourselves (ffmpeg's lacks measured bandwidths and
/// would list variants in its own order).
public struct MasterPlaylist: Sendable, Equatable {
    public struct Variant: Sendable, Equatable {
        /// Peak segment bit rate, bits/s (BANDWIDTH).
        public var bandwidth: Int
        public var averageBandwidth: Int?
        public var width: Int
        public var height: Int
        public var codecs: String
        public var frameRate: Double?
        public var uri: String

        public init(
            bandwidth: Int, averageBandwidth: Int?, width: Int, height: Int, codecs: String, frameRate: Double?,
            uri: String
        ) {
            self.bandwidth = bandwidth
            self.averageBandwidth = averageBandwidth
            self.width = width
            self.height = height
            self.codecs = codecs
            self.frameRate = frameRate
            self.uri = uri
        }
    }

    /// `#EXT-X-MEDIA:TYPE=SUBTITLES`: one WebVTT media playlist per language.
    public struct SubtitleRendition: Sendable, Equatable {
        /// Unique within the group; what a player's menu shows.
        public var name: String
        /// RFC 5646 (`en`, `pt-BR`).
        public var language: String
        public var isDefault: Bool
        public var autoselect: Bool
        public var uri: String

        public init(name: String, language: String, isDefault: Bool = false, autoselect: Bool = true, uri: String) {
            self.name = name
            self.language = language
            self.isDefault = isDefault
            self.autoselect = autoselect
            self.uri = uri
        }
    }

    /// The one subtitle group every variant refers to.
    public static let subtitleGroup = "subs"

    public var independentSegments: Bool
    public var variants: [Variant]
    public var subtitles: [SubtitleRendition]

    public init(independentSegments: Bool = true, variants: [Variant], subtitles: [SubtitleRendition] = []) {
        self.independentSegments = independentSegments
        self.variants = variants
        self.subtitles = subtitles
    }

    public static func parse(_ text: String) throws(HLSError) -> MasterPlaylist {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        guard lines.first == "#EXTM3U" else { throw .invalidPlaylist("missing #EXTM3U header") }
        var playlist = MasterPlaylist(independentSegments: false, variants: [])
        var pending: [String: String]?
        for line in lines.dropFirst() {
            if let attributes = pending, !line.hasPrefix("#") {
                playlist.variants.append(try variant(attributes, uri: line))
                pending = nil
                continue
            }
            guard line.hasPrefix("#") else { throw .invalidPlaylist("unexpected line \(line)") }
            let (tag, value) = MediaPlaylist.split(line)
            switch tag {
            case "#EXT-X-INDEPENDENT-SEGMENTS": playlist.independentSegments = true
            case "#EXT-X-STREAM-INF": pending = try HLSAttributes.parse(value)
            case "#EXT-X-MEDIA":
                let attributes = try HLSAttributes.parse(value)
                guard attributes["TYPE"] == "SUBTITLES" else { continue }
                guard let name = attributes["NAME"], let uri = attributes["URI"] else {
                    throw .invalidPlaylist("#EXT-X-MEDIA:TYPE=SUBTITLES without NAME or URI")
                }
                playlist.subtitles.append(SubtitleRendition(
                    name: name, language: attributes["LANGUAGE"] ?? "", isDefault: attributes["DEFAULT"] == "YES",
                    autoselect: attributes["AUTOSELECT"] == "YES", uri: uri
                ))
            case "#EXTINF", "#EXT-X-TARGETDURATION": throw .invalidPlaylist("this is a media playlist, not a master playlist")
            default: continue
            }
        }
        if pending != nil { throw .invalidPlaylist("#EXT-X-STREAM-INF without a URI at the end") }
        guard !playlist.variants.isEmpty else { throw .invalidPlaylist("no variants") }
        return playlist
    }

    /// `#EXT-X-VERSION:7` matches the media playlists; frame rate with 3 decimals as RFC 8216
    /// §4.3.4.2 shows it.
    public func render() -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7"]
        if independentSegments { lines.append("#EXT-X-INDEPENDENT-SEGMENTS") }
        for subtitle in subtitles {
            // RFC 8216 §4.3.4.1: quoted strings cannot hold `"` or line breaks.
            lines.append(
                "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"\(Self.subtitleGroup)\",NAME=\"\(Self.quotable(subtitle.name))\","
                    + "LANGUAGE=\"\(Self.quotable(subtitle.language))\",DEFAULT=\(subtitle.isDefault ? "YES" : "NO"),"
                    + "AUTOSELECT=\(subtitle.autoselect || subtitle.isDefault ? "YES" : "NO"),URI=\"\(Self.quotable(subtitle.uri))\""
            )
        }
        for variant in variants {
            var attributes = ["BANDWIDTH=\(variant.bandwidth)"]
            if let average = variant.averageBandwidth { attributes.append("AVERAGE-BANDWIDTH=\(average)") }
            attributes.append("RESOLUTION=\(variant.width)x\(variant.height)")
            attributes.append("CODECS=\"\(variant.codecs)\"")
            if let rate = variant.frameRate { attributes.append("FRAME-RATE=\(HLSAttributes.decimal(rate, digits: 3))") }
            if !subtitles.isEmpty { attributes.append("SUBTITLES=\"\(Self.subtitleGroup)\"") }
            lines.append("#EXT-X-STREAM-INF:" + attributes.joined(separator: ","))
            lines.append(variant.uri)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func quotable(_ text: String) -> String {
        String(text.map { $0 == "\"" || $0.isNewline ? "'" : $0 })
    }

    static func variant(_ attributes: [String: String], uri: String) throws(HLSError) -> Variant {
        guard let bandwidth = attributes["BANDWIDTH"].flatMap({ Int($0) }) else {
            throw .invalidPlaylist("#EXT-X-STREAM-INF without a numeric BANDWIDTH")
        }
        let resolution = attributes["RESOLUTION"]?.split(separator: "x").compactMap { Int($0) } ?? []
        return Variant(
            bandwidth: bandwidth, averageBandwidth: attributes["AVERAGE-BANDWIDTH"].flatMap { Int($0) },
            width: resolution.count == 2 ? resolution[0] : 0, height: resolution.count == 2 ? resolution[1] : 0,
            codecs: attributes["CODECS"] ?? "", frameRate: attributes["FRAME-RATE"].flatMap { Double($0) }, uri: uri
        )
    }
}
