import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelModels
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelServer

extension TestServer {
    /// A published story item with real HLS files on disk: a post published as the feed's test
    /// posts are, then filed as a story (which moves it from `ready` to `story`).
    @discardableResult
    func postStory(
        author: String, userID: Int64? = nil, postedAt: Date = Date(), lifetime: TimeInterval? = 86_400, kind: PostKind = .video,
        libraryID: Int64 = Post.defaultLibraryID
    ) async throws -> Post {
        let post = try await publishVideo(name: "story-\(UUID().uuidString.prefix(8).lowercased())", kind: kind, libraryID: libraryID)
        try await store.fileStory(
            postID: post.id, StoryFiling(author: author, userID: userID, postedAt: postedAt, expiresAt: lifetime.map { postedAt + $0 })
        )
        return post
    }

    /// Checks a JSON answer against its schema in the server's own OpenAPI document.
    func expectMatchesSchema(_ body: Data, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let document = try JSONSerialization.jsonObject(with: OpenAPIDocument.json(for: router().1)) as! [String: Any]
        let schemas = (document["components"] as! [String: Any])["schemas"] as! [String: Any]
        let problems = SchemaValidator(components: schemas).violations(try JSONValue.parse(body), ["$ref": "#/components/schemas/\(name)"])
        #expect(problems.isEmpty, "\(name): \(problems)", sourceLocation: sourceLocation)
    }
}

@Suite("Stories over HTTP: tray, a person's items, seen and likes")
struct StoryRoutesTests {
    @Test func theTrayAndAPersonsItemsPlayThroughSignedMedia() async throws {
        let server = try await TestServer { $0[CompatSettings.self].compatRoutes = true }
        let start = Date().addingTimeInterval(-600)
        let first = try await server.postStory(author: "owner", userID: server.owner.id, postedAt: start)
        let photo = try await server.postStory(author: "owner", userID: server.owner.id, postedAt: start + 60, kind: .image)
        let archived = try await server.postStory(author: "Insta.Friend", postedAt: start + 30, lifetime: nil)
        try await server.application().test(.router) { client in
            let tray = try await client.send(.get, "/api/v1/stories", key: server.memberKey)
            #expect(tray.status == .ok)
            try server.expectMatchesSchema(tray.body, "StoryTray")
            let page = try decode(APIStoryTray.self, tray.body)
            #expect(page.tray.map(\.user) == ["owner", "Insta.Friend"] && page.nextCursor == nil)
            #expect(page.tray[0].itemsCount == 2 && !page.tray[0].allSeen && !page.tray[0].isMe && page.tray[0].avatar != nil)
            #expect(String(decoding: tray.body, as: UTF8.self).contains("\"next_cursor\":null"))
            let mine = try decode(APIStoryTray.self, try await client.send(.get, "/api/v1/stories", key: server.ownerKey).body)
            #expect(mine.tray.first { $0.user == "owner" }?.isMe == true)

            let answer = try await client.send(.get, "/api/v1/stories/OWNER", key: server.memberKey)
            #expect(answer.status == .ok)
            try server.expectMatchesSchema(answer.body, "StoryUserPage")
            let items = try decode(APIStoryUserPage.self, answer.body)
            #expect(items.user == "owner" && !items.isMe && items.firstUnseen == 0)
            #expect(items.items.map(\.id) == [first.id, photo.id] && items.items.map(\.kind) == [.video, .photo])
            #expect(items.items[0].duration == 2 && items.items[1].duration == ServerConfiguration()[StorySettings.self].storyPhotoSeconds)
            #expect(items.items[0].viewCount == nil && items.items[0].kept == nil, "counts are the poster's alone")
            #expect(items.items[0].expiresAt != nil && items.items[0].caption == "about \(first.folderName)")
            // The story's media plays through the signed route as a feed item's does…
            let master = try #require(items.items[0].media.master)
            #expect(try await client.send(.get, master).status == .ok)
            let segment = try #require(items.items[0].media.prefetch?.firstSegment)
            #expect(try await client.send(.get, segment).status == .ok)
            // …but never through seed 000's credential-less routes, nor as a post.
            #expect(try await client.send(.get, "/videos/\(first.folderName)/index.m3u8").status == .notFound)
            #expect(try await client.send(.get, "/api/v1/videos/\(first.id)", key: server.memberKey).status == .notFound)

            let own = try decode(APIStoryUserPage.self, try await client.send(.get, "/api/v1/stories/owner", key: server.ownerKey).body)
            #expect(own.isMe && own.items[0].viewCount == 0 && own.items[0].kept == false)
            let friend = try decode(APIStoryUserPage.self, try await client.send(.get, "/api/v1/stories/insta.friend", key: server.memberKey).body)
            #expect(friend.items.map(\.id) == [archived.id] && friend.items[0].expiresAt == nil)

            for (path, status) in [("/api/v1/stories/nobody", HTTPResponse.Status.notFound), ("/api/v1/stories?limit=51", .badRequest),
                                   ("/api/v1/stories?limit=0", .badRequest), ("/api/v1/stories?cursor=bogus", .badRequest)] {
                #expect(try await client.send(.get, path, key: server.memberKey).status == status, "\(path)")
            }
        }
    }

