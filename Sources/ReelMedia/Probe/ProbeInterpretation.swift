/// Turns ffprobe's raw stream fields into the normalised values of `VideoStream`.
enum ProbeInterpretation {
    /// Codecs that normally hold one picture. `mjpeg` and `png` can also be motion codecs inside
    /// a movie container, so they count as still only with at most one frame (see `isStill`).
    static let stillCodecs: Set<String> = [
        "mjpeg", "jpegls", "jpeg2000", "png", "webp", "bmp", "tiff", "heif", "hevc_image", "av1_image",
        "gif", "apng", "qoi", "jpegxl", "pgm", "ppm", "pam", "targa",
    ]
    /// Demuxers that only ever produce images (`image2`, `png_pipe`, `jpeg_pipe`…).
    static func isImageFormat(_ formatName: String) -> Bool {
        formatName.split(separator: ",").contains { $0 == "image2" || $0.hasSuffix("_pipe") }
    }

    static func video(from stream: FFprobeStream, formatName: String) -> VideoStream {
        let width = max(0, stream.width ?? 0)
        let height = max(0, stream.height ?? 0)
        let rotation = clockwiseRotation(displayMatrix: stream.displayMatrixRotation, rotateTag: stream.rotateTag)
        let sar = ratio(stream.sampleAspectRatio).flatMap { $0 > 0 ? $0 : nil } ?? 1
        let stretchedWidth = Int((Double(width) * sar).rounded())
        let quarterTurn = rotation == 90 || rotation == 270
        let codec = stream.codecName ?? "unknown"
        let frameCount = stream.frameCount
        let isStill = stream.attachedPicture || isImageFormat(formatName)
            || (stillCodecs.contains(codec) && (frameCount ?? 1) <= 1 && codec != "gif" && codec != "apng")
            || (codec == "gif" && frameCount == 1)
        return VideoStream(
            codec: codec, codedWidth: width, codedHeight: height, rotation: rotation, sampleAspectRatio: sar,
            displayWidth: quarterTurn ? height : stretchedWidth, displayHeight: quarterTurn ? stretchedWidth : height,
            frameRate: ratio(stream.avgFrameRate) ?? ratio(stream.rFrameRate), frameCount: frameCount,
            pixelFormat: stream.pixelFormat, isStillImage: isStill
        )
    }

    /// Display matrix rotation is counter-clockwise, the `rotate` tag clockwise; result is the
    /// clockwise turn snapped to a multiple of 90 in 0..<360.
    static func clockwiseRotation(displayMatrix: Double?, rotateTag: Double?) -> Int {
        let clockwise: Double
        if let displayMatrix { clockwise = -displayMatrix } else if let rotateTag { clockwise = rotateTag } else { return 0 }
        let quarterTurns = Int((clockwise / 90).rounded())
        return ((quarterTurns % 4) + 4) % 4 * 90
    }

    /// `"30000/1001"` → 29.97; `"0/0"`, `"N/A"`, zero or negative → nil.
    static func ratio(_ text: String?) -> Double? {
        guard let text else { return nil }
        let parts = text.split(separator: text.contains(":") ? ":" : "/")
        let value: Double?
        if parts.count == 2, let numerator = Double(parts[0]), let denominator = Double(parts[1]), denominator != 0 {
            value = numerator / denominator
        } else if parts.count == 1 {
            value = Double(parts[0])
        } else {
            value = nil
        }
        guard let value, value.isFinite, value > 0 else { return nil }
        return value
    }
}
