import Foundation

/// Decides, from a probe alone, whether a file is something we publish and as what.
/// Order of checks: cheapest and most fundamental first, so the reason given is the root cause
/// (an empty file is "empty", not "no video stream").
public enum MediaValidator {
    public static func validate(
        _ probe: MediaProbe, fileSize: Int64, fileExtension: String, limits: MediaLimits
    ) -> Result<MediaClass, Rejection> {
        if fileSize <= 0 {
            return .failure(Rejection(code: "empty_file", message: "the file is empty (0 bytes)"))
        }
        guard let video = probe.video else {
            if let audio = probe.audio {
                return .failure(Rejection(
                    code: "no_video_stream",
                    message: "the file has only an audio stream (\(audio.codec)) and no picture"
                ))
            }
            let named = fileExtension.isEmpty ? "" : " .\(fileExtension)"
            return .failure(Rejection(code: "not_media", message: "the\(named) file contains no video or image stream"))
        }
        if video.displayWidth <= 0 || video.displayHeight <= 0 {
            // e.g. animated WebP: ffmpeg 5.1 probes it as webp with size 0x0 and cannot decode it.
            return .failure(Rejection(
                code: "unsupported_codec",
                message: "the \(video.codec) picture has no decodable size (animated WebP is not supported)"
            ))
        }
        let mediaClass = classify(probe, video: video)
        if let rejection = checkDimensions(video, mediaClass: mediaClass, limits: limits) {
            return .failure(rejection)
        }
        if mediaClass == .image { return .success(.image) }
        if let rejection = checkTiming(probe, video: video, mediaClass: mediaClass, limits: limits) {
            return .failure(rejection)
        }
        return .success(mediaClass)
    }

    /// Multi-frame GIF/APNG/WebP with a positive duration moves, so it is planned as a video.
    /// Anything else ffprobe marks as a still is an image; the rest is video.
    static func classify(_ probe: MediaProbe, video: VideoStream) -> MediaClass {
        let animatableCodecs: Set<String> = ["gif", "apng", "webp"]
        if animatableCodecs.contains(video.codec), let frames = video.frameCount, frames > 1,
           let duration = probe.duration, duration > 0 {
            return .animatedImage
        }
        return video.isStillImage ? .image : .video
    }

    static func checkDimensions(_ video: VideoStream, mediaClass: MediaClass, limits: MediaLimits) -> Rejection? {
        let width = video.displayWidth, height = video.displayHeight
        let size = "\(width)×\(height)"
        if min(width, height) < limits.minEdge {
            return Rejection(
                code: "too_small_dimensions",
                message: "picture size \(size) is below the minimum edge of \(limits.minEdge) px"
            )
        }
        if mediaClass == .image {
            let pixels = width * height
            guard pixels <= limits.maxImagePixels else {
                return Rejection(
                    code: "image_too_large",
                    message: "image size \(size) (\(megapixels(pixels)) MP) is above the limit of \(megapixels(limits.maxImagePixels)) MP"
                )
            }
            return nil
        }
        if max(width, height) > limits.maxLongEdge || min(width, height) > limits.maxShortEdge {
            return Rejection(
                code: "too_large_dimensions",
                message: "picture size \(size) is above the limit of \(limits.maxLongEdge)×\(limits.maxShortEdge)"
            )
        }
        return nil
    }

    static func checkTiming(_ probe: MediaProbe, video: VideoStream, mediaClass: MediaClass, limits: MediaLimits) -> Rejection? {
        guard let duration = probe.duration, duration > 0 else {
            return Rejection(code: "zero_duration", message: "the video has no duration (0 s or unknown)")
        }
        if duration > limits.maxDuration {
            return Rejection(
                code: "too_long",
                message: "duration \(String(format: "%.1f", duration)) s is above the limit of \(number(limits.maxDuration)) s"
            )
        }
        // Animated images often carry odd nominal rates (GIF delays of 0.01 s → 100 fps); the
        // ladder caps the output rate anyway, so only real videos are held to the range.
        guard mediaClass == .video else { return nil }
        guard let rate = video.frameRate else {
            return Rejection(code: "bad_frame_rate", message: "the video has no usable frame rate (0/0)")
        }
        if rate < limits.minFrameRate || rate > limits.maxFrameRate {
            return Rejection(
                code: "bad_frame_rate",
                message: "frame rate \(String(format: "%.2f", rate)) fps is outside \(number(limits.minFrameRate))–\(number(limits.maxFrameRate)) fps"
            )
        }
        return nil
    }

    /// `600` rather than `600.0` for whole numbers, so messages read naturally.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    static func megapixels(_ pixels: Int) -> String { String(format: "%.1f", Double(pixels) / 1_000_000) }
}
