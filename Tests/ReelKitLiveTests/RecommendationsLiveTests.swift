import Foundation
import ReelKit
import ReelModels
import ReelTestSupport
import Testing
import ReelTestFiles
import ReelKitTestDoubles

/// ReelKit's events, history, hidden lists and feed modes against the real server
/// (docs/recommendations-api.md). Events carry real timestamps: the server refuses times in the
/// future, so the manual clocks start now.
@Suite(.serialized) struct RecommendationsLiveTests {
    static func temporaryFolder() -> URL {
        TemporaryFolder.fresh("reelkit-events")
    }

    /// Every item of `mode` the person can be served, following cursors until the first repeat.
    static func everything(_ client: ReelClient, mode: FeedMode) async throws -> [APIVideo] {
        var items: [APIVideo] = [], seen = Set<Int64>(), cursor: String?
        for _ in 0..<20 {
            let page = try await client.feedPage(mode: mode, cursor: cursor, limit: 50)
            let fresh = page.items.filter { seen.insert($0.id).inserted }
            items += fresh
            cursor = page.nextCursor
            if cursor == nil || fresh.isEmpty { break }
        }
        return items
    }

    @Test @MainActor func aWatchedFeedReachesTheHistoryWhichCanBeForgotten() async throws {
        try await withLiveServer(videos: 3, synthetic: 12) { server in
            let folder = Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let client = ReelClient(baseURL: server.baseURL, credentials: .apiKey(server.ownerKey))
            let clock = ManualClock(Date().addingTimeInterval(-60))
            let events = EventRecorder(client: client, fileSystem: LocalFileSystem(root: folder), clock: clock)
            let session = FeedSession(
                client: client, pool: PlayerPool(slots: [RecordingSlot(), RecordingSlot(), RecordingSlot()]), mode: .shuffle,
                events: events, pageSize: 5, clock: clock
            )
            try await session.start()
            #expect(session.servedMode == .shuffle)
            let watched = try #require(session.current)
            clock.advance(by: 8)
            try await session.next()
            let skipped = try #require(session.current)
            clock.advance(by: 1)
            try await session.next()
            await session.endWatching()
            #expect(await events.pending.isEmpty)

            let history = try await client.history().items
            let byPost = Dictionary(uniqueKeysWithValues: history.map { ($0.postID, $0) })
            #expect(byPost[watched.id]?.views == 1 && byPost[watched.id]?.watchedMs == 8000)
            #expect(byPost[skipped.id]?.skips == 1 && byPost[skipped.id]?.views == 0)
            #expect(byPost[watched.id]?.video?.id == watched.id)

            // A batch whose answer was lost is simply sent again: counted once.
            let like = WatchEvent(postID: watched.id, type: .like, at: Date())
            #expect(try await client.sendEvents([like]) == APIEventReceipt(accepted: 1, duplicates: 0))
            #expect(try await client.sendEvents([like]) == APIEventReceipt(accepted: 0, duplicates: 1))

            try await client.removeFromHistory(postID: watched.id)
            #expect(try await client.history().items.contains { $0.postID == watched.id } == false)
            await #expect(throws: ReelAPIError.self) { try await client.removeFromHistory(postID: watched.id) }
            try await client.clearHistory()
            #expect(try await client.history().items.isEmpty)
        }
    }

    @Test func notInterestedAndHiddenUploadersAreListedKeptOutOfEveryModeAndUndone() async throws {
        try await withLiveServer(videos: 0, synthetic: 12) { server in
            let client = ReelClient(baseURL: server.baseURL, credentials: .apiKey(server.ownerKey))
            let events = EventRecorder(client: client, fileSystem: InMemoryFileSystem())
            let all = try await Self.everything(client, mode: .latest)
            #expect(all.count == 12)
            let unwanted = all[0]
            let hiddenUploader = try #require(all[1].uploader)
            await events.record(.notInterested, postID: unwanted.id)
            await events.record(.hideUploader, postID: all[1].id)
            #expect(await events.flush().accepted == 2)

            #expect(try await client.notInterested().items.map(\.postID) == [unwanted.id])
            #expect(try await client.hiddenUploaders().map(\.uploader) == [hiddenUploader])
            for mode in FeedMode.allCases {
                let served = try await Self.everything(client, mode: mode)
                #expect(!served.contains { $0.id == unwanted.id }, "\(mode) served a post marked not interested")
                #expect(!served.contains { $0.uploader == hiddenUploader }, "\(mode) served a hidden uploader")
            }

            try await client.undoNotInterested(postID: unwanted.id)
            try await client.unhideUploader(hiddenUploader)
            #expect(try await client.notInterested().items.isEmpty)
            #expect(try await client.hiddenUploaders().isEmpty)
            await #expect(throws: ReelAPIError.self) { try await client.undoNotInterested(postID: unwanted.id) }
            await #expect(throws: ReelAPIError.self) { try await client.unhideUploader(hiddenUploader) }
            #expect(try await Self.everything(client, mode: .latest).count == 12)
        }
    }

