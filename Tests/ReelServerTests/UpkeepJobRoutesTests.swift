import Foundation
import HTTPTypes
import HummingbirdTesting
import ReelJobs
import ReelModels
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelServer

@Suite("Upkeep jobs in the job routes: the owner's alone, listed only when asked for by kind")
struct UpkeepJobRoutesTests {
    @Test func upkeepJobsStayOutOfPeoplesListsAndAreTheOwners() async throws {
        let server = try await TestServer()
        let post = try await server.publishVideo(name: "clip")
        let transcode = try #require(try await server.store.jobs(postID: post.id).first)
        let sweep = try await RecurringJob(kind: .sweep, every: 3600) {}.schedule(on: server.store, now: Date())
        let expiry = try await RecurringJob(kind: .uploadExpiry, every: 600) {}.schedule(on: server.store, now: Date())
        try await server.application().test(.router) { client in
            func ids(_ query: String, key: String) async throws -> [Int64] {
                let response = try await client.send(.get, "/api/v1/jobs\(query)", key: key)
                #expect(response.status == .ok, "\(query)")
                return try decode(APIList<APIJob>.self, response.body).items.map(\.id)
            }
            for key in [server.ownerKey, server.memberKey] {
                #expect(try await ids("", key: key) == [transcode.id], "people's work only, by default")
            }
            #expect(try await ids("?kind=sweep", key: server.ownerKey) == [sweep.id])
            #expect(try await ids("?kind=upload_expiry&state=queued", key: server.ownerKey) == [expiry.id])
            #expect(try await client.send(.get, "/api/v1/jobs?kind=sweep", key: server.memberKey).status == .forbidden)

            #expect(try await client.send(.get, "/api/v1/jobs/\(sweep.id)", key: server.ownerKey).status == .ok)
            for path in ["/api/v1/jobs/\(sweep.id)", "/api/v1/jobs/\(sweep.id)/events"] {
                #expect(try await client.send(.get, path, key: server.memberKey).status == .notFound, "\(path)")
            }
            #expect(try await client.send(.post, "/api/v1/jobs/\(sweep.id)/cancel", key: server.memberKey).status == .notFound)
            let cancelled = try await client.send(.post, "/api/v1/jobs/\(sweep.id)/cancel", key: server.ownerKey)
            #expect(cancelled.status == .ok)
            #expect(try decode(APIJob.self, cancelled.body).state == "failed")
        }
    }
}
