/// Knobs of the transcode run that are deployment choices, not media decisions.
public struct TranscodeOptions: Sendable, Equatable {
    /// x264 preset. `veryfast` encodes a 15 s 1080×1920 clip's full ladder in ≈ 10 s on 2 cores;
    /// `medium` gains a little quality for ≈ 1.5× the time.
    public var preset: String
    /// x264 threads for the HLS encodes; nil lets ffmpeg decide (all cores).
    public var threads: Int?
    /// Filters applied once to the decoded picture before it is split into rungs and the poster
    /// (e.g. colour conversion later). Must be a plain filter chain without labels. nil: none.
    public var filterGraphPrefix: String?
    /// Open each video with short segments (`LadderPlanner.leadSegments`); false: the 2 s grid
    /// from the start, as before (the swipe bench's "today's path" imports that way).
    public var quickStart: Bool

    public init(preset: String = "veryfast", threads: Int? = nil, filterGraphPrefix: String? = nil, quickStart: Bool = true) {
        self.preset = preset
        self.threads = threads
        self.filterGraphPrefix = filterGraphPrefix
        self.quickStart = quickStart
    }
}
