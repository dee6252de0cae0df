import Foundation
import ReelMedia
import ReelProcess

extension ProcessRunner {
    /// `probe` completed from the packets when its header lacks timing (see `PacketTiming`):
    /// validation and ladder planning must agree, so both go through here.
    func completingTiming(of probe: MediaProbe, path: String) async throws -> MediaProbe {
        guard PacketTiming.needsMeasuring(probe) else { return probe }
        let listing = try await run("ffprobe", PacketTiming.arguments(path: path))
        guard listing.succeeded, let measured = PacketTiming.measure(String(decoding: listing.stdout, as: UTF8.self)) else { return probe }
        return PacketTiming.applying(measured, to: probe)
    }
}
