import Foundation
import ReelModels

/// What the user sees of their own relation to a post.
public struct PostState: Sendable, Equatable, Codable {
    public var isFavorited: Bool
    public var rating: Int
    /// For a story item: the viewer's heart on it.
    public var isStoryLiked: Bool

    public init(isFavorited: Bool = false, rating: Int = 0, isStoryLiked: Bool = false) {
        self.isFavorited = isFavorited
        self.rating = rating
        self.isStoryLiked = isStoryLiked
    }

    func applying(_ mutation: Mutation) -> PostState {
        var state = self
        switch mutation {
        case .favorite(_, let favorited): state.isFavorited = favorited
        case .rating(_, let rating): state.rating = rating
        case .storyLike(_, let liked): state.isStoryLiked = liked
        }
        return state
    }

    func satisfies(_ mutation: Mutation) -> Bool { applying(mutation) == self }
}

/// What happened to a change, for the UI (a toast on rollback, a badge while queued).
public enum MutationEvent: Sendable, Equatable {
    /// Shown at once, before the server answered.
    case applied(videoID: Int64, state: PostState)
    /// The server agreed; `state` is what it stored.
    case confirmed(videoID: Int64, state: PostState)
    /// No connection: kept in the offline queue, still shown.
    case queued(Mutation)
    /// The server refused (not found, not allowed, invalid): the UI goes back to `state`.
    case rolledBack(videoID: Int64, state: PostState, error: ReelAPIError)
}

/// What the server says it stored after a mutation: each route answers with the part of the
/// post's state it changes.
public enum ServerPostState: Sendable, Equatable {
    /// Favorite and rating routes answer with both.
    case viewer(APIViewerState)
    case storyLike(APIStoryLike)

    public var videoID: Int64 {
        switch self {
        case .viewer(let state): state.id
        case .storyLike(let like): like.id
        }
    }

    func applied(to state: PostState) -> PostState {
        var state = state
        switch self {
        case .viewer(let viewer):
            state.isFavorited = viewer.isFavorited
            state.rating = viewer.rating
        case .storyLike(let like):
            state.isStoryLiked = like.liked
        }
        return state
    }
}

/// Something that can deliver a mutation: the API client, or a double in tests.
public protocol MutationSending: Sendable {
    func send(_ mutation: Mutation) async throws(ReelAPIError) -> ServerPostState
}

extension ReelClient: MutationSending {
    public func send(_ mutation: Mutation) async throws(ReelAPIError) -> ServerPostState {
        switch mutation {
        case .favorite(let id, let favorited): try await .viewer(setFavorite(favorited, videoID: id))
        case .rating(let id, let rating): try await .viewer(setRating(rating, videoID: id))
        case .storyLike(let id, let liked): try await .storyLike(setStoryLike(liked, itemID: id))
        }
    }
}

