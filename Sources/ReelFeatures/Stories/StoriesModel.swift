import Foundation
import Observation
import ReelKit
import ReelModels

/// Stories: the tray (the person's own first), the viewer with its progress bars, taps, hold
/// and swipes as intents, seen items and hearts, and for the person's own story who saw each
/// item. The view calls `tick()` from its display link; time comes from the model clock.
@Observable @MainActor
public final class StoriesModel {
    public private(set) var tray: [APIStoryTrayEntry] = []
    public private(set) var hasMoreTray = true
    public private(set) var error: ScreenError?
    /// The item on screen; nil when the viewer is closed.
    public private(set) var currentItem: APIStoryItem?
    public private(set) var currentUser: String?
    /// One bar per item of the person on screen, the current one filling by `progress`.
    public private(set) var segmentCount = 0
    public private(set) var segmentIndex = 0
    public private(set) var progress: Double = 0
    public private(set) var isPaused = false
    /// The person is holding the story (a video pauses with the bars); `isPaused` also covers
    /// waiting for a first frame, a stall and the background, when a video keeps loading.
    public private(set) var isHeld = false
    public private(set) var isLiked = false
    /// Who saw the item on screen, when it is the person's own (newest first).
    public private(set) var viewers: [APIStoryViewer] = []
    public var notice: String?

    private let context: FeatureContext
    private let session: StoriesSession

    public init(context: FeatureContext) {
        self.context = context
        session = StoriesSession(
            client: context.client, state: context.postState, prefetcher: context.prefetcher, seenDelivery: context.seenDelivery,
            clock: context.clock
        )
    }

    public var isOpen: Bool { currentItem != nil }
    /// The person's own entry, when they have a live story.
    public var myStory: APIStoryTrayEntry? { tray.first { $0.isMe } }
    public var isMine: Bool { currentUser != nil && currentUser == myStory?.user }

    // MARK: Tray

    public func loadTray() async {
        await attempt { try await self.session.loadMore() }
    }

    public func refreshTray() async {
        await attempt { _ = try await self.session.refresh() }
    }

    // MARK: Viewer

    public func open(user: String) async {
        await attempt { try await self.session.open(user: user) }
        await sync()
    }

    /// Swipe down or the close button.
    public func close() {
        session.close()
        currentItem = nil
        currentUser = nil
        viewers = []
        syncTray()
    }

    /// The display link: progress moves; an item whose time is up gives way to the next.
    public func tick() async {
        let events = session.tick()
        if !events.isEmpty || currentItem != nil { await sync() }
    }

    public func tapLeft() async { session.tapLeft(); await sync() }
    public func tapRight() async { session.tapRight(); await sync() }
    /// Swiping sideways moves to the next or the previous person.
    public func swipeLeft() async { session.nextUser(); await sync() }
    public func swipeRight() async { session.previousUser(); await sync() }
    public func swipeDown() { close() }
    public func holdBegan() { session.holdBegan(); isHeld = true; isPaused = true }
    public func holdEnded() { session.holdEnded(); isHeld = false; isPaused = session.player.map { !$0.isPlaying } ?? false }

    /// The app leaves the screen: the story's time stops (and comes back with it), apart from
    /// any hold.
    public func enterBackground() { session.setBackground(true); isPaused = true }
    public func enterForeground() { session.setBackground(false); isPaused = session.player.map { !$0.isPlaying } ?? false }

    /// The view shows the item's first frame: its time starts and it counts as seen.
    public func firstFrameShown(_ itemID: Int64) async {
        session.firstFrameShown(itemID: itemID)
        await sync()
    }

    public func setBuffering(_ buffering: Bool) {
        session.setBuffering(buffering)
        isPaused = session.player.map { !$0.isPlaying } ?? false
    }

    public func toggleLike() async {
        guard let item = currentItem else { return }
        isLiked.toggle()
        if case .rolledBack(_, _, let error) = await session.toggleLike() {
            notice = "Couldn't save that: \(context.failed(error).message)"
        }
        isLiked = await session.isLiked(item.id)
    }

    /// A story image or video failed with 403/410: the person's page is fetched again.
    public func mediaFailed(_ itemID: Int64, error: ReelAPIError) async {
        await attempt { _ = try await self.session.mediaFailed(itemID, error: error) }
        await sync()
    }

    // MARK: The person's own story

    public func loadViewers() async {
        guard isMine, let item = currentItem else { return }
        let client = context.client
        switch await context.attempt({ try await client.storyViewers(itemID: item.id) }) {
        case .success(let page): viewers = page.viewers
        case .failure(let failure): notice = failure.message
        }
    }

    /// Keeps the item as a post (it joins the library and outlives the story).
    public func keepAsPost() async {
        guard let item = currentItem else { return }
        let client = context.client
        switch await context.attempt({ try await client.keepStory(itemID: item.id) }) {
        case .success: notice = "Kept as a post."
        case .failure(let failure): notice = failure.message
        }
    }

    public func deleteCurrent() async {
        guard let item = currentItem else { return }
        let client = context.client
        switch await context.attempt({ try await client.deleteStory(itemID: item.id) }) {
        case .success:
            context.postDeleted(item.id)
            close()
            await refreshTray()
        case .failure(let failure):
            notice = failure.message
        }
    }

    /// Waits for seen batches and prefetches in flight (tests, and before the app suspends).
    public func settle() async {
        await session.backgroundWorkFinished()
    }

    // MARK: State from the session

    private func attempt(_ work: () async throws -> Void) async {
        if case .failure(let failure) = await context.attempt(work) { error = failure } else { error = nil }
        syncTray()
    }

    private func syncTray() {
        tray = session.tray.entries
        hasMoreTray = session.hasMoreTray
    }

    private func sync() async {
        syncTray()
        let item = session.currentItem
        let changedItem = item?.id != currentItem?.id
        currentItem = item
        currentUser = item == nil ? nil : session.currentUser
        guard let player = session.player, let item else {
            segmentCount = 0
            segmentIndex = 0
            progress = 0
            viewers = []
            return
        }
        segmentCount = player.currentUser?.segments.count ?? 0
        segmentIndex = player.segmentIndex
        progress = player.progress
        isPaused = !player.isPlaying
        if changedItem {
            viewers = []
            isLiked = await session.isLiked(item.id)
        }
    }
}
