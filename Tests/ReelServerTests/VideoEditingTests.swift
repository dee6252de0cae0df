import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelModels
import ReelPipeline
import ReelStorageLocal
import ReelStore
@testable import ReelStoreSQLite
import Testing
@testable import ReelServer

/// The post detail, and the owner's edit and delete of a post, through real HTTP on a real
/// store and real files.
@Suite("Video detail, edit and delete")
struct VideoEditingTests {
    func names(_ client: some TestClientProtocol, _ server: TestServer, _ q: String) async throws -> [String] {
        let response = try await client.send(.get, "/api/v1/search?q=\(SearchAPITests.escape(q))", key: server.memberKey)
        #expect(response.status == .ok)
        return try decode(APIFeedPage.self, response.body).items.map(\.folderName)
    }

    /// A kept source file for `name`, where `TestMedia` records it (`sources/<name>.mp4`).
    func keepSource(_ server: TestServer, _ name: String) throws -> URL {
        let url = server.root.appendingPathComponent("sources/\(name).mp4")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("source bytes".utf8).write(to: url)
        return url
    }

    @Test func theDetailCarriesTitleLibraryCollectionsAndCaptions() async throws {
        let server = try await TestServer()
        let post = try await server.publishVideo(name: "harbour")
        var metadata = post.metadata
        metadata.description = "\n  Harbour at dusk \nwith gulls"
        try await server.store.updateMetadata(postID: post.id, metadata: metadata)
        try await server.application().test(.router) { client in
            let answer = try await client.send(.get, "/api/v1/videos/\(post.id)", key: server.memberKey)
            #expect(answer.status == .ok)
            let detail = try decode(APIVideoDetail.self, answer.body)
            #expect(detail.title == "Harbour at dusk" && detail.libraryId == 1)
            #expect(detail.collections.isEmpty && detail.video.captions == nil)
            #expect(detail.video.id == post.id && detail.video.media.master != nil)
        }
        #expect(PostTitle.title(description: nil, shortcode: "Cx1", folderName: "f") == "Cx1")
        #expect(PostTitle.title(description: " \n ", shortcode: nil, folderName: "folder") == "folder")
    }

    /// A caption's closing hashtags are shown as tags, not as part of the title.
    @Test func aTitleLeavesTheCaptionsHashtagsToTheTags() {
        func shown(_ description: String?, _ shortcode: String? = nil) -> String {
            PostTitle.shown(description: description, shortcode: shortcode, folderName: "folder")
        }
        #expect(shown("Colour bars at sunrise #retro #broadcast") == "Colour bars at sunrise")
        #expect(shown("Colour bars at sunrise · #retro") == "Colour bars at sunrise")
        #expect(shown("The #1 pick of #summer days") == "The #1 pick of #summer days", "only the tags that end the line")
        #expect(shown("#retro #broadcast\nColour bars at sunrise") == "Colour bars at sunrise")
        #expect(shown("#retro #broadcast", "Cx1") == "Cx1")
        #expect(shown("#retro #broadcast") == "#retro #broadcast", "tags alone are better than a folder name")
        #expect(shown(nil) == "folder")
        // A word is a tag word when `Hashtags` finds a tag in it (the web's postTitle agrees).
        #expect(shown("Golden walk #golden-hour #sun,") == "Golden walk")
        #expect(shown("Pick #1") == "Pick #1")
        #expect(PostTitle.title(description: "Colour bars #retro", shortcode: nil, folderName: "f") == "Colour bars #retro", "the A–Z key is unchanged")
    }

    @Test func aDownloadIsNamedAfterItsPost() throws {
        var post = Post(
            id: 7, folderName: "folder-7", kind: .video, status: .ready, metadata: PostMetadata(), flags: [], dateAdded: Date(), contentHash: "h"
        )
        post.metadata.description = "Café at 5:30 / \"noon\" #coffee"
        #expect(DownloadName.fileName(for: post) == "Café at 5 30 noon.mp4")
        #expect(DownloadName.contentDisposition(for: post) == #"attachment; filename="Cafe at 5 30 noon.mp4"; filename*=UTF-8''Caf%C3%A9%20at%205%2030%20noon.mp4"#)
        post.metadata.description = "..."
        #expect(DownloadName.fileName(for: post) == "reelhouse-7.mp4", "nothing a file can be called is left")
        post.metadata.description = String(repeating: "long ", count: 40)
        #expect(DownloadName.fileName(for: post).count <= DownloadName.maxLength + 4)
    }

    @Test func aHashtagTypedIntoTheDescriptionBecomesATag() async throws {
        let server = try await TestServer()
        let post = try await server.publishVideo(name: "pier", tags: ["boats"])
        try await server.application().test(.router) { client in
            let body = #"{"description":"Gulls over the pier #Seaside #birds\nmore #boats"}"#
            let edited = try decode(APIVideoDetail.self, try await client.send(.put, "/api/v1/videos/\(post.id)", key: server.ownerKey, json: body).body)
            #expect(edited.video.tags.map(\.name) == ["boats", "seaside", "birds"])
            #expect(edited.title == "Gulls over the pier")
            // The description's #seaside link leads to a page that holds the post.
            #expect(try await names(client, server, "tag:seaside") == ["pier"])
            // With tags in the same edit, the typed ones join them.
            let both = #"{"description":"Night #harbour","tags":["night"]}"#
            let again = try decode(APIVideoDetail.self, try await client.send(.put, "/api/v1/videos/\(post.id)", key: server.ownerKey, json: both).body)
            #expect(again.video.tags.map(\.name) == ["night", "harbour"])
        }
    }

