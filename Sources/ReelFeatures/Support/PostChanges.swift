import Foundation
import ReelKit
import ReelModels

/// What became of a heart or a star rating, for the screen that made it.
public struct PostChange: Sendable, Equatable {
    /// What to show now: the change (confirmed or waiting) or, after a refusal, the server's.
    public var state: PostState
    /// No connection: the change waits in the offline queue and is shown meanwhile.
    public var isWaiting: Bool
    /// The server refused it (the post is gone, say): the screen says so.
    public var refusal: ScreenError?
}

extension FeatureContext {
    /// Applies `edit` to what the screen shows of post `id` through the shared optimistic
    /// state: a heart and a rating are separate changes, each sent (or queued) on its own.
    public func changePost(_ id: Int64, from current: PostState, _ edit: (inout PostState) -> Void) async -> PostChange {
        var target = current
        edit(&target)
        var outcome = PostChange(state: target, isWaiting: false, refusal: nil)
        var events: [MutationEvent] = []
        if target.isFavorited != current.isFavorited { events.append(await postState.setFavorite(target.isFavorited, videoID: id)) }
        if target.rating != current.rating { events.append(await postState.setRating(target.rating, videoID: id)) }
        for event in events {
            switch event {
            case .applied(_, let state), .confirmed(_, let state):
                outcome.state = state
            case .queued:
                outcome.isWaiting = true
            case .rolledBack(_, let state, let error):
                outcome.state = state
                outcome.refusal = failed(error)
            }
        }
        return outcome
    }
}
