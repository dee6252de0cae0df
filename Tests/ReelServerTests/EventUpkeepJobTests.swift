import Foundation
import Logging
import ReelForYou
import ReelJobs
import ReelModels
import ReelPipeline
import ReelRank
import ReelServer
import ReelStore
import ReelStoreCore
import Testing
@testable import ReelStoreSQLite

@Suite("For You's upkeep jobs: events.expire and recs.neighbors")
struct EventUpkeepJobTests {
    @Test("events.expire deletes events past eventRetentionDays by the clock it is given; the history stays")
    func expiryJob() async throws {
        var configuration = ServerConfiguration()
        configuration[EventSettings.self].eventRetentionDays = 30
        let server = try await TestServer()
        let post = try await server.publishVideo(name: "clip")
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let events = [
            WatchEvent(id: UUID(), postID: post.id, type: .like, at: start),
            WatchEvent(id: UUID(), postID: post.id, type: .share, at: start + 86_400),
        ]
        #expect(try await server.store.recordEvents(userID: server.member.id, events, aggregation: ForYouRules()) == .recorded(accepted: 2, duplicates: 0))
        let clock = MediaTestClock(start + 30 * 86_400 + 60)
        let upkeep = EventUpkeep(events: server.store, retention: configuration[EventSettings.self].eventRetention, logger: Logger(label: "test"), now: { clock.now })
        let job = upkeep.expiryJob()
        #expect(job.kind == .eventsExpire && job.interval == 3_600)
        let scheduled = try await job.schedule(on: server.store, now: start)
        #expect(scheduled.subject == RecurringJob.subject && scheduled.kind.isMaintenance)

        #expect(try await job.run(scheduled, context: JobContext(workerID: "test", attempt: 1)) == .recur(after: 3_600))
        #expect(try server.store.rawStrings("SELECT type FROM watch_events") == [String(EventType.share.code)])
        clock.advance(86_400)
        #expect(try await upkeep.expire() == 1)
        // The aggregates are the compact profile: they outlive the raw log.
        let history = try await server.store.history(userID: server.member.id, after: nil, limit: 10)
        #expect(history.entries.map(\.postID) == [post.id])
    }

    @Test("recs.neighbors replaces the neighbour table with co-visitation of the retained positive events")
    func neighborsJob() async throws {
        let server = try await TestServer()
        var posts: [Int64] = []
        for index in 0..<3 { posts.append(try await server.publishVideo(name: "clip-\(index)").id) }
        let now = Date()
        for (user, watched) in [(server.member.id, [posts[0], posts[1]]), (server.owner.id, [posts[1], posts[2]])] {
            let events = watched.enumerated().map { index, post in
                WatchEvent(id: UUID(), postID: post, type: .view, at: now + Double(index), watchedMs: 5_000, durationMs: 5_000, loops: 0)
            }
            _ = try await server.store.recordEvents(userID: user, events, aggregation: ForYouRules())
        }
        let upkeep = EventUpkeep(events: server.store, retention: 86_400, logger: Logger(label: "test"))
        let job = upkeep.neighborsJob()
        #expect(job.kind == .recsNeighbors && job.interval == 600)
        let scheduled = try await job.schedule(on: server.store, now: now)
        #expect(try await job.run(scheduled, context: JobContext(workerID: "test", attempt: 1)) == .recur(after: 600))

        let expected = CoVisitation().neighbors(histories: [[posts[0], posts[1]], [posts[1], posts[2]]])
        var stored: [Int64: [Int64]] = [:]
        for row in try server.store.rawStrings("SELECT post_id || ' ' || neighbor_id FROM post_neighbors ORDER BY post_id, score DESC, neighbor_id") {
            let ids = row.split(separator: " ").compactMap { Int64($0) }
            stored[ids[0], default: []].append(ids[1])
        }
        #expect(stored == expected.mapValues { $0.map(\.postID) })
        #expect(stored[posts[1]]?.count == 2)
    }
}
