import Foundation
import ReelModels

/// Short-video labels (KuaiRand's definitions): a *long view* is a complete watch of a post of at
/// most 18 s, or at least 18 s watched of a longer one; a *skip* is leaving within 2 s. Watch
/// time is judged against the post's length, so long posts do not win by length alone.
public enum WatchLabel {
    public static let longViewMilliseconds = 18_000
    public static let skipMilliseconds = WatchEvent.skipMilliseconds

    public static func isLongView(watchedMs: Int, durationMs: Int) -> Bool {
        guard durationMs > 0 else { return false }
        if durationMs <= longViewMilliseconds { return watchedMs >= durationMs - 250 }
        return watchedMs >= longViewMilliseconds
    }

    public static func isSkip(watchedMs: Int) -> Bool {
        watchedMs < skipMilliseconds
    }
}
