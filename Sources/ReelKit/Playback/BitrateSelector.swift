import Foundation
import ReelHLS

/// Download throughput from recent transfers: an exponentially weighted average of bits per
/// second, weighted by bytes so a 300-byte playlist does not count like a 1 MB segment, and
/// ignoring transfers too small to say anything about bandwidth.
public struct ThroughputEstimator: Sendable, Equatable {
    /// How much a full-weight sample moves the estimate (0…1).
    public var smoothing: Double
    /// Transfers smaller than this are dominated by latency, not bandwidth.
    public var minimumBytes: Int
    public private(set) var bitsPerSecond: Double?

    public init(smoothing: Double = 0.3, minimumBytes: Int = 16 * 1024) {
        self.smoothing = min(1, max(0.01, smoothing))
        self.minimumBytes = minimumBytes
    }

    public mutating func record(bytes: Int, seconds: TimeInterval) {
        guard bytes >= minimumBytes, seconds > 0 else { return }
        let sample = Double(bytes) * 8 / seconds
        // Weight grows with size up to 1 at 512 kB.
        let weight = smoothing * min(1, Double(bytes) / (512 * 1024))
        bitsPerSecond = bitsPerSecond.map { $0 + weight * (sample - $0) } ?? sample
    }
}

/// Picks the rung of a master playlist (parsed with ReelHLS's `MasterPlaylist`, the same
/// reader the server's tests use) to start playback with.
public struct BitrateSelector: Sendable, Equatable {
    /// Share of the measured throughput a variant's peak bandwidth may use (headroom for
    /// fluctuation and audio).
    public var safetyFactor: Double
    /// Low-data mode: never above this peak bandwidth or this short edge.
    public var lowDataMaxBandwidth: Int
    public var lowDataMaxShortEdge: Int

    public init(safetyFactor: Double = 0.7, lowDataMaxBandwidth: Int = 1_000_000, lowDataMaxShortEdge: Int = 360) {
        self.safetyFactor = safetyFactor
        self.lowDataMaxBandwidth = lowDataMaxBandwidth
        self.lowDataMaxShortEdge = lowDataMaxShortEdge
    }

    /// With no measurement yet, the lowest rung (the one the feed's prefetch already holds,
    /// so the first frame comes from cache). Otherwise the highest rung whose peak bandwidth
    /// fits `safetyFactor × throughput` and, if given, the screen's short edge; the lowest
    /// rung when none fits.
    public func select(
        from master: MasterPlaylist, throughput: Double?, lowDataMode: Bool = false, maxShortEdge: Int? = nil
    ) -> MasterPlaylist.Variant? {
        let rungs = master.variants.sorted { $0.bandwidth < $1.bandwidth }
        guard let lowest = rungs.first else { return nil }
        guard let throughput else { return lowest }
        let budget = throughput * safetyFactor
        let fitting = rungs.filter { variant in
            let shortEdge = min(variant.width, variant.height)
            if Double(variant.bandwidth) > budget { return false }
            if let maxShortEdge, shortEdge > maxShortEdge { return false }
            if lowDataMode, variant.bandwidth > lowDataMaxBandwidth || shortEdge > lowDataMaxShortEdge { return false }
            return true
        }
        return fitting.last ?? lowest
    }
}

/// The URLs a player needs before its first frame, for one rung: its playlist, the fMP4 init
/// section, the first `segmentCount` segments and the key, resolved from a media playlist
/// (ReelHLS's `MediaPlaylist`) so relative URIs inherit the signed path.
public struct StartupFiles: Sendable, Equatable {
    public var initSection: URL?
    public var segments: [URL]
    public var key: URL?

    public init(playlist: MediaPlaylist, playlistURL: URL, segmentCount: Int = 1) {
        initSection = playlist.mapURI.flatMap { URL(string: $0, relativeTo: playlistURL)?.absoluteURL }
        segments = playlist.segments.prefix(max(0, segmentCount)).compactMap { URL(string: $0.uri, relativeTo: playlistURL)?.absoluteURL }
        key = playlist.key.flatMap { URL(string: $0.uri, relativeTo: playlistURL)?.absoluteURL }
    }
}
