import AVFoundation
import ReelFeatures
import ReelModels
import SwiftUI

/// One item of the feed, full screen: its poster until the player has a frame, the player of
/// its slot (or the images of a photo post), the overlay, and a double tap for the heart.
struct FeedPage: View {
    let item: APIVideo
    let feed: FeedModel
    let player: AVPlayer?
    @Binding var muted: Bool
    @State private var burst = false

    var body: some View {
        ZStack {
            Color.black
            media
            FeedOverlay(item: item, feed: feed, muted: muted)
            if burst {
                Image(systemName: "heart.fill")
                    .font(.system(size: 96))
                    .foregroundStyle(.white)
                    .shadow(radius: 8)
                    .transition(.scale.combined(with: .opacity))
            }
        }
        .contentShape(Rectangle())
        .onTapGesture(count: 2) { doubleTapped() }
        .onTapGesture { muted.toggle() }
        .accessibilityAction(named: "Like") { doubleTapped() }
    }

    @ViewBuilder
    private var media: some View {
        switch item.kind {
        case .video:
            ZStack {
                RemoteImage(path: item.media.poster?.url, contentMode: fills ? .fill : .fit)
                if let player {
                    PlayerLayerView(player: player, gravity: fills ? .resizeAspectFill : .resizeAspect)
                }
            }
        case .image, .carousel:
            TabView {
                ForEach(item.media.images.indices, id: \.self) { index in
                    RemoteImage(path: Self.pick(item.media.images[index])?.url, contentMode: .fit)
                }
            }
            .tabViewStyle(.page(indexDisplayMode: item.media.images.count > 1 ? .automatic : .never))
        }
    }

    /// Portrait videos fill the screen (Reels style); landscape ones fit.
    private var fills: Bool { item.height >= item.width }

    /// The widest variant up to 1080 px (the phone's width), else the smallest there is.
    static func pick(_ variants: [APIImage]) -> APIImage? {
        variants.filter { $0.width <= 1080 }.max { $0.width < $1.width } ?? variants.min { $0.width < $1.width }
    }

    /// A double tap only ever gives the heart (as Instagram's does); the button takes it back.
    private func doubleTapped() {
        withAnimation(.spring(duration: 0.3)) { burst = true }
        Task {
            if !feed.state(of: item.id).isFavorited { await feed.toggleLike(item.id) }
            try? await Task.sleep(for: .milliseconds(700))
            withAnimation { burst = false }
        }
    }
}
