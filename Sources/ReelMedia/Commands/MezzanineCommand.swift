import Foundation

/// The size policy's compression pass (seed 004): a large upload is re-encoded once to H.264
/// at most 1080p30 before its ladder, and that smaller file is kept as the mezzanine.
public enum MezzanineCommand {
    /// The short side's limit (1080 for a 1080×1920 portrait clip) and the frame-rate cap.
    public static let maxShortSide = 1080
    public static let maxFrameRate = 30.0

    /// Output size for a displayed `width`×`height`: scaled down (never up) so the short side is
    /// at most 1080, aspect kept, both sides even (yuv420p needs it).
    public static func outputSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let shortSide = min(width, height)
        guard shortSide > maxShortSide else { return (even(width), even(height)) }
        let scale = Double(maxShortSide) / Double(shortSide)
        return (even(Int((Double(width) * scale).rounded())), even(Int((Double(height) * scale).rounded())))
    }

    /// ffmpeg arguments: auto-rotated decode → scale → fps cap → H.264 (CRF, `veryfast`, high
    /// profile) + AAC, `+faststart`, first video and (if present) first audio stream only.
    /// Quality-targeted CRF rather than a bitrate: this file is only an input to the ladder.
    public static func arguments(input: String, output: String, probe: MediaProbe, threads: Int? = nil) -> [String] {
        var filters: [String] = []
        if let video = probe.video {
            let size = outputSize(width: video.displayWidth, height: video.displayHeight)
            if size.width != video.displayWidth || size.height != video.displayHeight {
                filters.append("scale=\(size.width):\(size.height)")
            }
            if let rate = video.frameRate, rate > maxFrameRate + 0.01 {
                filters.append("fps=30")
            }
        }
        filters.append("format=yuv420p")
        var args = ["-hide_banner", "-loglevel", "error", "-nostats", "-progress", "pipe:1", "-y", "-i", FFprobe.fileURL(input)]
        args += ["-map", "0:v:0"]
        if probe.audio != nil { args += ["-map", "0:a:0"] }
        args += ["-vf", filters.joined(separator: ","), "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-profile:v", "high"]
        if let threads { args += ["-threads", String(threads)] }
        if probe.audio != nil { args += ["-c:a", "aac", "-b:a", "160k", "-ac", "2"] }
        args += ["-movflags", "+faststart", "-f", "mp4", FFprobe.fileURL(output)]
        return args
    }

    private static func even(_ value: Int) -> Int { max(2, value - value % 2) }
}
