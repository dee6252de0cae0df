#if canImport(AVFoundation)
import AVFoundation
import Foundation
import ReelKit
import ReelModels

/// One `AVPlayer` behind ReelKit's `PlayerSlot`: the `PlayerPool` hands it feed items and it
/// turns the signed master playlist into an `AVPlayerItem`. No `AVAssetResourceLoader`
/// delegate is needed: the media token is part of the URL path, so every relative URI in the
/// playlists (variants, segments, `../key`) carries it and AVPlayer sends no custom header.
@MainActor
public final class AVPlayerSlot: PlayerSlot {
    public let player: AVPlayer
    private let baseURL: URL
    private let startPosition: (Int64) -> TimeInterval?
    public private(set) var videoID: Int64?

    /// `startPosition` answers where to resume an item (from `ResumePositions`), nil for 0.
    public init(baseURL: URL, player: AVPlayer = AVPlayer(), startPosition: @escaping (Int64) -> TimeInterval? = { _ in nil }) {
        self.baseURL = baseURL
        self.player = player
        self.startPosition = startPosition
        player.automaticallyWaitsToMinimizeStalling = true
    }

    public func load(_ item: APIVideo) {
        videoID = item.id
        guard let master = item.media.master, let url = URL(string: master, relativeTo: baseURL)?.absoluteURL else {
            player.replaceCurrentItem(with: nil)
            return
        }
        let playerItem = AVPlayerItem(url: url)
        // Start small: the lowest rung is what the feed prefetched.
        playerItem.preferredForwardBufferDuration = 4
        player.replaceCurrentItem(with: playerItem)
        if let seconds = startPosition(item.id) {
            player.seek(to: CMTime(seconds: seconds, preferredTimescale: 600))
        }
        player.pause()
    }

    public func unload() {
        videoID = nil
        player.replaceCurrentItem(with: nil)
    }

    public func play() { player.play() }
    public func pause() { player.pause() }
}
#endif
