import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelModels
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelServer

@Suite("Job event streams: a per-user cap and a lifetime")
struct JobEventStreamTests {
    @Test func aUserHoldsAtMostPerUserSlotsAndGivesThemBack() async {
        let slots = EventStreamSlots(perUser: 2, lifetime: .seconds(60))
        let first = await slots.take(userID: 1)
        let second = await slots.take(userID: 1)
        #expect(first != nil && second != nil)
        #expect(await slots.take(userID: 1) == nil)
        #expect(await slots.take(userID: 2) != nil)  // another person is not affected
        await slots.give(first!)
        #expect(await slots.take(userID: 1) != nil)
        #expect(await slots.count(userID: 1) == 2)
    }

    @Test func aSlotWhoseBodyNeverRanLapsesAfterTheLifetime() async throws {
        // A response abandoned before its body started never gives its slot back.
        let slots = EventStreamSlots(perUser: 1, lifetime: .milliseconds(10))
        #expect(await slots.take(userID: 1) != nil)
        #expect(await slots.take(userID: 1) == nil)
        // lifetime + the 30 s grace is too long to wait here; a short-lived instance shows the rule
        let quick = EventStreamSlots(perUser: 1, lifetime: .zero, grace: .milliseconds(20))
        #expect(await quick.take(userID: 1) != nil)
        try await Task.sleep(for: .milliseconds(60))
        #expect(await quick.take(userID: 1) != nil)
    }

    /// Without the lifetime these streams would never end (the job never does): the time limit
    /// is what fails then. How long each took is not asserted: the full suite on 2 cores once
    /// took 23.7 s for a stream of 1 s.
    @Test(.timeLimit(.minutes(3))) func aStreamEndsAtItsLifetimeAndItsSlotIsFreeAgain() async throws {
        let server = try await TestServer { configuration in
            configuration[JobSettings.self].eventStreamsPerUser = 1
            configuration[JobSettings.self].eventStreamLifetimeSeconds = 1
        }
        let post = try await server.publishVideo(name: "clip")
        let job = try #require(try await server.store.jobs(postID: post.id).first)
        #expect(job.state == .queued)  // no worker: the job never ends, only the lifetime ends the stream
        try await server.application().test(.router) { client in
            for _ in 0..<3 {  // one slot, used three times in a row: each stream gave it back
                let response = try await client.send(.get, "/api/v1/jobs/\(job.id)/events", key: server.memberKey)
                #expect(response.status == .ok)
                #expect(String(decoding: response.body, as: UTF8.self).contains("event: job"))
            }
        }
    }
}
