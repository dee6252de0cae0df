import ReelModels

/// One HLS variant to encode.
public struct Rung: Sendable, Equatable, Codable {
    /// `720p` etc., named by the SHORT edge so portrait and landscape clips share rung names;
    /// also the output folder of the variant.
    public var name: String
    /// Even numbers (yuv420p needs them), orientation of the display size kept.
    public var width: Int
    public var height: Int
    public var frameRate: Double
    /// Target average video bit rate, bits/s (`-b:v`).
    public var videoBitrate: Int
    /// VBV peak (`-maxrate`) and buffer (`-bufsize`), bits/s and bits.
    public var maxRate: Int
    public var bufferSize: Int
    /// AAC bit rate, bits/s.
    public var audioBitrate: Int
    /// H.264 profile as ffmpeg spells it (`high`).
    public var profile: String
    /// H.264 level × 10 (`31` is 3.1), the smallest that fits frame size, MB/s and peak rate.
    public var level: Int
    /// RFC 6381 CODECS value for the master playlist, e.g. `avc1.64001f,mp4a.40.2`.
    public var codecs: String

    public init(
        name: String, width: Int, height: Int, frameRate: Double, videoBitrate: Int, maxRate: Int,
        bufferSize: Int, audioBitrate: Int, profile: String, level: Int, codecs: String
    ) {
        self.name = name
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.videoBitrate = videoBitrate
        self.maxRate = maxRate
        self.bufferSize = bufferSize
        self.audioBitrate = audioBitrate
        self.profile = profile
        self.level = level
        self.codecs = codecs
    }
}

/// Everything one transcode run needs to know about the output ladder.
public struct LadderPlan: Sendable, Equatable, Codable {
    /// Ascending by size; the last is the top rung (poster size).
    public var rungs: [Rung]
    /// Seconds per HLS segment (and keyframe interval).
    public var segmentDuration: Double
    /// Shorter segments that open the video, in seconds (`[0.5, 0.5, 1]`), before the regular
    /// grid of `segmentDuration` takes over where they end (at 2 s: a whole number of regular
    /// segments, so the grid is the one it would be without them). A first picture then needs a
    /// quarter of a regular segment's bytes, and each of the next arrives before the one before
    /// it has played out, on a link that barely carries the lowest rung. Empty: none.
    public var leadSegments: [Double]
    /// Duration of what is encoded (the source, or its trimmed part) in seconds; also the
    /// length of the silent track for audio-less sources.
    public var duration: Double
    /// False means every variant carries a generated silent AAC track instead.
    public var hasSourceAudio: Bool
    /// Seconds into the encoded clip (into the part, when trimmed) where the poster frame is taken.
    public var posterTime: Double
    /// The source rate after snapping to a standard rate (see `LadderPlanner`).
    public var sourceFrameRate: Double
    /// Only this part of the source is encoded (its duration clamped to the source's end);
    /// nil: all of it.
    public var trim: SourceTrim?

    public init(
        rungs: [Rung], segmentDuration: Double, duration: Double, hasSourceAudio: Bool, posterTime: Double,
        sourceFrameRate: Double, trim: SourceTrim? = nil, leadSegments: [Double] = []
    ) {
        self.trim = trim
        self.leadSegments = leadSegments
        self.rungs = rungs
        self.segmentDuration = segmentDuration
        self.duration = duration
        self.hasSourceAudio = hasSourceAudio
        self.posterTime = posterTime
        self.sourceFrameRate = sourceFrameRate
    }
}
