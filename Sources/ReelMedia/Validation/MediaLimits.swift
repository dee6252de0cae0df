/// What the server accepts. Defaults fit short-form clips and phone photos; an 8K long edge
/// and 10 minutes are generous upper bounds that still keep a 2-core box from spending hours on
/// one upload.
public struct MediaLimits: Sendable, Codable, Equatable {
    /// Seconds.
    public var maxDuration: Double
    /// Display size limits (after rotation), in pixels.
    public var maxLongEdge: Int
    public var maxShortEdge: Int
    /// Smallest accepted edge, for videos and images alike; smaller is a tracking pixel or junk.
    public var minEdge: Int
    public var minFrameRate: Double
    public var maxFrameRate: Double
    /// Width × height of a still image; bounds decoder memory (40 MP ≈ 160 MB as RGBA).
    public var maxImagePixels: Int

    public init(
        maxDuration: Double = 600, maxLongEdge: Int = 7680, maxShortEdge: Int = 4320, minEdge: Int = 64,
        minFrameRate: Double = 1, maxFrameRate: Double = 120, maxImagePixels: Int = 40_000_000
    ) {
        self.maxDuration = maxDuration
        self.maxLongEdge = maxLongEdge
        self.maxShortEdge = maxShortEdge
        self.minEdge = minEdge
        self.minFrameRate = minFrameRate
        self.maxFrameRate = maxFrameRate
        self.maxImagePixels = maxImagePixels
    }

    public static let `default` = MediaLimits()
}

/// How the pipeline must treat an accepted file.
public enum MediaClass: String, Sendable, Codable {
    case video
    case image
    /// A multi-frame GIF (or animated image with a known duration); transcoded like a video.
    case animatedImage
}

/// Why a file was refused: a stable machine `code` and one human sentence with the numbers.
public struct Rejection: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// Stable identifiers: `empty_file`, `not_media`, `truncated`, `no_video_stream`,
    /// `zero_duration`, `too_long`, `too_large_dimensions`, `too_small_dimensions`,
    /// `bad_frame_rate`, `image_too_large`, `unsupported_codec`.
    public var code: String
    /// e.g. "duration 612.0 s is above the limit of 600 s".
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
