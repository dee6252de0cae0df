/// H.264 levels 3.0–4.2 (ITU-T H.264 Table A-1): the smallest one whose limits a rung fits
/// is what we signal, so old decoders that check the level accept the stream.
enum H264Level {
    struct Limits {
        var level: Int
        /// Macroblocks per second, per frame, and High-profile max bit rate (1.25 × Main), bits/s.
        var maxMacroblocksPerSecond: Int
        var maxFrameMacroblocks: Int
        var maxBitrate: Int
    }

    static let table: [Limits] = [
        Limits(level: 30, maxMacroblocksPerSecond: 40_500, maxFrameMacroblocks: 1_620, maxBitrate: 12_500_000),
        Limits(level: 31, maxMacroblocksPerSecond: 108_000, maxFrameMacroblocks: 3_600, maxBitrate: 17_500_000),
        Limits(level: 32, maxMacroblocksPerSecond: 216_000, maxFrameMacroblocks: 5_120, maxBitrate: 25_000_000),
        Limits(level: 40, maxMacroblocksPerSecond: 245_760, maxFrameMacroblocks: 8_192, maxBitrate: 25_000_000),
        Limits(level: 41, maxMacroblocksPerSecond: 245_760, maxFrameMacroblocks: 8_192, maxBitrate: 62_500_000),
        Limits(level: 42, maxMacroblocksPerSecond: 522_240, maxFrameMacroblocks: 8_704, maxBitrate: 62_500_000),
    ]

    /// Level × 10, or nil when even 4.2 is too small. Besides the frame size in macroblocks, each
    /// side may be at most √(8 × MaxFS) macroblocks (so 4096×256 at 4.x is refused).
    static func smallest(width: Int, height: Int, frameRate: Double, maxRate: Int) -> Int? {
        let columns = (width + 15) / 16, rows = (height + 15) / 16
        let frameMacroblocks = columns * rows
        let perSecond = Double(frameMacroblocks) * frameRate
        return table.first { limits in
            let maxSide = Int((8 * Double(limits.maxFrameMacroblocks)).squareRoot())
            return frameMacroblocks <= limits.maxFrameMacroblocks && columns <= maxSide && rows <= maxSide
                && perSecond <= Double(limits.maxMacroblocksPerSecond) && maxRate <= limits.maxBitrate
        }?.level
    }

    /// `avc1.PPCCLL`: High profile 0x64, no constraint flags, level in hex (31 → 1f).
    static func codecsString(level: Int) -> String {
        let hex = String(level, radix: 16)
        return "avc1.6400" + (hex.count < 2 ? "0" + hex : hex) + ",mp4a.40.2"
    }
}
