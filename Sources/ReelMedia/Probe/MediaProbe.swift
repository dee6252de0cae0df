/// What ffprobe says about a file, reduced to what validation and ladder planning need.
/// Everything optional is optional because real files (and ffprobe) omit it surprisingly often.
public struct MediaProbe: Sendable, Equatable, Codable {
    /// ffprobe's demuxer name list, e.g. `mov,mp4,m4a,3gp,3g2,mj2`, `image2`, `gif`.
    public var formatName: String
    /// Seconds; the container's duration, else the first video/audio stream's.
    public var duration: Double?
    public var bitRate: Int?
    public var sizeBytes: Int64?
    /// The first video stream that is not an attached picture (cover art is not "the video").
    public var video: VideoStream?
    public var audio: AudioStream?

    public init(
        formatName: String, duration: Double? = nil, bitRate: Int? = nil, sizeBytes: Int64? = nil,
        video: VideoStream? = nil, audio: AudioStream? = nil
    ) {
        self.formatName = formatName
        self.duration = duration
        self.bitRate = bitRate
        self.sizeBytes = sizeBytes
        self.video = video
        self.audio = audio
    }
}

public struct VideoStream: Sendable, Equatable, Codable {
    /// ffprobe `codec_name`, e.g. `h264`, `hevc`, `mjpeg`, `gif`.
    public var codec: String
    /// The stored picture size (ffprobe `width`/`height`), before sample aspect ratio and
    /// rotation. Not ffprobe's `coded_width`, which can include macroblock padding (1088).
    public var codedWidth: Int
    public var codedHeight: Int
    /// Degrees *clockwise* the decoded picture must be turned to be upright: 0, 90, 180 or 270.
    /// ffprobe's display-matrix `rotation` is counter-clockwise (a phone portrait clip says
    /// -90), the legacy `rotate` tag is clockwise (90); both normalise to the same value here.
    public var rotation: Int
    /// Pixel aspect ratio; 1 when absent or `0:1` (unknown), so it can always be multiplied.
    public var sampleAspectRatio: Double
    /// The size a viewer sees: width stretched by the sample aspect ratio, then swapped for
    /// 90/270 rotation. ffmpeg auto-rotates on decode, so this is also what filters receive
    /// (apart from SAR, which the ladder's scale filter resolves).
    public var displayWidth: Int
    public var displayHeight: Int
    /// `avg_frame_rate`, else `r_frame_rate`; nil when ffprobe says `0/0`.
    public var frameRate: Double?
    /// `nb_frames` when the container records it.
    public var frameCount: Int?
    public var pixelFormat: String?
    /// A single picture (photo, cover art), as opposed to a moving sequence.
    public var isStillImage: Bool

    public init(
        codec: String, codedWidth: Int, codedHeight: Int, rotation: Int = 0, sampleAspectRatio: Double = 1,
        displayWidth: Int, displayHeight: Int, frameRate: Double? = nil, frameCount: Int? = nil,
        pixelFormat: String? = nil, isStillImage: Bool = false
    ) {
        self.codec = codec
        self.codedWidth = codedWidth
        self.codedHeight = codedHeight
        self.rotation = rotation
        self.sampleAspectRatio = sampleAspectRatio
        self.displayWidth = displayWidth
        self.displayHeight = displayHeight
        self.frameRate = frameRate
        self.frameCount = frameCount
        self.pixelFormat = pixelFormat
        self.isStillImage = isStillImage
    }
}

public struct AudioStream: Sendable, Equatable, Codable {
    public var codec: String
    public var channels: Int
    public var sampleRate: Int

    public init(codec: String, channels: Int, sampleRate: Int) {
        self.codec = codec
        self.channels = channels
        self.sampleRate = sampleRate
    }
}
