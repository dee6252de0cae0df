import Foundation
import ReelModels

/// ffmpeg command lines for video posts.
public enum TranscodeCommand {
    /// ONE ffmpeg process, ONE decode of the source, producing:
    /// - `<out>/<rung>/index.m3u8`, `<out>/<rung>/init.mp4`, `<out>/<rung>/seg_00000.m4s`… per rung
    ///   (fMP4 HLS, 2 s segments after the plan's shorter lead segments, keyframes forced at the
    ///   same times in every rung so players can switch at any segment boundary);
    /// - `<out>/poster.jpg` at the top rung's size, taken at `plan.posterTime`;
    /// - `<out>/thumb.jpg`, the poster scaled to at most 320 px wide.
    ///
    /// Filter graph: `[0:v]` (auto-rotated by ffmpeg) → optional prefix → `split` into one branch
    /// per rung (`scale`, `setsar=1`, `fps`, `format=yuv420p`) plus a poster branch that `trim`s to
    /// exactly one frame and so reaches EOF on its own: the split never waits for it, and the
    /// rest of the video keeps flowing to the rungs. Every variant gets audio: the source's first
    /// audio track, or a generated silent stereo track when the source has none (a variant
    /// without audio would make players drop sound when switching). No master playlist is
    /// written; the packager writes its own with measured bandwidth.
    ///
    /// A trimmed plan reads only its part: `-ss`/`-t` on the input side, so ffmpeg seeks to
    /// the keyframe before the start, decodes and drops frames up to the exact start (its
    /// accurate seek while transcoding), and the part's timestamps begin at 0 — every later
    /// time in the command (poster, keyframe grid, silent track) is within the part.
    public static func arguments(input: String, plan: LadderPlan, outputDirectory: String, options: TranscodeOptions) -> [String] {
        let out = trimmedDirectory(outputDirectory)
        var args = ["-hide_banner", "-loglevel", "error", "-nostats", "-progress", "pipe:1", "-y"]
        if let trim = plan.trim {
            args += ["-ss", seconds(trim.start), "-t", seconds(trim.duration)]
        }
        args += ["-i", FFprobe.fileURL(input)]
        let audioInput: String
        if plan.hasSourceAudio {
            audioInput = "0:a:0"
        } else {
            args += ["-f", "lavfi", "-t", seconds(plan.duration), "-i", "anullsrc=channel_layout=stereo:sample_rate=48000"]
            audioInput = "1:a:0"
        }
        args += ["-filter_complex", filterGraph(plan: plan, prefix: options.filterGraphPrefix)]
        for index in plan.rungs.indices {
            args += ["-map", "[v\(index)]", "-map", audioInput]
        }
        args += ["-c:v", "libx264", "-preset", options.preset]
        if let threads = options.threads { args += ["-threads", String(threads)] }
        for (index, rung) in plan.rungs.enumerated() {
            let gop = String(Int((rung.frameRate * plan.segmentDuration).rounded()))
            args += [
                "-b:v:\(index)", String(rung.videoBitrate), "-maxrate:v:\(index)", String(rung.maxRate),
                "-bufsize:v:\(index)", String(rung.bufferSize), "-profile:v:\(index)", rung.profile,
                "-level:v:\(index)", levelText(rung.level), "-g:v:\(index)", gop, "-keyint_min:v:\(index)", gop,
            ]
        }
        args += ["-sc_threshold", "0", "-force_key_frames", keyframeExpression(plan)]
        args += ["-c:a", "aac", "-ac", "2", "-ar", "48000"]
        for (index, rung) in plan.rungs.enumerated() {
            args += ["-b:a:\(index)", String(rung.audioBitrate)]
        }
        let streamMap = plan.rungs.enumerated().map { "v:\($0.offset),a:\($0.offset),name:\($0.element.name)" }
        args += [
            "-f", "hls", "-hls_time", seconds(plan.segmentDuration),
        ]
        // A first segment shorter than the rest: the muxer then cuts at every forced keyframe
        // at least this far apart, so the lead segments come out as planned (ffmpeg 5.1).
        if let first = plan.leadSegments.first { args += ["-hls_init_time", seconds(first)] }
        args += [
            "-hls_playlist_type", "vod",
            "-hls_flags", "independent_segments", "-hls_segment_type", "fmp4",
            "-hls_fmp4_init_filename", "init.mp4", "-hls_segment_filename", "\(out)/%v/seg_%05d.m4s",
            "-var_stream_map", streamMap.joined(separator: " "), "\(out)/%v/index.m3u8",
        ]
        args += ["-map", "[poster]", "-frames:v", "1", "-q:v", "3", "\(out)/poster.jpg"]
        args += ["-map", "[thumb]", "-frames:v", "1", "-q:v", "3", "\(out)/thumb.jpg"]
        return args
    }

