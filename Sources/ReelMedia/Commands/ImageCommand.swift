/// One responsive variant of a still image, as planned.
public struct ImageVariantPlan: Sendable, Equatable, Codable {
    /// Relative to the output directory, `<prefix>_<width>.jpg`.
    public var path: String
    public var width: Int
    public var height: Int

    public init(path: String, width: Int, height: Int) {
        self.path = path
        self.width = width
        self.height = height
    }
}

/// ffmpeg command lines for image posts.
public enum ImageCommand {
    public static let standardWidths = [320, 720, 1080]
    /// How much wider than the step below it an image must be to get a variant of its own width.
    static let ownWidthMargin = 1.1

    /// Responsive JPEG variants 320/720/1080 wide, never upscaled, plus one at the image's own
    /// width when it falls between two steps (a 540-wide story photo is served at 540, not only
    /// at 320; one a few pixels past a step is served at the step), orientation applied first (so widths refer to the
    /// upright image), metadata stripped (-map_metadata -1; ffmpeg's mjpeg encoder writes no
    /// EXIF/GPS), one ffmpeg process with split. Returns the args and the planned outputs, paths
    /// relative to outputDirectory named "<prefix>_<width>.jpg".
    ///
    /// `sourceWidth`/`sourceHeight` are the STORED pixel size (what ffprobe reports for a JPEG;
    /// ffmpeg 5.1 ignores EXIF orientation). `-noautorotate` keeps any newer ffmpeg from rotating
    /// a second time. Heights are even and keep the upright aspect ratio.
    public static func plan(
        input: String, sourceWidth: Int, sourceHeight: Int, orientation: Int, outputDirectory: String, prefix: String
    ) -> (arguments: [String], variants: [ImageVariantPlan]) {
        let swaps = ExifOrientation.swapsDimensions(orientation)
        let uprightWidth = max(1, swaps ? sourceHeight : sourceWidth)
        let uprightHeight = max(1, swaps ? sourceWidth : sourceHeight)
        var widths = standardWidths.filter { $0 <= uprightWidth }
        if let largest = standardWidths.last, uprightWidth < largest, Double(uprightWidth) >= Double(widths.last ?? 0) * ownWidthMargin {
            widths.append(uprightWidth)
        }
        let variants = widths.map { width in
            let height = Int((Double(uprightHeight) * Double(width) / Double(uprightWidth) / 2).rounded()) * 2
            return ImageVariantPlan(path: "\(prefix)_\(width).jpg", width: width, height: max(2, height))
        }
        var chain = "[0:v]"
        var filters: [String] = []
        if let rotate = ExifOrientation.filter(for: orientation) { filters.append(rotate) }
        filters.append("split=\(variants.count)" + variants.indices.map { "[s\($0)]" }.joined())
        chain += filters.joined(separator: ",")
        var graph = [chain]
        for (index, variant) in variants.enumerated() {
            graph.append("[s\(index)]scale=w=\(variant.width):h=\(variant.height):flags=lanczos,setsar=1[o\(index)]")
        }
        let out = TranscodeCommand.trimmedDirectory(outputDirectory)
        var args = [
            "-hide_banner", "-loglevel", "error", "-nostats", "-y", "-noautorotate", "-i", FFprobe.fileURL(input),
            "-filter_complex", graph.joined(separator: ";"),
        ]
        for (index, variant) in variants.enumerated() {
            args += [
                "-map", "[o\(index)]", "-map_metadata", "-1", "-frames:v", "1", "-q:v", "3",
                "\(out)/\(variant.path)",
            ]
        }
        return (args, variants)
    }
}
