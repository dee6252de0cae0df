import AVFoundation
import SwiftUI
import UIKit

/// An `AVPlayerLayer` showing `player` (whichever slot holds the page's item), with no
/// controls: the feed and stories draw their own. `onReady` runs once the layer has a frame
/// to show (stories start an item's time then).
struct PlayerLayerView: UIViewRepresentable {
    let player: AVPlayer?
    var gravity: AVLayerVideoGravity = .resizeAspectFill
    var onReady: (() -> Void)?

    func makeUIView(context: Context) -> PlayerUIView {
        let view = PlayerUIView()
        view.backgroundColor = .black
        view.playerLayer.videoGravity = gravity
        return view
    }

    func updateUIView(_ view: PlayerUIView, context: Context) {
        if view.playerLayer.player !== player { view.playerLayer.player = player }
        view.playerLayer.videoGravity = gravity
        view.onReady = onReady
    }

    static func dismantleUIView(_ view: PlayerUIView, coordinator: ()) {
        view.playerLayer.player = nil
    }

    final class PlayerUIView: UIView {
        override class var layerClass: AnyClass { AVPlayerLayer.self }
        var playerLayer: AVPlayerLayer { layer as! AVPlayerLayer }
        var onReady: (() -> Void)?
        private var readyObservation: NSKeyValueObservation?

        override init(frame: CGRect) {
            super.init(frame: frame)
            readyObservation = playerLayer.observe(\.isReadyForDisplay, options: [.new]) { @Sendable [weak self] layer, _ in
                guard layer.isReadyForDisplay, let self else { return }
                Task { @MainActor in self.onReady?() }
            }
        }

        required init?(coder: NSCoder) { fatalError("not used from a storyboard") }
    }
}
