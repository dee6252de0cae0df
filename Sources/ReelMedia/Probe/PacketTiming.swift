import Foundation

/// Duration and frame rate measured from the packets themselves, for files whose header does
/// not say: a browser's MediaRecorder writes WebM without a duration, with a millisecond time
/// base (`r_frame_rate` 1000/1) and no average frame rate. Demuxing the video packets costs a
/// fraction of a second for a short clip and needs no decoding.
public enum PacketTiming {
    /// When a probe needs measuring: a video (not a still) whose duration is unknown, or whose
    /// frame rate is missing or is only the container's time base.
    public static func needsMeasuring(_ probe: MediaProbe) -> Bool {
        guard let video = probe.video, !video.isStillImage else { return false }
        if (probe.duration ?? 0) <= 0 { return true }
        guard let rate = video.frameRate else { return true }
        return rate >= 1000 && probe.formatName.contains("matroska")
    }

    /// ffprobe arguments listing every video packet's `pts_time`, one per line.
    public static func arguments(path: String) -> [String] {
        ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", FFprobe.fileURL(path)]
    }

    /// Duration (last minus first timestamp, plus one average frame) and average frame rate
    /// from that listing; nil when fewer than two timestamps are readable.
    public static func measure(_ listing: String) -> (duration: Double, frameRate: Double)? {
        let times = listing.split(whereSeparator: \.isNewline)
            .compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
            .filter(\.isFinite)
            .sorted()
        guard times.count >= 2, let first = times.first, let last = times.last, last > first else { return nil }
        let frameDuration = (last - first) / Double(times.count - 1)
        let duration = last - first + frameDuration
        return (duration, Double(times.count) / duration)
    }

    /// The probe with the measured values filled in.
    public static func applying(_ measured: (duration: Double, frameRate: Double), to probe: MediaProbe) -> MediaProbe {
        var patched = probe
        if (patched.duration ?? 0) <= 0 { patched.duration = measured.duration }
        if var video = patched.video {
            if video.frameRate == nil || (video.frameRate ?? 0) >= 1000 { video.frameRate = measured.frameRate }
            patched.video = video
        }
        return patched
    }
}
