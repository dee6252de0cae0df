/// Measures the BANDWIDTH / AVERAGE-BANDWIDTH figures of a variant from its real segments.
public enum BandwidthMeter {
    /// Peak and average bits/s over segments, counting the init section once for the average as
    /// Apple's mediastreamvalidator does.
    ///
    /// Choice: `segmentBytes` are the media segments (after encryption, so padding counts);
    /// `initSectionBytes` (the `#EXT-X-MAP` file) is added once to the total for the average
    /// and never to the peak, since a player fetches it once per variant switch. With the
    /// ≈ 1.4 kB init ffmpeg writes, omitting it changes the average by < 0.1 %. Peak is the largest per-segment rate (RFC 8216 §4.3.4.2: BANDWIDTH must be
    /// ≥ any segment's rate); average is total bits over total duration. Both round up so a
    /// player is never promised less than it will need. Segments of zero duration are skipped.
    public static func measure(segmentBytes: [Int], durations: [Double], initSectionBytes: Int = 0) -> (peak: Int, average: Int) {
        var peak = 0.0, totalBits = Double(initSectionBytes) * 8, totalSeconds = 0.0
        for (bytes, seconds) in zip(segmentBytes, durations) where seconds > 0 {
            let bits = Double(bytes) * 8
            peak = max(peak, bits / seconds)
            totalBits += bits
            totalSeconds += seconds
        }
        guard totalSeconds > 0 else { return (0, 0) }
        return (Int(peak.rounded(.up)), Int((totalBits / totalSeconds).rounded(.up)))
    }
}