    @Test func trayPagesFollowTheirCursor() async throws {
        let server = try await TestServer { $0[CompatSettings.self].compatRoutes = true }
        let start = Date().addingTimeInterval(-600)
        for (index, name) in ["ana", "bo", "cy"].enumerated() {
            try await server.postStory(author: name, postedAt: start + Double(index))
        }
        try await server.application().test(.router) { client in
            let first = try decode(APIStoryTray.self, try await client.send(.get, "/api/v1/stories?limit=2", key: server.memberKey).body)
            #expect(first.tray.map(\.user) == ["cy", "bo"])
            let cursor = try #require(first.nextCursor)
            let second = try decode(APIStoryTray.self, try await client.send(.get, "/api/v1/stories?limit=2&cursor=\(cursor)", key: server.memberKey).body)
            #expect(second.tray.map(\.user) == ["ana"] && second.nextCursor == nil)
            // A cursor of another listing (the archive) is refused, not misread.
            try await server.postStory(author: "member", userID: server.member.id, postedAt: start)
            try await server.postStory(author: "member", userID: server.member.id, postedAt: start + 1)
            let archive = try decode(APIStoryArchive.self, try await client.send(.get, "/api/v1/stories/archive?limit=1", key: server.memberKey).body)
            let foreign = try #require(archive.nextCursor)
            let refused = try await client.send(.get, "/api/v1/stories?cursor=\(foreign)", key: server.memberKey)
            let refusal = try decode(APIErrorEnvelope.self, refused.body)
            #expect(refused.status == .badRequest && refusal.error.code == "invalid_cursor")
        }
    }

    /// Your own story opens your tray whatever its age, once, and pages still hold `limit`.
    @Test func yourOwnStoryComesFirstInYourTray() async throws {
        let server = try await TestServer()
        let start = Date().addingTimeInterval(-600)
        try await server.postStory(author: "member", userID: server.member.id, postedAt: start)
        for (index, name) in ["ana", "bo", "cy"].enumerated() {
            try await server.postStory(author: name, postedAt: start + 10 + Double(index))
        }
        try await server.application().test(.router) { client in
            func tray(_ key: String, _ query: String) async throws -> APIStoryTray {
                try decode(APIStoryTray.self, try await client.send(.get, "/api/v1/stories?\(query)", key: key).body)
            }
            let whole = try await tray(server.memberKey, "limit=10")
            #expect(whole.tray.map(\.user) == ["member", "cy", "bo", "ana"] && whole.tray[0].isMe)
            #expect(try await tray(server.ownerKey, "limit=10").tray.map(\.user) == ["cy", "bo", "ana", "member"], "the others' order is unchanged")
            for limit in [1, 2, 3] {
                var users: [String] = []
                var page = try await tray(server.memberKey, "limit=\(limit)")
                while true {
                    #expect(page.tray.count <= limit)
                    users += page.tray.map(\.user)
                    guard let next = page.nextCursor else { break }
                    page = try await tray(server.memberKey, "limit=\(limit)&cursor=\(next)")
                }
                #expect(users == ["member", "cy", "bo", "ana"], "limit \(limit)")
            }
        }
    }

