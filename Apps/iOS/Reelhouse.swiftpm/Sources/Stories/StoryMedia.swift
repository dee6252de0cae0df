import AVFoundation
import Observation
import ReelFeatures
import ReelModels
import SwiftUI

/// The item on screen: a photo, or a video on the viewer's own player. Its time starts when
/// the first frame shows (`firstFrameShown`); a stalled video pauses it (`setBuffering`); a
/// hold (`isHeld`) pauses the video with the bars; waiting for the first frame or a stall
/// pauses only the bars, so the player keeps trying to play.
struct StoryMedia: View {
    let item: APIStoryItem
    let stories: StoriesModel
    @Environment(\.serverURL) private var server
    @State private var playback = StoryPlayback()
    @State private var refreshed = false

    var body: some View {
        Group {
            switch item.kind {
            case .photo:
                RemoteImage(path: FeedPage.pick(item.media.images.first ?? [])?.url ?? item.media.poster?.url, contentMode: .fit,
                            onShown: { Task { await stories.firstFrameShown(item.id) } },
                            onFailed: { mediaFailed() })
            case .video:
                ZStack {
                    RemoteImage(path: item.media.poster?.url, contentMode: .fit)
                    PlayerLayerView(player: playback.player, gravity: .resizeAspect) {
                        Task { await stories.firstFrameShown(item.id) }
                    }
                }
                .task {
                    playback.onBuffering = { stories.setBuffering($0) }
                    playback.onFailed = { mediaFailed() }
                    playback.onFirstFrame = { Task { await stories.firstFrameShown(item.id) } }
                    playback.isPausedByModel = { stories.isHeld }
                    playback.load(URL.media(item.media.master, base: server))
                }
                .onChange(of: stories.isHeld) { playback.sync() }
                .onDisappear { playback.stop() }
            }
        }
        .ignoresSafeArea()
    }

    /// A signed URL that stopped working: the person's page is fetched again, once per item.
    private func mediaFailed() {
        guard !refreshed else { return }
        refreshed = true
        Task { await stories.mediaFailed(item.id, error: .expired(message: "story media failed")) }
    }
}

/// One `AVPlayer` for the story on screen (the stories model has no player slots): plays and
/// pauses with the bars, reports stalls after the first frame and failures.
@Observable @MainActor
final class StoryPlayback {
    let player = AVPlayer()
    @ObservationIgnored var onBuffering: ((Bool) -> Void)?
    @ObservationIgnored var onFailed: (() -> Void)?
    @ObservationIgnored var onFirstFrame: (() -> Void)?
    @ObservationIgnored var isPausedByModel: () -> Bool = { false }
    @ObservationIgnored private var observation: NSKeyValueObservation?
    @ObservationIgnored private var statusObservation: NSKeyValueObservation?
    @ObservationIgnored private var hasPlayed = false

    init() {
        player.automaticallyWaitsToMinimizeStalling = true
    }

    func load(_ url: URL?) {
        guard let url else { return }
        let item = AVPlayerItem(url: url)
        item.preferredForwardBufferDuration = 4
        player.replaceCurrentItem(with: item)
        hasPlayed = false
        player.play()
        observation = player.observe(\.timeControlStatus, options: [.new]) { @Sendable [weak self] player, _ in
            let status = player.timeControlStatus
            guard let self else { return }
            Task { @MainActor in self.statusChanged(status) }
        }
        statusObservation = item.observe(\.status, options: [.new]) { @Sendable [weak self] item, _ in
            guard item.status == .failed, let self else { return }
            Task { @MainActor in self.onFailed?() }
        }
    }

    /// Paused while the person holds; otherwise playing, also while the model waits for the
    /// first frame or a stall to end (else it would wait for ever).
    func sync() {
        if isPausedByModel() { player.pause() } else { player.play() }
    }

    func stop() {
        player.pause()
        observation = nil
        statusObservation = nil
        player.replaceCurrentItem(with: nil)
    }

    private func statusChanged(_ status: AVPlayer.TimeControlStatus) {
        switch status {
        case .playing:
            if hasPlayed {
                onBuffering?(false)
                sync()
            } else {
                hasPlayed = true
                onFirstFrame?()
            }
        case .waitingToPlayAtSpecifiedRate:
            if hasPlayed { onBuffering?(true) }
        default:
            break
        }
    }
}
