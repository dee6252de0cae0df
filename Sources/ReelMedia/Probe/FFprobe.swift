import Foundation

/// ffprobe command lines and the decoding of their output. Runs nothing itself.
public enum FFprobe {
    /// `ffprobe -v error -print_format json -show_format -show_streams file:<path>`.
    /// The `file:` protocol prefix makes a path that starts with `-` (or contains `:` like
    /// `concat:` / `http:`) mean exactly that file, never an option or another protocol.
    public static func arguments(path: String) -> [String] {
        ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", fileURL(path)]
    }

    /// Arguments for a cheap check that the END of the file is readable (detects truncated files
    /// whose index points past EOF): read the packets of the last ~2 s of the first video stream.
    /// Caller treats any stderr output or non-zero exit as "truncated or undecodable".
    ///
    /// Only packets are read (demuxing, no decoding), so the cost is a seek plus a few MB of I/O.
    /// The seek lands on the keyframe before the interval, so a long GOP reads a bit more.
    /// stdout is one `pts_time` per line and can be discarded.
    public static func tailCheckArguments(path: String, duration: Double) -> [String] {
        let start = max(0, duration.isFinite ? duration - 2 : 0)
        return [
            "-v", "error", "-select_streams", "v:0",
            "-read_intervals", String(format: "%.3f%%", start),
            "-show_entries", "packet=pts_time", "-of", "csv=p=0",
            fileURL(path),
        ]
    }

    /// Picks the first video stream that is not an attached picture and the first audio stream.
    /// Throws only when the text is not ffprobe JSON at all or has no `format` section; odd
    /// or missing fields inside become nil / defaults.
    public static func decode(_ json: Data) throws(MediaError) -> MediaProbe {
        let output: FFprobeOutput
        do {
            output = try JSONDecoder().decode(FFprobeOutput.self, from: json)
        } catch {
            throw .invalidProbe("not JSON from ffprobe (\(json.count) bytes)")
        }
        guard let format = output.format else {
            throw .invalidProbe("no format section")
        }
        let streams = output.streams ?? []
        let formatName = format.formatName ?? ""
        let videoSource = streams.first { $0.codecType == "video" && !$0.attachedPicture }
        let audioSource = streams.first { $0.codecType == "audio" }
        let video = videoSource.map { ProbeInterpretation.video(from: $0, formatName: formatName) }
        let audio = audioSource.map {
            AudioStream(codec: $0.codecName ?? "unknown", channels: $0.channels ?? 0, sampleRate: $0.sampleRate ?? 0)
        }
        let duration = [format.duration, videoSource?.duration, audioSource?.duration]
            .compactMap { $0 }.first { $0 >= 0 }
        return MediaProbe(
            formatName: formatName, duration: duration, bitRate: format.bitRate, sizeBytes: format.size,
            video: video, audio: audio
        )
    }

    static func fileURL(_ path: String) -> String { "file:" + path }
}