    @Test func eventsRecordedOfflineAreDeliveredOnceAfterARelaunchAndRefusalsAreDropped() async throws {
        try await withLiveServer(videos: 0, synthetic: 6) { server in
            let folder = Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let client = ReelClient(baseURL: server.baseURL, credentials: .apiKey(server.ownerKey))
            let ids = try await Self.everything(client, mode: .latest).map(\.id)
            let policy = EventRecorderPolicy(batchSize: 2)
            let offline = EventRecorder(client: client, fileSystem: LocalFileSystem(root: folder), policy: policy)

            await server.stop()
            await offline.record(.impression, postID: ids[0])
            let failed = await offline.record(.view, postID: ids[0], watchedMs: 6000, durationMs: 12500, loops: 0)
            guard case .offline = failed?.stoppedBy else {
                Issue.record("with the server down the batch must wait, got \(String(describing: failed))")
                return
            }
            await offline.record(.impression, postID: ids[1])
            // A watch ratio the server refuses, between two good events.
            await offline.record(.view, postID: ids[1], watchedMs: 400 * 12500, durationMs: 12500, loops: 0)
            await offline.record(.skip, postID: ids[1], watchedMs: 900)
            #expect(await offline.pending.count == 5)

            // Relaunched with the server back: everything is sent; only the bad event is dropped.
            try await server.start()
            let relaunched = EventRecorder(client: client, fileSystem: LocalFileSystem(root: folder), policy: policy)
            let delivery = await relaunched.flush()
            #expect(delivery.accepted == 4 && delivery.dropped == 1 && delivery.waiting == 0)
            guard case .rejected(400, "invalid_event", let message) = delivery.refusal else {
                Issue.record("expected invalid_event, got \(String(describing: delivery.refusal))")
                return
            }
            #expect(message.contains("watch ratio 400 is above 50"))
            let history = try await client.history().items
            #expect(history.first { $0.postID == ids[0] }?.views == 1)
            #expect(history.first { $0.postID == ids[1] }?.skips == 1)

            // A post that does not exist is refused by name; the recorder drops just that one.
            await relaunched.record(.impression, postID: 999_999)
            let refused = await relaunched.flush()
            #expect(refused.dropped == 1 && refused.accepted == 0)
            guard case .rejected(400, "invalid_event", let missing) = refused.refusal else {
                Issue.record("expected invalid_event, got \(String(describing: refused.refusal))")
                return
            }
            #expect(missing.hasPrefix("events[0]") && missing.hasSuffix("post 999999 does not exist"))
        }
    }

    @Test func latestIsNewestFirstAndForYouSaysWhy() async throws {
        try await withLiveServer(videos: 0, synthetic: 30) { server in
            let client = ReelClient(baseURL: server.baseURL, credentials: .apiKey(server.ownerKey))
            let latest = try await client.feedPage(mode: .latest, limit: 10)
            #expect(latest.mode == .latest)
            let added = latest.items.compactMap(\.dateAdded)
            #expect(added.count == 10 && added == added.sorted(by: >))
            #expect(latest.items.allSatisfy { $0.reason == nil && $0.reasonKind == nil })

            let events = EventRecorder(client: client, fileSystem: InMemoryFileSystem())
            for item in latest.items.prefix(5) {
                await events.record(.impression, postID: item.id)
                await events.record(.view, postID: item.id, watchedMs: 12500, durationMs: 12500, loops: 1)
                await events.record(.like, postID: item.id)
            }
            #expect(await events.flush().accepted == 15)
            let forYou = try await client.feedPage(mode: .forYou, limit: 10)
            #expect(forYou.mode == .forYou && !forYou.items.isEmpty)
            #expect(forYou.items.allSatisfy { $0.reason?.isEmpty == false && $0.reasonKind != nil })
        }
    }
}