    @Test func seenBatchesAreCheckedIdempotentAndANewItemLightsTheRingAgain() async throws {
        let server = try await TestServer { $0[CompatSettings.self].compatRoutes = true }
        let start = Date().addingTimeInterval(-600)
        let one = try await server.postStory(author: "owner", userID: server.owner.id, postedAt: start)
        let two = try await server.postStory(author: "owner", userID: server.owner.id, postedAt: start + 1)
        let plainPost = try await server.publishVideo(name: "not-a-story")
        try await server.application().test(.router) { client in
            let tooMany = "[" + (1...501).map(String.init).joined(separator: ",") + "]"
            for body in [#"{"items":[]}"#, #"{"items":\#(tooMany)}"#, #"{"items":["1"]}"#, #"{"items":[1.5]}"#, #"{"items":[0]}"#, #"{}"#, "[1]"] {
                let answer = try await client.send(.post, "/api/v1/stories/seen", key: server.memberKey, json: body)
                #expect(answer.status == .badRequest, "\(body.prefix(40)) → \(answer.status)")
                #expect(try decode(APIErrorEnvelope.self, answer.body).error.code == "bad_request")
            }
            let batch = #"{"items":[\#(one.id),\#(two.id),\#(plainPost.id),999999,\#(one.id)]}"#
            for _ in 0..<2 {
                let answer = try await client.send(.post, "/api/v1/stories/seen", key: server.memberKey, json: batch)
                #expect(answer.status == .ok)
                try server.expectMatchesSchema(answer.body, "StorySeenResponse")
                #expect(try decode(APIStorySeenResponse.self, answer.body) == APIStorySeenResponse(accepted: 2, ignored: 2))
            }
            var tray = try decode(APIStoryTray.self, try await client.send(.get, "/api/v1/stories", key: server.memberKey).body)
            #expect(tray.tray.map(\.allSeen) == [true] && tray.tray[0].firstUnseen == 0)
            let page = try decode(APIStoryUserPage.self, try await client.send(.get, "/api/v1/stories/owner", key: server.memberKey).body)
            #expect(page.items.allSatisfy { $0.seen })

            let three = try await server.postStory(author: "owner", userID: server.owner.id, postedAt: Date())
            tray = try decode(APIStoryTray.self, try await client.send(.get, "/api/v1/stories", key: server.memberKey).body)
            #expect(tray.tray.map(\.allSeen) == [false] && tray.tray[0].firstUnseen == 2 && tray.tray[0].itemsCount == 3)
            let relit = try decode(APIStoryUserPage.self, try await client.send(.get, "/api/v1/stories/owner", key: server.memberKey).body)
            #expect(relit.firstUnseen == 2 && relit.items.last?.id == three.id && relit.items.last?.seen == false)
        }
    }

