import Foundation

/// Cuts cues into WebVTT segments that line up with a video's HLS segments (RFC 8216 §3.5).
///
/// Every segment starts with `X-TIMESTAMP-MAP=MPEGTS:<first PTS × 90 kHz>,LOCAL:00:00:00.000`:
/// the source's time 0 (where subtitle files count from) is the video's first frame, and that
/// frame sits at `firstPresentationTime` on the fMP4 timeline (x264's B-frame delay puts it at
/// ≈ 0.067 s, not 0). A cue that spans a boundary is written in every segment it overlaps, as
/// RFC 8216 requires so a player that starts mid-way still shows it; players drop the repeat.
/// Cues starting after the video ends are left out. Every segment is written even when empty:
/// a subtitle playlist has one segment per video segment.
public enum SubtitleSegmenter {
    public static func segments(_ cues: [SubtitleCue], segmentDurations: [Double], firstPresentationTime: Double) -> [String] {
        let header = [timestampMap(firstPresentationTime: firstPresentationTime)]
        var start = 0.0
        var result: [String] = []
        let ordered = cues.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        for (index, duration) in segmentDurations.enumerated() {
            let end = start + duration
            let isLast = index == segmentDurations.count - 1
            let inside = ordered.filter { cue in
                // Zero-length cues belong to the segment holding their instant.
                let overlaps = cue.end > cue.start ? (cue.start < end && cue.end > start) : (cue.start >= start && cue.start < end)
                return overlaps || (isLast && cue.start >= start && cue.start <= end)
            }
            result.append(WebVTTWriter.render(inside, headerLines: header))
            start = end
        }
        return result
    }

    /// `X-TIMESTAMP-MAP=MPEGTS:5941,LOCAL:00:00:00.000` for a first frame at 0.066 s. MPEG-TS
    /// timestamps are 33-bit, so the value wraps like a PTS would.
    public static func timestampMap(firstPresentationTime: Double) -> String {
        let ticks = Int64((max(0, firstPresentationTime) * 90_000).rounded()) % (Int64(1) << 33)
        return "X-TIMESTAMP-MAP=MPEGTS:\(ticks),LOCAL:00:00:00.000"
    }

    /// The video's first presentation time from `ffprobe -show_entries stream=start_time` of its
    /// top rung (one number per line); 0 when ffprobe printed nothing usable (a few tens of
    /// milliseconds off is better than no captions).
    public static func firstPresentationTime(ffprobeOutput: String) -> Double {
        let values = ffprobeOutput.split(whereSeparator: \.isNewline)
            .compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            .filter { $0.isFinite && $0 >= 0 }
        return values.min() ?? 0
    }

    public static func firstPresentationTimeArguments(playlist: String) -> [String] {
        ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=start_time", "-of", "csv=p=0", FFprobe.fileURL(playlist)]
    }
}
