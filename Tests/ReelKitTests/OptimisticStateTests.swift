import Foundation
import ReelKit
import ReelModels
import Testing

/// A server double: answers from a script, records what it received, keeps per-post state.
actor ScriptedSender: MutationSending {
    var failure: ReelAPIError?
    private(set) var received: [Mutation] = []
    private var states: [Int64: PostState] = [:]

    func fail(with error: ReelAPIError?) { failure = error }

    func send(_ mutation: Mutation) async throws(ReelAPIError) -> ServerPostState {
        if let failure { throw failure }
        received.append(mutation)
        var state = states[mutation.videoID] ?? PostState()
        switch mutation {
        case .favorite(_, let favorited): state.isFavorited = favorited
        case .rating(_, let rating): state.rating = rating
        case .storyLike(_, let liked): state.isStoryLiked = liked
        }
        states[mutation.videoID] = state
        if case .storyLike = mutation { return .storyLike(APIStoryLike(id: mutation.videoID, liked: state.isStoryLiked)) }
        return .viewer(APIViewerState(id: mutation.videoID, isFavorited: state.isFavorited, rating: state.rating))
    }
}

@Suite struct OptimisticStateTests {
    @Test func aChangeShowsAtOnceAndIsConfirmed() async {
        let sender = ScriptedSender()
        let state = OptimisticState(sender: sender, queue: OfflineQueue(fileSystem: InMemoryFileSystem()))
        let event = await state.setFavorite(true, videoID: 7)
        #expect(event == .confirmed(videoID: 7, state: PostState(isFavorited: true, rating: 0)))
        #expect(await state.state(of: 7)?.isFavorited == true)
        #expect(await sender.received == [.favorite(videoID: 7, favorited: true)])
    }

    @Test func aRefusalRollsBackWithAnEvent() async {
        let sender = ScriptedSender()
        let state = OptimisticState(sender: sender, queue: OfflineQueue(fileSystem: InMemoryFileSystem()))
        _ = await state.setRating(4, videoID: 3)
        await sender.fail(with: .notFound(message: "video 3 was not found"))
        var events = state.events.makeAsyncIterator()
        let result = await state.setRating(1, videoID: 3)
        #expect(result == .rolledBack(videoID: 3, state: PostState(isFavorited: false, rating: 4), error: .notFound(message: "video 3 was not found")))
        #expect(await state.state(of: 3)?.rating == 4)
        // The stream saw the optimistic value first, then the rollback.
        var seen: [MutationEvent] = []
        for _ in 0..<4 { if let event = await events.next() { seen.append(event) } }
        #expect(seen.suffix(2) == [.applied(videoID: 3, state: PostState(rating: 1)), result])
    }

    @Test func offlineChangesAreQueuedDurablyCollapsedAndReplayedInOrder() async throws {
        let files = InMemoryFileSystem()
        let sender = ScriptedSender()
        let state = OptimisticState(sender: sender, queue: OfflineQueue(fileSystem: files))
        let feedVideo = Fixtures.video(id: 1, favorited: false, rating: 0)
        await state.observe([feedVideo, Fixtures.video(id: 2, favorited: false, rating: 0)])
        await sender.fail(with: .offline("connection refused"))

        #expect(await state.setFavorite(true, videoID: 1) == .queued(.favorite(videoID: 1, favorited: true)))
        _ = await state.setRating(5, videoID: 2)
        _ = await state.setFavorite(false, videoID: 1)   // back to what the server has: nothing to send
        _ = await state.setRating(3, videoID: 2)          // replaces the queued 5
        _ = await state.setFavorite(true, videoID: 2)
        #expect(await state.state(of: 2) == PostState(isFavorited: true, rating: 3), "the UI shows every change at once")
        #expect(await state.pending == [.rating(videoID: 2, rating: 3), .favorite(videoID: 2, favorited: true)])

        // The app is killed; a new launch reads the queue from disk and the server is back.
        await sender.fail(with: nil)
        let relaunched = OptimisticState(sender: sender, queue: OfflineQueue(fileSystem: files))
        await relaunched.observe([Fixtures.video(id: 2, favorited: false, rating: 0)])
        #expect(await relaunched.state(of: 2) == PostState(isFavorited: true, rating: 3), "queued changes survive a refetch")
        #expect(await relaunched.replay() == 2)
        #expect(await sender.received == [.rating(videoID: 2, rating: 3), .favorite(videoID: 2, favorited: true)])
        #expect(await relaunched.pending.isEmpty)
        #expect(try files.read("offline-queue.json").map { String(decoding: $0, as: UTF8.self) } == "[]")
    }

    @Test func replayStopsWhileStillOfflineAndNewChangesQueueBehind() async {
        let sender = ScriptedSender()
        let state = OptimisticState(sender: sender, queue: OfflineQueue(fileSystem: InMemoryFileSystem()))
        await sender.fail(with: .server(status: 503, message: "down"))
        _ = await state.setFavorite(true, videoID: 1)
        #expect(await state.replay() == 0)
        await sender.fail(with: nil)
        // Online again, but something is queued: this change goes behind it, not before.
        #expect(await state.setFavorite(true, videoID: 2) == .queued(.favorite(videoID: 2, favorited: true)))
        #expect(await state.replay() == 2)
        #expect(await sender.received == [.favorite(videoID: 1, favorited: true), .favorite(videoID: 2, favorited: true)])
    }

    @Test func aQueuedChangeTheServerRefusesOnReplayIsRolledBack() async {
        let sender = ScriptedSender()
        let state = OptimisticState(sender: sender, queue: OfflineQueue(fileSystem: InMemoryFileSystem()))
        await state.observe([Fixtures.video(id: 9, favorited: false, rating: 2)])
        await sender.fail(with: .offline("no route"))
        _ = await state.setRating(5, videoID: 9)
        await sender.fail(with: .notFound(message: "video 9 was not found"))
        #expect(await state.replay() == 1)
        #expect(await state.state(of: 9)?.rating == 2)
        #expect(await state.pending.isEmpty)
    }

    @Test func aCorruptQueueFileIsDroppedNotFatal() async throws {
        let files = InMemoryFileSystem()
        try files.write(Data("{not json".utf8), to: "offline-queue.json")
        let queue = OfflineQueue<Mutation>(fileSystem: files)
        #expect(await queue.pending.isEmpty)
        try await queue.enqueue(.rating(videoID: 1, rating: 2))
        #expect(await OfflineQueue<Mutation>(fileSystem: files).pending == [.rating(videoID: 1, rating: 2)])
    }
}

enum Fixtures {
    static func video(id: Int64, favorited: Bool = false, rating: Int = 0, duration: Double? = 6) -> APIVideo {
        APIVideo(
            id: id, folderName: "clip-\(id)", isFavorited: favorited, rating: rating, description: "clip \(id)", tags: [], flags: [],
            shortcode: nil, datePosted: nil, uploader: nil, username: nil, dateAdded: nil, kind: .video, sourceUrl: nil,
            duration: duration, width: 720, height: 1280, position: nil,
            media: APIMedia(master: "/media/T/\(id)/master.m3u8", encrypted: true, poster: nil, thumbnail: nil, download: nil,
                            prefetch: nil, images: [], expiresAt: nil)
        )
    }
}
