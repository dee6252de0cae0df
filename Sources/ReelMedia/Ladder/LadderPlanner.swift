import Foundation
import ReelModels

/// Chooses the HLS ladder for a probed source.
///
/// Rules, and why:
/// - Standard rungs 240/360/540/720/1080 by the short edge of the DISPLAY size, every one that
///   is ≤ the source's short edge: never upscale (it costs bits and shows nothing new), and a
///   source between two rungs tops out at the lower one rather than adding an odd size.
/// - A source whose short edge is below 240 gets one rung at its own size (rounded down to even).
/// - Aspect ratio of the display size is kept; both dimensions are even (yuv420p needs it).
/// - Frame rate: the source rate (snapped to a standard rate within 2 %, 30 if unknown) divided
///   by the smallest whole number that brings it to ≤ 60, or ≤ 30 for rungs below 720p. Whole
///   divisors drop frames evenly (60 → 30, 50 → 25, 120 → 60) instead of juddering.
/// - H.264 High at the smallest level 3.0…4.2 that fits; beyond 4.2 the source is refused.
/// - A trimmed source (a story part) is planned for the part: its duration is the part's
///   (clamped to where the source ends) and the poster is taken inside it.
/// - `quickStart`: the video opens with `leadSegments` (0.5, 0.5 and 1 s, then the 2 s grid).
///   At 1.6 Mbit/s a 2 s segment of the lowest rung (~130 kB) takes 0.65 s after its round
///   trip; its first half second (~22 kB) 0.1 s, and each next lead segment downloads in less
///   time than the one before it plays. Every rung gets the same keyframes, so rungs still
///   switch at any segment boundary.
public enum LadderPlanner {
    public static let standardShortEdges = [240, 360, 540, 720, 1080]
    public static let segmentDuration: Double = 2
    public static let leadSegments: [Double] = [0.5, 0.5, 1]

    public static func plan(
        for probe: MediaProbe, trim: SourceTrim? = nil, table: BitrateTable = .default, quickStart: Bool = true
    ) throws(MediaError) -> LadderPlan {
        guard let video = probe.video, video.displayWidth > 0, video.displayHeight > 0 else {
            throw .unsupportedSource("no video stream with a known size")
        }
        guard let sourceDuration = probe.duration, sourceDuration > 0, sourceDuration.isFinite else {
            throw .unsupportedSource("the duration is unknown or zero")
        }
        var duration = sourceDuration
        var part: SourceTrim?
        if let trim {
            guard trim.start >= 0, trim.duration > 0, trim.start < sourceDuration else {
                throw .unsupportedSource("the part from \(trim.start) s for \(trim.duration) s is not inside the \(sourceDuration) s source")
            }
            duration = min(trim.duration, sourceDuration - trim.start)
            part = SourceTrim(start: trim.start, duration: duration)
        }
        let sourceRate = standardFrameRate(video.frameRate)
        var rungs: [Rung] = []
        for (shortEdge, width, height) in rungSizes(displayWidth: video.displayWidth, displayHeight: video.displayHeight) {
            let rate = cappedFrameRate(sourceRate, limit: shortEdge >= 720 ? 60 : 30)
            let bitrates = table.rates(shortEdge: shortEdge, frameRate: rate)
            let maxRate = Int((Double(bitrates.video) * table.maxRateMultiplier).rounded())
            guard let level = H264Level.smallest(width: width, height: height, frameRate: rate, maxRate: maxRate) else {
                throw .unsupportedSource("\(width)×\(height) at \(rate) fps does not fit H.264 level 4.2")
            }
            rungs.append(Rung(
                name: "\(shortEdge)p", width: width, height: height, frameRate: rate,
                videoBitrate: bitrates.video, maxRate: maxRate,
                bufferSize: Int((Double(maxRate) * table.bufferSeconds).rounded()),
                audioBitrate: bitrates.audio, profile: "high", level: level,
                codecs: H264Level.codecsString(level: level)
            ))
        }
        return LadderPlan(
            rungs: rungs, segmentDuration: segmentDuration, duration: duration, hasSourceAudio: probe.audio != nil,
            posterTime: min(1.0, duration / 3), sourceFrameRate: sourceRate, trim: part,
            leadSegments: quickStart ? leadSegments : []
        )
    }

    /// (short edge, width, height) per rung, ascending.
    static func rungSizes(displayWidth: Int, displayHeight: Int) -> [(Int, Int, Int)] {
        let portrait = displayHeight > displayWidth
        let sourceShort = min(displayWidth, displayHeight), sourceLong = max(displayWidth, displayHeight)
        var shortEdges = standardShortEdges.filter { $0 <= sourceShort }
        if shortEdges.isEmpty { shortEdges = [evenFloor(sourceShort)] }
        return shortEdges.map { short in
            let exactLong = Double(sourceLong) * Double(short) / Double(sourceShort)
            let long = min(evenRounded(exactLong), evenFloor(sourceLong))
            return portrait ? (short, short, long) : (short, long, short)
        }
    }

    static let standardRates: [Double] = [24000.0 / 1001, 24, 25, 30000.0 / 1001, 30, 48, 50, 60000.0 / 1001, 60, 120]

    /// Phones write slightly variable rates (29.87); snapping keeps GOPs and labels tidy.
    static func standardFrameRate(_ rate: Double?) -> Double {
        guard let rate, rate > 0, rate.isFinite else { return 30 }
        if let near = standardRates.min(by: { abs($0 - rate) < abs($1 - rate) }), abs(near - rate) / near <= 0.02 {
            return near
        }
        return (rate * 1000).rounded() / 1000
    }

    static func cappedFrameRate(_ rate: Double, limit: Double) -> Double {
        let divisor = (rate / limit).rounded(.up)
        return divisor > 1 ? rate / divisor : rate
    }

    static func evenFloor(_ value: Int) -> Int { max(2, value - value % 2) }
    static func evenRounded(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }
}
