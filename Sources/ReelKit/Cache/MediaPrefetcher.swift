import Foundation
import ReelModels

/// Puts what a player needs for its first frame into the cache: the poster, and the lowest
/// rung's playlist, init section and first segment that every feed item names
/// (`APIMedia.prefetch`). The AES key is deliberately not cached: the server marks it
/// `no-store`, and a key on disk next to its segments would undo the encryption.
public struct MediaPrefetcher: Sendable {
    public let client: ReelClient
    public let cache: MediaCache

    public init(client: ReelClient, cache: MediaCache) {
        self.client = client
        self.cache = cache
    }

    public func startupURLs(for video: APIVideo) -> [URL] {
        startupURLs(for: video.media, isVideo: video.kind == .video)
    }

    /// A story item's first frame: the poster and first segment of a video, the image of a photo.
    public func startupURLs(for item: APIStoryItem) -> [URL] {
        startupURLs(for: item.media, isVideo: item.kind == .video)
    }

    private func startupURLs(for media: APIMedia, isVideo: Bool) -> [URL] {
        var paths: [String] = []
        if let poster = media.poster { paths.append(poster.url) }
        if let prefetch = media.prefetch { paths += [prefetch.playlist, prefetch.initSegment, prefetch.firstSegment] }
        if !isVideo, let first = media.images.first?.first { paths.append(first.url) }
        return paths.compactMap { client.url(for: $0) }
    }

    /// What a prefetch left undone: the URLs that failed (the player fetches them itself later)
    /// and whether any failed because its signature no longer works (expired, or the server's
    /// secret rotated): then the item's fresh URLs are worth fetching.
    public struct Report: Sendable, Equatable {
        public var failed: [URL] = []
        public var needsFreshURLs = false
    }

    /// Warms the cache for `video`.
    @discardableResult
    public func prefetch(_ video: APIVideo) async -> Report {
        await prefetch(startupURLs(for: video))
    }

    /// Warms the cache for a story item, so tapping to it shows its first frame at once.
    @discardableResult
    public func prefetch(_ item: APIStoryItem) async -> Report {
        await prefetch(startupURLs(for: item))
    }

    private func prefetch(_ urls: [URL]) async -> Report {
        var report = Report()
        for url in urls {
            let client = client
            do {
                try await cache.prefetch(CacheKey(url: url)) { try await client.download(url) }
            } catch {
                report.failed.append(url)
                if let error = error as? ReelAPIError, error.needsFreshURLs { report.needsFreshURLs = true }
            }
        }
        return report
    }

    /// A player's read: from the cache when prefetched, else from the network (and cached).
    public func load(_ url: URL) async throws -> (data: Data, source: CacheSource) {
        let client = client
        return try await cache.data(for: CacheKey(url: url)) { try await client.download(url) }
    }
}
