import ReelKit
import ReelModels

/// Any feed player behind one type, so the app model can own the feed without knowing which
/// player the app uses (`AVPlayerSlot` on iPhone, `RecordingSlot` in tests).
@MainActor
public final class AnyPlayerSlot: PlayerSlot {
    public let base: AnyObject
    private let loadItem: (APIVideo) -> Void
    private let unloadItem: () -> Void
    private let playItem: () -> Void
    private let pauseItem: () -> Void

    public init<Slot: PlayerSlot>(_ slot: Slot) where Slot.Item == APIVideo {
        base = slot
        loadItem = { slot.load($0) }
        unloadItem = { slot.unload() }
        playItem = { slot.play() }
        pauseItem = { slot.pause() }
    }

    public func load(_ item: APIVideo) { loadItem(item) }
    public func unload() { unloadItem() }
    public func play() { playItem() }
    public func pause() { pauseItem() }
}