    /// Keyframe times for `-force_key_frames`: every `segmentDuration` (`expr:gte(t,n_forced*2)`),
    /// or first at the ends of the lead segments (0.5, 1), then on the regular grid from where
    /// they end (2, 4, …): `if(eq(n_forced,1),gte(t,0.5),if(eq(n_forced,2),gte(t,1),gte(t,(n_forced-2)*2)))`.
    /// The n-th forced keyframe goes at the first frame at or after its time (the 0th at 0).
    static func keyframeExpression(_ plan: LadderPlan) -> String {
        let step = seconds(plan.segmentDuration)
        guard !plan.leadSegments.isEmpty, plan.segmentDuration > 0 else { return "expr:gte(t,n_forced*\(step))" }
        var ends: [Double] = []
        for duration in plan.leadSegments { ends.append((ends.last ?? 0) + duration) }
        // The grid goes on from the first multiple of the step at or after the lead's end; an
        // end on the grid is the grid's keyframe already.
        let gridStart = Int((ends[ends.count - 1] / plan.segmentDuration - 1e-9).rounded(.up))
        if abs(Double(gridStart) * plan.segmentDuration - ends[ends.count - 1]) < 1e-9 { ends.removeLast() }
        let offset = ends.count + 1 - gridStart   // n_forced of the grid's first keyframe, less its grid index
        let index = offset == 0 ? "n_forced" : offset > 0 ? "(n_forced-\(offset))" : "(n_forced+\(-offset))"
        var expression = "gte(t,\(index)*\(step))"
        for (index, end) in ends.enumerated().reversed() {
            expression = "if(eq(n_forced,\(index + 1)),gte(t,\(seconds(end))),\(expression))"
        }
        return "expr:" + expression
    }

    /// The init section ffmpeg 5.1 writes for a rung: it ignores `%v` here and appends the
    /// rung's index when there is more than one variant (`init_3.mp4` in `720p/`), but writes
    /// plain `init.mp4` for a one-rung ladder. The playlist's `#EXT-X-MAP` is authoritative;
    /// this is for callers that need the name before parsing.
    public static func initSegmentName(rungIndex: Int, rungCount: Int) -> String {
        rungCount > 1 ? "init_\(rungIndex).mp4" : "init.mp4"
    }

    /// Remux (no decode) the given rung playlist into a faststart MP4 for download:
    /// -c copy -movflags +faststart. Run it before segments are encrypted.
    public static func downloadArguments(rungPlaylist: String, output: String) -> [String] {
        [
            "-hide_banner", "-loglevel", "error", "-nostats", "-y", "-i", FFprobe.fileURL(rungPlaylist),
            "-map", "0:v:0", "-map", "0:a:0?", "-c", "copy", "-movflags", "+faststart", FFprobe.fileURL(output),
        ]
    }

    /// The `-filter_complex` text (see `arguments`).
    static func filterGraph(plan: LadderPlan, prefix: String?) -> String {
        let count = plan.rungs.count
        var head = "[0:v]"
        if let prefix, !prefix.isEmpty { head += prefix + "," }
        let splitLabels = (0...count).map { "[s\($0)]" }.joined()
        var chains = ["\(head)split=\(count + 1)\(splitLabels)"]
        for (index, rung) in plan.rungs.enumerated() {
            chains.append(
                "[s\(index)]scale=w=\(rung.width):h=\(rung.height),setsar=1,fps=\(rateText(rung.frameRate)),format=yuv420p[v\(index)]"
            )
        }
        let top = plan.rungs.last ?? Rung.fallbackPoster
        let thumb = thumbnailSize(width: top.width, height: top.height)
        chains.append(
            "[s\(count)]trim=start=\(seconds(plan.posterTime)),trim=end_frame=1,setpts=PTS-STARTPTS,"
                + "scale=w=\(top.width):h=\(top.height),setsar=1,split=2[poster][thumbsrc]"
        )
        chains.append("[thumbsrc]scale=w=\(thumb.width):h=\(thumb.height)[thumb]")
        return chains.joined(separator: ";")
    }

    /// At most 320 px wide (never wider than the poster), aspect kept, even height.
    public static func thumbnailSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let thumbWidth = min(320, width - width % 2)
        let thumbHeight = max(2, Int((Double(height) * Double(thumbWidth) / Double(max(width, 1)) / 2).rounded()) * 2)
        return (thumbWidth, thumbHeight)
    }

    /// `31` → `3.1`, as x264's level option reads it.
    static func levelText(_ level: Int) -> String { "\(level / 10).\(level % 10)" }

    /// NTSC rates as exact rationals (`30000/1001`), others as plain numbers (`30`, `12.5`).
    static func rateText(_ rate: Double) -> String {
        let ntsc = rate * 1001
        if abs(ntsc - ntsc.rounded()) < 0.01, Int(ntsc.rounded()) % 1000 == 0, rate != rate.rounded() {
            return "\(Int(ntsc.rounded()))/1001"
        }
        return seconds(rate)
    }

    /// Shortest exact decimal: `2`, `1.5`, `12.345` (3 decimals at most).
    static func seconds(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    static func trimmedDirectory(_ directory: String) -> String {
        var trimmed = directory
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed
    }
}

extension Rung {
    /// Only used if a plan somehow has no rungs (LadderPlanner never returns one).
    static let fallbackPoster = Rung(
        name: "poster", width: 320, height: 180, frameRate: 30, videoBitrate: 0, maxRate: 0, bufferSize: 0,
        audioBitrate: 0, profile: "high", level: 30, codecs: ""
    )
}
