import Foundation

/// Everything the pipeline produced for a post, as stored once it is `ready`.
/// Paths are relative to the post's media folder and are the *only* names the server will ever
/// map to files: a request is answered only if its name is listed here.
public struct PublishedMedia: Codable, Sendable, Equatable {
    /// Video posts: seconds, and the display size after rotation. Image posts: size of the
    /// largest variant of the first image.
    public var duration: Double?
    public var width: Int
    public var height: Int
    public var hasSourceAudio: Bool
    public var encrypted: Bool
    /// `master.m3u8` for videos, nil for images.
    public var masterPlaylist: String?
    public var renditions: [Rendition]
    public var poster: ImageFile?
    public var thumbnail: ImageFile?
    /// Faststart MP4 (≤ 720p) for offline viewing and download.
    public var download: String?
    /// Image posts: one entry per image, each with responsive variants, in carousel order.
    public var images: [ImageSet]
    /// Video posts with subtitle sidecars: one HLS subtitle rendition per language, listed in
    /// the master playlist. Nil (omitted from the stored JSON) when there are none, which is
    /// also how posts published before captions existed decode.
    public var subtitles: [SubtitleTrack]?

    public init(
        duration: Double?, width: Int, height: Int, hasSourceAudio: Bool, encrypted: Bool,
        masterPlaylist: String?, renditions: [Rendition], poster: ImageFile?, thumbnail: ImageFile?,
        download: String?, images: [ImageSet], subtitles: [SubtitleTrack]? = nil
    ) {
        self.subtitles = subtitles
        self.duration = duration
        self.width = width
        self.height = height
        self.hasSourceAudio = hasSourceAudio
        self.encrypted = encrypted
        self.masterPlaylist = masterPlaylist
        self.renditions = renditions
        self.poster = poster
        self.thumbnail = thumbnail
        self.download = download
        self.images = images
    }

    /// Every relative file name that belongs to this post, for path validation and cleanup.
    public var allFiles: [String] {
        var files: [String] = []
        if let masterPlaylist { files.append(masterPlaylist) }
        for rendition in renditions {
            files.append(rendition.playlist)
            files.append(rendition.initSegment)
            files.append(contentsOf: rendition.segments)
        }
        if let poster { files.append(poster.path) }
        if let thumbnail { files.append(thumbnail.path) }
        if let download { files.append(download) }
        for image in images { files.append(contentsOf: image.variants.map(\.path)) }
        for track in subtitles ?? [] {
            files.append(track.playlist)
            files.append(contentsOf: track.segments)
        }
        return files
    }
}

/// One language of captions as published: a WebVTT media playlist and its segments, aligned
/// with the video's segments.
public struct SubtitleTrack: Codable, Sendable, Equatable {
    /// The tag from the sidecar's name (`en`, `pt-BR`, `en-orig`); also the folder name.
    public var tag: String
    /// RFC 5646, as the master's `LANGUAGE` (`en` for `en-orig`).
    public var language: String
    /// What a menu shows ("English", "Portuguese (Brazil)"), the master's `NAME`.
    public var name: String
    /// Relative paths: `subtitles/en/index.m3u8`, `subtitles/en/seg_00000.vtt`…
    public var playlist: String
    public var segments: [String]

    public init(tag: String, language: String, name: String, playlist: String, segments: [String]) {
        self.tag = tag
        self.language = language
        self.name = name
        self.playlist = playlist
        self.segments = segments
    }
}

/// One rung of the HLS ladder as published.
public struct Rendition: Codable, Sendable, Equatable {
    /// e.g. `720p`; also the folder holding the rung's files.
    public var name: String
    public var width: Int
    public var height: Int
    public var frameRate: Double
    /// Peak segment bit rate (bits/s), as HLS BANDWIDTH requires.
    public var bandwidth: Int
    public var averageBandwidth: Int
    /// RFC 6381 codecs, e.g. `avc1.64001f,mp4a.40.2`.
    public var codecs: String
    /// Relative paths, e.g. `720p/index.m3u8`, `720p/init_3.mp4` (ffmpeg numbers init sections
    /// by rung), `720p/seg_00000.m4s`.
    public var playlist: String
    public var initSegment: String
    public var segments: [String]

    public init(
        name: String, width: Int, height: Int, frameRate: Double, bandwidth: Int,
        averageBandwidth: Int, codecs: String, playlist: String, initSegment: String, segments: [String]
    ) {
        self.name = name
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.codecs = codecs
        self.playlist = playlist
        self.initSegment = initSegment
        self.segments = segments
    }
}

/// A still image file with the hash of its bytes, so its URL can be cached forever and a
/// changed image gets a new URL.
public struct ImageFile: Codable, Sendable, Equatable {
    public var path: String
    public var width: Int
    public var height: Int
    /// First 16 hex digits of the SHA-256 of the file's bytes.
    public var contentHash: String

    public init(path: String, width: Int, height: Int, contentHash: String) {
        self.path = path
        self.width = width
        self.height = height
        self.contentHash = contentHash
    }
}

/// One image of an image post or carousel, in several widths (never upscaled).
public struct ImageSet: Codable, Sendable, Equatable {
    public var variants: [ImageFile]

    public init(variants: [ImageFile]) {
        self.variants = variants
    }
}
