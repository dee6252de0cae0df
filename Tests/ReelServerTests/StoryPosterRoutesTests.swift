import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ReelJobs
import ReelLibrary
import ReelModels
import ReelPipeline
import ReelStorage
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelServer

@Suite("Stories over HTTP: the poster's routes, expiry and the library setting")
struct StoryPosterRoutesTests {
    @Test func onlyThePosterSeesViewersAndTheirCursorsStayWithTheirItem() async throws {
        let server = try await TestServer()
        let item = try await server.postStory(author: "owner", userID: server.owner.id, postedAt: Date().addingTimeInterval(-600))
        let other = try await server.postStory(author: "owner", userID: server.owner.id, postedAt: Date().addingTimeInterval(-500))
        let extra = try await server.makeKey(for: try await server.store.createUser(name: "zoe", role: .member, passwordHash: "h", now: Date()))
        try await server.application().test(.router) { client in
            for key in [server.memberKey, extra, server.ownerKey] {
                _ = try await client.send(.post, "/api/v1/stories/seen", key: key, json: #"{"items":[\#(item.id),\#(other.id)]}"#)
            }
            _ = try await client.send(.post, "/api/v1/stories/items/\(item.id)/like", key: extra)
            let refused = try await client.send(.get, "/api/v1/stories/items/\(item.id)/viewers", key: server.memberKey)
            let refusal = try decode(APIErrorEnvelope.self, refused.body)
            #expect(refused.status == .forbidden && refusal.error.code == "forbidden")
            #expect(try await client.send(.get, "/api/v1/stories/items/999999/viewers", key: server.ownerKey).status == .notFound)

            let first = try await client.send(.get, "/api/v1/stories/items/\(item.id)/viewers?limit=1", key: server.ownerKey)
            #expect(first.status == .ok)
            try server.expectMatchesSchema(first.body, "StoryViewers")
            let page = try decode(APIStoryViewers.self, first.body)
            #expect(page.viewers.map(\.user) == ["zoe"] && page.viewers[0].liked)
            let cursor = try #require(page.nextCursor)
            let rest = try decode(APIStoryViewers.self, try await client.send(.get, "/api/v1/stories/items/\(item.id)/viewers?limit=1&cursor=\(cursor)", key: server.ownerKey).body)
            #expect(rest.viewers.map(\.user) == ["member"] && rest.nextCursor == nil, "the poster is no viewer of their own item")
            let elsewhere = try await client.send(.get, "/api/v1/stories/items/\(other.id)/viewers?cursor=\(cursor)", key: server.ownerKey)
            #expect(elsewhere.status == .badRequest)
        }
    }

    @Test func keepingMakesTheItemAPostAndDeletingRemovesItsMedia() async throws {
        let server = try await TestServer()
        let start = Date().addingTimeInterval(-600)
        let owners = try await server.postStory(author: "owner", userID: server.owner.id, postedAt: start)
        let members = try await server.postStory(author: "member", userID: server.member.id, postedAt: start + 1)
        let another = try await server.postStory(author: "member", userID: server.member.id, postedAt: start + 2)
        let media: @Sendable (Post) -> String = { post in server.root.appendingPathComponent("media/\(post.id)").path }
        try await server.application().test(.router) { client in
            #expect(try await client.send(.post, "/api/v1/stories/items/\(owners.id)/keep", key: server.memberKey).status == .forbidden)
            #expect(try await client.send(.get, "/api/v1/videos/\(owners.id)", key: server.ownerKey).status == .notFound)
            for _ in 0..<2 {
                let kept = try await client.send(.post, "/api/v1/stories/items/\(owners.id)/keep", key: server.ownerKey)
                #expect(kept.status == .ok)
                try server.expectMatchesSchema(kept.body, "StoryItem")
                #expect(try decode(APIStoryItem.self, kept.body).kept == true)
            }
            // Kept: a post of the library now, and still in the tray until it expires.
            #expect(try await client.send(.get, "/api/v1/videos/\(owners.id)", key: server.memberKey).status == .ok)
            let page = try decode(APIStoryUserPage.self, try await client.send(.get, "/api/v1/stories/owner", key: server.memberKey).body)
            #expect(page.items.map(\.id) == [owners.id])

            // Someone else's item: refused to a member, allowed to the server's owner.
            #expect(try await client.send(.delete, "/api/v1/stories/items/\(owners.id)", key: server.memberKey).status == .forbidden)
            #expect(FileManager.default.fileExists(atPath: media(members)))
            #expect(try await client.send(.delete, "/api/v1/stories/items/\(members.id)", key: server.memberKey).status == .noContent)
            #expect(!FileManager.default.fileExists(atPath: media(members)))
            #expect(try await server.store.post(id: members.id) == nil)
            #expect(try await client.send(.delete, "/api/v1/stories/items/\(members.id)", key: server.memberKey).status == .notFound)
            #expect(try await client.send(.delete, "/api/v1/stories/items/\(another.id)", key: server.ownerKey).status == .noContent)
            #expect(!FileManager.default.fileExists(atPath: media(another)))
            #expect(try await client.send(.get, "/api/v1/stories/member", key: server.ownerKey).status == .notFound)
        }
    }

    @Test func theArchiveListsTheViewersOwnItemsNewestFirst() async throws {
        let server = try await TestServer()
        let start = Date().addingTimeInterval(-7200)
        let expired = try await server.postStory(author: "member", userID: server.member.id, postedAt: start, lifetime: 60)
        let live = try await server.postStory(author: "member", userID: server.member.id, postedAt: start + 10)
        try await server.postStory(author: "owner", userID: server.owner.id, postedAt: start + 20)
        _ = try await server.store.expireStories(now: Date(), keepOwnerArchive: true)
        try await server.application().test(.router) { client in
            let answer = try await client.send(.get, "/api/v1/stories/archive", key: server.memberKey)
            #expect(answer.status == .ok)
            try server.expectMatchesSchema(answer.body, "StoryArchive")
            let archive = try decode(APIStoryArchive.self, answer.body)
            #expect(archive.items.map(\.id) == [live.id, expired.id] && archive.items.allSatisfy { $0.kept == false })
            // The expired one is out of the tray but still plays for its poster.
            let page = try decode(APIStoryUserPage.self, try await client.send(.get, "/api/v1/stories/member", key: server.memberKey).body)
            #expect(page.items.map(\.id) == [live.id])
            #expect(try await client.send(.get, try #require(archive.items[1].media.master)).status == .ok)
        }
    }

    @Test("the stories.expire job deletes what nothing keeps, with its media, by the clock it is given", arguments: [true, false])
    func expiryJob(keepOwnerArchive: Bool) async throws {
        let server = try await TestServer()
        let posted = Date(timeIntervalSince1970: 1_800_000_000)
        let users = try await server.postStory(author: "member", userID: server.member.id, postedAt: posted, lifetime: 3600)
        let outside = try await server.postStory(author: "pexels-jo", postedAt: posted, lifetime: 3600)
        let kept = try await server.postStory(author: "member", userID: server.member.id, postedAt: posted, lifetime: 3600)
        try await server.store.keepStory(postID: kept.id)
        let archived = try await server.postStory(author: "insta", postedAt: posted, lifetime: 60)
        try await server.store.fileStory(postID: archived.id, StoryFiling(author: "insta", postedAt: posted, expiresAt: posted + 60, archived: true))
        let clock = MediaTestClock(posted + 3599)
        let expiry = StoryExpiry(
            stories: server.store, removal: PostRemoval(library: server.store, storage: server.storage, sources: nil),
            keepOwnerArchive: keepOwnerArchive, logger: Logger(label: "test"), now: { clock.now }
        )
        let job = expiry.recurringJob()
        #expect(job.kind == .storiesExpire && job.interval == 60)
        let scheduled = try await job.schedule(on: server.store, now: posted)
        #expect(scheduled.subject == RecurringJob.subject)

        #expect(try await job.run(scheduled, context: JobContext(workerID: "test", attempt: 1)) == .recur(after: 60))
        #expect(try await server.store.post(id: outside.id) != nil, "not expired yet")
        clock.advance(1)
        #expect(try await job.run(scheduled, context: JobContext(workerID: "test", attempt: 2)) == .recur(after: 60))

        let exists: @Sendable (Post) -> Bool = { post in FileManager.default.fileExists(atPath: server.root.appendingPathComponent("media/\(post.id)").path) }
        #expect(try await server.store.post(id: outside.id) == nil && !exists(outside))
        #expect(try await server.store.post(id: users.id) == nil ? !keepOwnerArchive : keepOwnerArchive)
        #expect(exists(users) == keepOwnerArchive)
        #expect(try await server.store.post(id: kept.id)?.status == .ready && exists(kept))
        #expect(try await server.store.post(id: archived.id)?.status == .story && exists(archived))
        #expect(try await server.store.storyTray(viewerID: server.member.id, now: clock.now, after: nil, limit: 10).entries.isEmpty)
        #expect(try await expiry.sweep() == 0)
    }

    @Test func librariesShowAndTakeKeepArchivedStories() async throws {
        let server = try await TestServer()
        try await server.application().test(.router) { client in
            let list = try decode(APILibraryList.self, try await client.send(.get, "/api/v1/libraries", key: server.memberKey).body)
            #expect(list.libraries.map(\.keepArchivedStories) == [true])
            #expect(try await client.send(.put, "/api/v1/libraries/1", key: server.memberKey, json: #"{"keep_archived_stories":false}"#).status == .forbidden)
            let changed = try await client.send(.put, "/api/v1/libraries/1", key: server.ownerKey, json: #"{"keep_archived_stories":false}"#)
            #expect(changed.status == .ok)
            try server.expectMatchesSchema(changed.body, "Library")
            #expect(try decode(APILibrary.self, changed.body).keepArchivedStories == false)
            #expect(try await server.store.keepsArchivedStories(libraryID: 1) == false)
            let bad = try await client.send(.put, "/api/v1/libraries/1", key: server.ownerKey, json: #"{"keep_archived_stories":"no"}"#)
            #expect(bad.status == .badRequest)
            // Renaming leaves the setting alone.
            let renamed = try decode(APILibrary.self, try await client.send(.put, "/api/v1/libraries/1", key: server.ownerKey, json: #"{"name":"Home"}"#).body)
            #expect(renamed.name == "Home" && !renamed.keepArchivedStories)
        }
    }
}

