import ReelKit
import ReelModels

/// A player slot with no screen: it remembers what it was told, which is all a feed walk needs.
@MainActor
final class HeadlessSlot: PlayerSlot {
    let number: Int
    private(set) var item: APIVideo?
    private(set) var isPlaying = false
    private(set) var loads = 0

    init(number: Int) {
        self.number = number
    }

    func load(_ item: APIVideo) {
        self.item = item
        isPlaying = false
        loads += 1
    }

    func unload() {
        item = nil
        isPlaying = false
    }

    func play() { isPlaying = true }
    func pause() { isPlaying = false }
}
