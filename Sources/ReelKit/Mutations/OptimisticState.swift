import Foundation
import ReelModels

/// What the user sees of their own relation to a post.
public struct PostState: Sendable, Equatable, Codable {
    public var isFavorited: Bool
    public var rating: Int

    public init(isFavorited: Bool = false, rating: Int = 0) {
        self.isFavorited = isFavorited
        self.rating = rating
    }

    func applying(_ mutation: Mutation) -> PostState {
        var state = self
        switch mutation {
        case .favorite(_, let favorited): state.isFavorited = favorited
        case .rating(_, let rating): state.rating = rating
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

/// Something that can deliver a mutation: the API client, or a double in tests.
public protocol MutationSending: Sendable {
    func send(_ mutation: Mutation) async throws(ReelAPIError) -> APIViewerState
}

extension ReelClient: MutationSending {
    public func send(_ mutation: Mutation) async throws(ReelAPIError) -> APIViewerState {
        switch mutation {
        case .favorite(let id, let favorited): try await setFavorite(favorited, videoID: id)
        case .rating(let id, let rating): try await setRating(rating, videoID: id)
        }
    }
}

/// Favorites and ratings applied optimistically: the UI changes at once, the server is told,
/// a refusal rolls the change back with an event, and a missing connection parks the change in
/// the durable `OfflineQueue` until `replay()`. While anything is queued, new changes queue
/// behind it, so the server receives them in the order they were made.
public actor OptimisticState {
    let sender: any MutationSending
    let queue: OfflineQueue
    private var confirmed: [Int64: PostState] = [:]
    private var displayed: [Int64: PostState] = [:]
    /// Bumped per target by every change, so a late answer to an older change cannot
    /// overwrite what a newer one shows.
    private var generations: [String: Int] = [:]
    private var replaying = false
    public nonisolated let events: AsyncStream<MutationEvent>
    private let continuation: AsyncStream<MutationEvent>.Continuation

    public init(sender: any MutationSending, queue: OfflineQueue) {
        self.sender = sender
        self.queue = queue
        (events, continuation) = AsyncStream.makeStream(of: MutationEvent.self, bufferingPolicy: .bufferingNewest(256))
    }

    /// Takes the server's view of posts as they arrive in the feed. Posts with a queued
    /// change keep showing the change.
    public func observe(_ videos: [APIVideo]) async {
        let queued = await queue.pending
        for video in videos {
            let server = PostState(isFavorited: video.isFavorited, rating: video.rating)
            confirmed[video.id] = server
            displayed[video.id] = queued.filter { $0.videoID == video.id }.reduce(server) { $0.applying($1) }
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

    private func confirm(_ server: APIViewerState, generation: Int, target: String) -> MutationEvent {
        let state = PostState(isFavorited: server.isFavorited, rating: server.rating)
        confirmed[server.id] = state
        if generations[target] == generation { displayed[server.id] = state }
        return emit(.confirmed(videoID: server.id, state: displayed[server.id] ?? state))
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
