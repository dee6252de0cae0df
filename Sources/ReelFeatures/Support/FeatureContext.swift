import Foundation
import Observation
import ReelKit
import ReelModels

/// What every screen model of one signed-in session shares: the client, the clock, the app's
/// own folder, the optimistic post state (a heart given in the feed shows in Favorites and the
/// detail), the watch-event recorder and the resume positions. `AppModel` makes one at sign-in
/// and drops it at sign-out, so nothing of one account leaks into the next.
@Observable @MainActor
public final class FeatureContext {
    public let client: ReelClient
    public let clock: any ModelClock
    /// The app's own files: offline queues, recent searches, preferences, resume positions.
    public let files: any CacheFileSystem
    public let postState: OptimisticState
    public let events: EventRecorder
    public let seenDelivery: StorySeenDelivery
    public let resume: ResumePositions
    /// Warms the first seconds of the next items; nil keeps media off the disk (tests, previews).
    public let prefetcher: MediaPrefetcher?
    /// Who is signed in and the server's resume rule; nil on an offline launch until it answers.
    public var account: APIMe?
    public var isOwner: Bool { account?.role == "owner" }
    /// Called once when any request answers 401: the app goes back to sign-in.
    private let onSignedOut: @MainActor (ScreenError) -> Void
    public private(set) var isSignedOut = false
    /// Posts deleted in this session: every list drops them at once (Discover's shelves, grids,
    /// Favorites), without waiting for its next load.
    public private(set) var deletedPosts: Set<Int64> = []

    public init(
        client: ReelClient, clock: any ModelClock = SystemModelClock(), files: any CacheFileSystem,
        account: APIMe? = nil, prefetcher: MediaPrefetcher? = nil, eventPolicy: EventRecorderPolicy = EventRecorderPolicy(),
        onSignedOut: @escaping @MainActor (ScreenError) -> Void = { _ in }
    ) {
        self.client = client
        self.clock = clock
        self.files = files
        self.prefetcher = prefetcher
        self.account = account
        self.onSignedOut = onSignedOut
        postState = OptimisticState(sender: client, queue: OfflineQueue(fileSystem: files, path: "offline-queue.json"))
        events = EventRecorder(client: client, fileSystem: files, path: "event-queue.json", policy: eventPolicy, clock: clock)
        seenDelivery = StorySeenDelivery(client: client, fileSystem: files, path: "story-seen-queue.json")
        resume = ResumePositions(fileSystem: files, path: "resume-positions.json")
    }

    /// The one place a failed request becomes what a screen shows. A 401 signs the app out
    /// (once, however many screens failed at the same moment).
    @discardableResult
    public func failed(_ error: ReelAPIError) -> ScreenError {
        let screen = ScreenError(error)
        if screen.kind == .signedOut, !isSignedOut {
            isSignedOut = true
            onSignedOut(screen)
        }
        return screen
    }

    /// Runs `work` and answers its value, or the screen error it failed with.
    public func attempt<T>(_ work: () async throws -> T) async -> Result<T, ScreenError> {
        do {
            return .success(try await work())
        } catch {
            return .failure(failed(Self.apiError(error)))
        }
    }

    /// ReelKit throws `ReelAPIError`; anything else reaching a model (a task cancelled while
    /// it waited) counts as no answer.
    private nonisolated static func apiError(_ error: any Error) -> ReelAPIError {
        error as? ReelAPIError ?? .offline(String(describing: error))
    }

    public func postDeleted(_ id: Int64) {
        deletedPosts.insert(id)
    }

    /// Sends whatever waited for a connection: post changes, watch events, seen stories.
    /// Returns how many post changes went out.
    @discardableResult
    public func replayOffline() async -> Int {
        let sent = await postState.replay()
        _ = await events.flush()
        _ = await seenDelivery.replay()
        return sent
    }
}