    @Test func theOwnerEditsDescriptionAndTagsAndSearchFollows() async throws {
        let server = try await TestServer()
        let post = try await server.publishVideo(name: "harbour", tags: ["boats", "evening"])
        try await server.application().test(.router) { client in
            #expect(try await names(client, server, "boats") == ["harbour"])
            let body = #"{"description":"Gulls over the pier","tags":["birds"," Seaside "]}"#
            #expect(try await client.send(.put, "/api/v1/videos/\(post.id)", key: server.memberKey, json: body).status == .forbidden)
            let edited = try await client.send(.put, "/api/v1/videos/\(post.id)", key: server.ownerKey, json: body)
            #expect(edited.status == .ok)
            let detail = try decode(APIVideoDetail.self, edited.body)
            #expect(detail.video.description == "Gulls over the pier" && detail.title == "Gulls over the pier")
            #expect(detail.video.tags.map(\.name) == ["birds", "Seaside"])
            // The index follows: old words and tags find nothing, new ones find the post.
            #expect(try await names(client, server, "boats").isEmpty)
            #expect(try await names(client, server, "harbour").isEmpty)
            #expect(try await names(client, server, "gulls") == ["harbour"])
            #expect(try await names(client, server, "tag:seaside") == ["harbour"])

            // Only tags: the description stays; an empty list removes every tag.
            let untagged = try decode(APIVideoDetail.self, try await client.send(.put, "/api/v1/videos/\(post.id)", key: server.ownerKey, json: #"{"tags":[]}"#).body)
            #expect(untagged.video.tags.isEmpty && untagged.video.description == "Gulls over the pier")
            // An empty description clears it.
            let cleared = try decode(APIVideoDetail.self, try await client.send(.put, "/api/v1/videos/\(post.id)", key: server.ownerKey, json: #"{"description":""}"#).body)
            #expect(cleared.video.description == nil && cleared.title == "harbour")

            for bad in [#"{"tags":["a,b"]}"#, #"{"tags":["  "]}"#, #"{"description":"\#(String(repeating: "x", count: 5001))"}"#, "[]"] {
                #expect(try await client.send(.put, "/api/v1/videos/\(post.id)", key: server.ownerKey, json: bad).status == .badRequest, "\(bad.prefix(30))")
            }
            #expect(try await client.send(.put, "/api/v1/videos/999", key: server.ownerKey, json: #"{"tags":[]}"#).status == .notFound)
        }
    }

    @Test func deletingRemovesThePostItsFilesItsUnsharedSourceAndEveryonesState() async throws {
        let server = try await TestServer()
        let doomed = try await server.publishVideo(name: "doomed", tags: ["gone"])
        let kept = try await server.publishVideo(name: "kept")
        let doomedSource = try keepSource(server, "doomed")
        let keptSource = try keepSource(server, "kept")
        // A queued post that shares the kept post's source.
        let (sharing, _) = try await server.store.insertPost(
            NewPost(kind: .video, folderName: "sharing", metadata: PostMetadata(), contentHash: "sharing-hash",
                    sourcePaths: ["sources/kept.mp4"], dateAdded: Date()),
            maxAttempts: 1, now: Date()
        )
        let media = server.root.appendingPathComponent("media")
        try await server.application().test(.router) { client in
            for key in [server.memberKey, server.ownerKey] {
                #expect(try await client.send(.post, "/api/v1/videos/\(doomed.id)/favorite", key: key).status == .ok)
            }
            #expect(try await client.send(.put, "/api/v1/videos/\(doomed.id)/position", key: server.memberKey, json: #"{"seconds":1}"#).status == .noContent)
            #expect(try await client.send(.delete, "/api/v1/videos/\(doomed.id)", key: server.memberKey).status == .forbidden)

            #expect(try await client.send(.delete, "/api/v1/videos/\(doomed.id)", key: server.ownerKey).status == .noContent)
            #expect(try await client.send(.get, "/api/v1/videos/\(doomed.id)", key: server.ownerKey).status == .notFound)
            #expect(try await client.send(.delete, "/api/v1/videos/\(doomed.id)", key: server.ownerKey).status == .notFound)
            #expect(!FileManager.default.fileExists(atPath: media.appendingPathComponent("\(doomed.id)").path))
            #expect(!FileManager.default.fileExists(atPath: doomedSource.path))
            #expect(try await names(client, server, "gone").isEmpty)
            #expect(try await names(client, server, "doomed").isEmpty)
            let favorites = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/favorites", key: server.memberKey).body)
            #expect(favorites.items.isEmpty)
            let feed = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed?limit=50", key: server.memberKey).body)
            #expect(!feed.items.contains { $0.id == doomed.id })

            // The kept post is untouched; its source stays while a post still uses it.
            #expect(FileManager.default.fileExists(atPath: media.appendingPathComponent("\(kept.id)/master.m3u8").path))
            #expect(try await client.send(.delete, "/api/v1/videos/\(kept.id)", key: server.ownerKey).status == .noContent)
            #expect(FileManager.default.fileExists(atPath: keptSource.path))
            // A post that never became ready can be deleted too, and then the source goes.
            #expect(try await client.send(.delete, "/api/v1/videos/\(sharing.id)", key: server.ownerKey).status == .noContent)
            #expect(!FileManager.default.fileExists(atPath: keptSource.path))
        }
        // Nothing is left that names the deleted posts.
        let leftovers = try server.store.rawStrings("""
            SELECT (SELECT COUNT(*) FROM post_user_state) + (SELECT COUNT(*) FROM post_tag_ids) + (SELECT COUNT(*) FROM post_sources)
                 + (SELECT COUNT(*) FROM post_keys) + (SELECT COUNT(*) FROM jobs) + (SELECT COUNT(*) FROM post_search_fields)
                 + (SELECT COUNT(*) FROM posts)
            """)
        #expect(leftovers == ["0"])
        #expect(try await server.storage.postKeys().isEmpty)
    }
}
