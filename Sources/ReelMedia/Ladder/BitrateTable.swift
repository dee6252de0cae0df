/// Target bit rates per rung, by short edge.
///
/// Video figures follow Apple's *HLS Authoring Specification for Apple Devices* (2017+ table,
/// H.264, 30 fps): 416×234 at 145 kbps, 640×360 at 365, 768×432 at 730–1100, 960×540 at 2000,
/// 1280×720 at 3000–4500, 1920×1080 at 6000–7800. Short-form clips are mostly static faces
/// and text, so we take the lower/middle figure per size but lift the two smallest rungs
/// (240: 400, 360: 800) because they serve phones on cellular where a blocky picture is
/// the most visible failure:
///
/// | short edge | video kbps (≤ 30 fps) | audio kbps |
/// |-----------:|----------------------:|-----------:|
/// | 240        | 400                   | 96         |
/// | 360        | 800                   | 96         |
/// | 540        | 2000                  | 128        |
/// | 720        | 3000                  | 128        |
/// | 1080       | 6000                  | 128        |
///
/// Above 30 fps the video rate is multiplied by `highFrameRateMultiplier` (1.5: Apple's 60 fps
/// rows are roughly 1.5× the 30 fps ones). A sub-240 source gets the 240 rate scaled down by
/// its short edge, never below 150 kbps.
public struct BitrateTable: Sendable, Equatable, Codable {
    public struct Entry: Sendable, Equatable, Codable {
        public var shortEdge: Int
        public var videoKbps: Int
        public var audioKbps: Int

        public init(shortEdge: Int, videoKbps: Int, audioKbps: Int) {
            self.shortEdge = shortEdge
            self.videoKbps = videoKbps
            self.audioKbps = audioKbps
        }
    }

    /// Ascending by short edge; these are also the only standard rung sizes.
    public var entries: [Entry]
    public var highFrameRateMultiplier: Double
    /// VBV peak relative to the average. Apple allows a VOD peak of up to 200 % of average;
    /// 150 % leaves x264 room for motion while keeping BANDWIDTH honest.
    public var maxRateMultiplier: Double
    /// VBV buffer in seconds of peak rate; 2 s = one segment.
    public var bufferSeconds: Double

    public init(entries: [Entry], highFrameRateMultiplier: Double = 1.5, maxRateMultiplier: Double = 1.5, bufferSeconds: Double = 2) {
        self.entries = entries.sorted { $0.shortEdge < $1.shortEdge }
        self.highFrameRateMultiplier = highFrameRateMultiplier
        self.maxRateMultiplier = maxRateMultiplier
        self.bufferSeconds = bufferSeconds
    }

    public static let `default` = BitrateTable(entries: [
        Entry(shortEdge: 240, videoKbps: 400, audioKbps: 96),
        Entry(shortEdge: 360, videoKbps: 800, audioKbps: 96),
        Entry(shortEdge: 540, videoKbps: 2000, audioKbps: 128),
        Entry(shortEdge: 720, videoKbps: 3000, audioKbps: 128),
        Entry(shortEdge: 1080, videoKbps: 6000, audioKbps: 128),
    ])

    /// The entry for a rung's short edge: exact match, or the smallest entry scaled down for a
    /// below-ladder source.
    func rates(shortEdge: Int, frameRate: Double) -> (video: Int, audio: Int) {
        guard let smallest = entries.first else { return (video: 150_000, audio: 96_000) }
        let entry = entries.last { $0.shortEdge <= shortEdge } ?? smallest
        var kbps = Double(entry.videoKbps)
        if shortEdge < smallest.shortEdge {
            kbps = max(150, kbps * Double(shortEdge) / Double(smallest.shortEdge))
        }
        if frameRate > 30.5 { kbps *= highFrameRateMultiplier }
        return (video: Int(kbps.rounded()) * 1000, audio: entry.audioKbps * 1000)
    }
}
