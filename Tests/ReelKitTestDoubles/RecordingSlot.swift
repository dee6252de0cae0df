import ReelKit
import ReelModels

// Test doubles for ReelKit's seams, shared by its unit tests and its live tests (which run
// against the in-process server): no server in here.

/// A player double for the pool.
@MainActor
public final class RecordingSlot: PlayerSlot {
    public private(set) var item: APIVideo?
    public private(set) var isPlaying = false
    public private(set) var loads = 0

    public init() {}

    public func load(_ item: APIVideo) {
        self.item = item
        isPlaying = false
        loads += 1
    }

    public func unload() {
        item = nil
        isPlaying = false
    }

    public func play() { isPlaying = true }
    public func pause() { isPlaying = false }
}