/// Favorites, ratings and story likes applied optimistically: the UI changes at once, the server is told,
/// a refusal rolls the change back with an event, and a missing connection parks the change in
/// the durable `OfflineQueue` until `replay()`. While anything is queued, new changes queue
/// behind it, so the server receives them in the order they were made.
public actor OptimisticState {
    let sender: any MutationSending
    let queue: OfflineQueue<Mutation>
    private var confirmed: [Int64: PostState] = [:]
    private var displayed: [Int64: PostState] = [:]
    /// Bumped per target by every change, so a late answer to an older change cannot
    /// overwrite what a newer one shows.
    private var generations: [String: Int] = [:]
    private var replaying = false
    public nonisolated let events: AsyncStream<MutationEvent>
    private let continuation: AsyncStream<MutationEvent>.Continuation

    public init(sender: any MutationSending, queue: OfflineQueue<Mutation>) {
        self.sender = sender
        self.queue = queue
        (events, continuation) = AsyncStream.makeStream(of: MutationEvent.self, bufferingPolicy: .bufferingNewest(256))
    }

    /// Takes the server's view of posts as they arrive in the feed. Posts with a queued
    /// change keep showing the change.
    public func observe(_ videos: [APIVideo]) async {
        var server = confirmed
        for video in videos {
            server[video.id, default: PostState()].isFavorited = video.isFavorited
            server[video.id, default: PostState()].rating = video.rating
        }
        await take(server, for: videos.map(\.id))
    }

    /// Takes the server's view of story items (their hearts) as a person's page arrives.
    public func observe(stories items: [APIStoryItem]) async {
        var server = confirmed
        for item in items { server[item.id, default: PostState()].isStoryLiked = item.liked }
        await take(server, for: items.map(\.id))
    }

    private func take(_ server: [Int64: PostState], for ids: [Int64]) async {
        let queued = await queue.pending
        for id in ids {
            guard let state = server[id] else { continue }
            confirmed[id] = state
            displayed[id] = queued.filter { $0.videoID == id }.reduce(state) { $0.applying($1) }
        }
    }

    public func state(of videoID: Int64) -> PostState? { displayed[videoID] }

    @discardableResult
    public func setFavorite(_ favorited: Bool, videoID: Int64) async -> MutationEvent {
        await perform(.favorite(videoID: videoID, favorited: favorited))
    }

    @discardableResult
    public func toggleFavorite(videoID: Int64) async -> MutationEvent {
        await setFavorite(!(displayed[videoID]?.isFavorited ?? false), videoID: videoID)
    }

    @discardableResult
    public func setRating(_ rating: Int, videoID: Int64) async -> MutationEvent {
        await perform(.rating(videoID: videoID, rating: rating))
    }

    @discardableResult
    public func setStoryLike(_ liked: Bool, itemID: Int64) async -> MutationEvent {
        await perform(.storyLike(itemID: itemID, liked: liked))
    }

    @discardableResult
    public func toggleStoryLike(itemID: Int64) async -> MutationEvent {
        await setStoryLike(!(displayed[itemID]?.isStoryLiked ?? false), itemID: itemID)
    }

    /// Applies, then sends or queues. Returns the last event it emitted.
    func perform(_ mutation: Mutation) async -> MutationEvent {
        let id = mutation.videoID
        let before = displayed[id] ?? confirmed[id] ?? PostState()
        displayed[id] = before.applying(mutation)
        emit(.applied(videoID: id, state: displayed[id]!))
        let generation = (generations[mutation.target] ?? 0) + 1
        generations[mutation.target] = generation

        if await !queue.pending.isEmpty {
            return await park(mutation)
        }
        do {
            let server = try await sender.send(mutation)
            return confirm(server, generation: generation, target: mutation.target)
        } catch where error.isTransient {
            return await park(mutation)
        } catch {
            return rollBack(id, error: error, generation: generation, target: mutation.target)
        }
    }

    /// Sends the queue in order. Stops at the first transient failure (still offline) and
    /// returns how many were delivered or refused.
    @discardableResult
    public func replay() async -> Int {
        guard !replaying else { return 0 }
        replaying = true
        defer { replaying = false }
        var handled = 0
        while let next = await queue.pending.first {
            do {
                let server = try await sender.send(next)
                try? await queue.removeFirst(ifEqualTo: next)
                _ = confirm(server, generation: generations[next.target] ?? 0, target: next.target)
            } catch where error.isTransient {
                return handled
            } catch {
                try? await queue.removeFirst(ifEqualTo: next)
                _ = rollBack(next.videoID, error: error, generation: generations[next.target] ?? 0, target: next.target)
            }
            handled += 1
        }
        return handled
    }

    public var pending: [Mutation] {
        get async { await queue.pending }
    }

    private func park(_ mutation: Mutation) async -> MutationEvent {
        // Back where the server already is: nothing to send, and nothing older to keep.
        if let server = confirmed[mutation.videoID], server.satisfies(mutation) {
            try? await queue.cancel(matching: mutation)
            return emit(.confirmed(videoID: mutation.videoID, state: displayed[mutation.videoID] ?? server))
        }
        do {
            try await queue.enqueue(mutation)
            return emit(.queued(mutation))
        } catch {
            return rollBack(mutation.videoID, error: .offline("the offline queue could not be saved: \(error)"), generation: generations[mutation.target] ?? 0, target: mutation.target)
        }
    }

    private func confirm(_ server: ServerPostState, generation: Int, target: String) -> MutationEvent {
        let id = server.videoID
        let state = server.applied(to: confirmed[id] ?? PostState())
        confirmed[id] = state
        if generations[target] == generation { displayed[id] = server.applied(to: displayed[id] ?? state) }
        return emit(.confirmed(videoID: id, state: displayed[id] ?? state))
    }

    private func rollBack(_ id: Int64, error: ReelAPIError, generation: Int, target: String) -> MutationEvent {
        let state = confirmed[id] ?? PostState()
        if generations[target] == generation { displayed[id] = state }
        return emit(.rolledBack(videoID: id, state: displayed[id] ?? state, error: error))
    }

    @discardableResult
    private func emit(_ event: MutationEvent) -> MutationEvent {
        continuation.yield(event)
        return event
    }
}
