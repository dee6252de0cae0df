import Foundation

/// The upload size policy (seed 004), configurable.
public struct UploadPolicy: Sendable, Equatable {
    /// Larger uploads are refused when they are created (413).
    public var maxBytes: Int64
    /// Larger videos are compressed to H.264 ≤ 1080p30 before their ladder; smaller ones are
    /// kept as they are.
    public var compressAboveBytes: Int64
    /// An incomplete upload is deleted this long after it was created.
    public var expirySeconds: TimeInterval
    /// An upload posted as a story leaves the tray this long after it is published
    /// (`REELHOUSE_STORY_LIFETIME_HOURS`).
    public var storyLifetime: TimeInterval

    public init(
        maxBytes: Int64 = 50_000_000, compressAboveBytes: Int64 = 10_000_000, expirySeconds: TimeInterval = 86_400,
        storyLifetime: TimeInterval = 86_400
    ) {
        self.maxBytes = maxBytes
        self.compressAboveBytes = compressAboveBytes
        self.expirySeconds = expirySeconds
        self.storyLifetime = storyLifetime
    }
}
