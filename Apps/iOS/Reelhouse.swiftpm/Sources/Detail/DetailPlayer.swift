import AVFoundation
import AVKit
import ReelFeatures
import ReelKitAVFoundation
import ReelModels
import SwiftUI

/// The post's video with the system's controls (or its images), starting where the person
/// stopped; the position is kept when the player leaves the screen. The same `AVPlayerSlot`
/// as the feed's (short buffer, loop by seeking, media failures with their HTTP status), made
/// for this page. AirPlay sits over it.
struct DetailPlayer: View {
    let model: DetailModel
    let video: APIVideo
    @Environment(\.serverURL) private var server
    @Environment(\.scenePhase) private var scenePhase
    @State private var slot: AVPlayerSlot?
    @State private var refreshedOnce = false

    var body: some View {
        Group {
            if video.kind == .video {
                VideoPlayer(player: slot?.player)
                    .overlay(alignment: .topTrailing) { RoutePicker().frame(width: 36, height: 36).padding(8) }
                    .task(id: video.media.master) { await start() }
                    .onDisappear { stop() }
                    .onChange(of: scenePhase) { _, phase in if phase != .active { stop() } }
            } else {
                TabView {
                    ForEach(video.media.images.indices, id: \.self) { index in
                        RemoteImage(path: FeedPage.pick(video.media.images[index])?.url, contentMode: .fit)
                    }
                }
                .tabViewStyle(.page)
            }
        }
        .aspectRatio(video.width > 0 && video.height > 0 ? CGFloat(video.width) / CGFloat(video.height) : 9.0 / 16.0, contentMode: .fit)
        .frame(maxHeight: 560)
        .frame(maxWidth: .infinity)
        .background(.black)
    }

    private func start() async {
        guard let server else { return }
        let position = await model.resumePosition()
        let slot = self.slot ?? AVPlayerSlot(baseURL: server, startPosition: { _ in position })
        slot.onFailure = { _, status in
            // A signed URL that stopped working (403/410): the post again, for fresh URLs, once.
            guard status == 403 || status == 410, !refreshedOnce else { return }
            refreshedOnce = true
            Task { await model.load() }
        }
        self.slot = slot
        slot.load(video)
        slot.play()
    }

    private func stop() {
        guard let player = slot?.player, player.currentItem != nil else { return }
        player.pause()
        let seconds = player.currentTime().seconds
        if seconds.isFinite, seconds > 0 { Task { await model.playbackStopped(at: seconds) } }
    }
}