    @Test func likesAreIdempotentAndOnlyForVisibleItems() async throws {
        let server = try await TestServer { $0[CompatSettings.self].compatRoutes = true }
        let item = try await server.postStory(author: "owner", userID: server.owner.id, postedAt: Date().addingTimeInterval(-60))
        let plainPost = try await server.publishVideo(name: "not-a-story")
        try await server.application().test(.router) { client in
            for _ in 0..<2 {
                let liked = try await client.send(.post, "/api/v1/stories/items/\(item.id)/like", key: server.memberKey)
                #expect(liked.status == .ok)
                try server.expectMatchesSchema(liked.body, "StoryLike")
                #expect(try decode(APIStoryLike.self, liked.body) == APIStoryLike(id: item.id, liked: true))
            }
            let page = try decode(APIStoryUserPage.self, try await client.send(.get, "/api/v1/stories/owner", key: server.memberKey).body)
            #expect(page.items[0].liked && !page.items[0].seen)
            let own = try decode(APIStoryUserPage.self, try await client.send(.get, "/api/v1/stories/owner", key: server.ownerKey).body)
            #expect(own.items[0].likeCount == 1 && !own.items[0].liked)
            for _ in 0..<2 {
                let unliked = try await client.send(.delete, "/api/v1/stories/items/\(item.id)/like", key: server.memberKey)
                #expect(try decode(APIStoryLike.self, unliked.body) == APIStoryLike(id: item.id, liked: false))
            }
            #expect(try await client.send(.post, "/api/v1/stories/items/\(plainPost.id)/like", key: server.memberKey).status == .notFound)
            #expect(try await client.send(.post, "/api/v1/stories/items/999999/like", key: server.memberKey).status == .notFound)
            #expect(try await client.send(.post, "/api/v1/stories/items/abc/like", key: server.memberKey).status == .badRequest)
        }
    }

    @Test func aMemberNeverSeesAStoryOfALibraryNotGrantedToThem() async throws {
        let server = try await TestServer { $0[CompatSettings.self].compatRoutes = true }
        let family = try await server.store.createLibrary(name: "Family", now: Date())
        let hidden = try await server.postStory(author: "cousin", postedAt: Date().addingTimeInterval(-60), libraryID: family.id)
        try await server.application().test(.router) { client in
            let tray = try decode(APIStoryTray.self, try await client.send(.get, "/api/v1/stories", key: server.memberKey).body)
            #expect(tray.tray.isEmpty)
            let owners = try decode(APIStoryTray.self, try await client.send(.get, "/api/v1/stories", key: server.ownerKey).body)
            #expect(owners.tray.map(\.user) == ["cousin"])
            #expect(try await client.send(.get, "/api/v1/stories/cousin", key: server.memberKey).status == .notFound)
            #expect(try await client.send(.post, "/api/v1/stories/items/\(hidden.id)/like", key: server.memberKey).status == .notFound)
            #expect(try await client.send(.delete, "/api/v1/stories/items/\(hidden.id)", key: server.memberKey).status == .notFound)
            let seen = try await client.send(.post, "/api/v1/stories/seen", key: server.memberKey, json: #"{"items":[\#(hidden.id)]}"#)
            #expect(try decode(APIStorySeenResponse.self, seen.body) == APIStorySeenResponse(accepted: 0, ignored: 1))
        }
    }
}

@Suite("Stories: credit for outside catalogues")
struct StoryAttributionTests {
    func post(sourceURL: String?, uploader: String? = "Jane Doe", username: String? = "jane-doe") -> Post {
        Post(id: 1, folderName: "pexels-video-1", kind: .video, status: .story,
             metadata: PostMetadata(uploader: uploader, username: username, sourceURL: sourceURL), dateAdded: Date(), contentHash: "h")
    }

    @Test func aPexelsItemCreditsItsAuthorAndPage() {
        let page = "https://www.pexels.com/video/waves-1234/"
        #expect(StoryPresenter.attribution(of: post(sourceURL: page)) == APIAttribution(
            source: "Pexels", author: "Jane Doe", authorUrl: "https://www.pexels.com/@jane-doe", url: page
        ))
        #expect(StoryPresenter.attribution(of: post(sourceURL: page, username: "@jane-doe"))?.authorUrl == "https://www.pexels.com/@jane-doe")
        #expect(StoryPresenter.attribution(of: post(sourceURL: page, username: "jane doe"))?.authorUrl == nil)
    }

    @Test func anythingElseCarriesNoCredit() {
        for source in [nil, "https://www.instagram.com/p/abc/", "https://pexels.com.example.org/video/1", "not a url"] {
            #expect(StoryPresenter.attribution(of: post(sourceURL: source)) == nil, "\(source ?? "nil")")
        }
    }
}
