import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing
@testable import ReelServer

/// Libraries are sealed on every route, and the test is generated from the route table: a
/// member granted only library 1 calls every registered operation with each path parameter
/// filled by a handle of library "Sealed"'s content (its post's id and folder, its story's id,
/// the library's id, a media token or image signature of a post they may see, re-aimed at the
/// sealed post), and with a body and `library=` query naming the sealed post and library.
///
/// What must hold: a handle of sealed content (or of the owner's private objects: jobs, keys,
/// generations) answers 403 or 404; handles of shared things (a collection, a shelf, a user
/// name, a tag) may answer 2xx, but no answer anywhere carries the sealed post's marker, and no
/// row that names the sealed post or story changes. A new route is covered as registered; a
/// new kind of path parameter fails here until `handle(for:in:)` says what it names.
@Suite("Libraries sealed on every route")
struct LibrarySealTests {
    /// Words only the sealed content carries: its post's folder and tag, its story's folder.
    static func markers(_ sealed: Sealed) -> [String] { ["sealedclip", "sealedtag", sealed.story.folderName] }

    struct Sealed {
        var post: Post
        var story: Post
        var library: Int64
        var collection: Int64
        var ownerJob: Int64
        var ownerGeneration: Int64
        var ownerKey: Int64
        /// A media URL and an image URL of a post the member may see (library 1).
        var visibleMaster: String
        var visiblePoster: String
    }

    enum Handle {
        /// Names sealed or other people's private content: 403 or 404 only.
        case sealed(String)
        /// Names something every member may know of (a collection, a tag, a user name).
        case shared(String)

        var text: String {
            switch self { case .sealed(let text), .shared(let text): text }
        }
    }

    @Test func aMemberReachesNothingOfALibraryNotGrantedThroughAnyRegisteredRoute() async throws {
        let server = try await TestServer { $0[CompatSettings.self].compatRoutes = true }
        let (router, registry) = server.router()
        try await Application(router: router).test(.router) { client in
            let sealed = try await Self.fixture(server, client)
            let before = try await Self.rowsNaming(sealed, in: server.store)
            var covered = 0
            for route in registry.routes where [.user, .owner, .mediaToken].contains(route.access) {
                guard let path = Self.path(route.path, sealed) else { continue }
                let method = HTTPRequest.Method(route.method)!
                let query = method == .get ? (path.contains("?") ? "&" : "?") + "library=\(sealed.library)" : ""
                for target in Set([path, path + query]) {
                    let answer = try await client.send(
                        method, target, key: server.memberKey, json: [.post, .put, .patch].contains(method) ? Self.body(sealed) : nil
                    )
                    let names = Self.handles(route.path, sealed)
                    let label = "\(route.method) \(target) (\(route.path)) answered \(answer.status.code)"
                    if names.contains(where: { if case .sealed = $0 { true } else { false } }) {
                        #expect([403, 404].contains(answer.status.code), "\(label): a sealed handle must be refused")
                    }
                    #expect(answer.status.code < 500, "\(label)")
                    let text = String(decoding: answer.body, as: UTF8.self)
                    // A marker the request itself named may be echoed back ("video sealedclip was
                    // not found"); any other is a leak.
                    for marker in Self.markers(sealed) where !target.contains(marker) {
                        #expect(!text.contains(marker), "\(label) and leaked \(marker): \(text.prefix(300))")
                    }
                    covered += 1
                }
            }
            let sealedRoutes = registry.routes.filter { [.user, .owner, .mediaToken].contains($0.access) }
            #expect(covered >= sealedRoutes.count && sealedRoutes.count >= 60, "every route was called at least once")
            // After every write: the member's lists still show nothing sealed, and nothing
            // about the sealed post or story changed.
            for route in registry.routes where route.method == "GET" && !route.path.contains("{") && route.access != .public {
                let text = String(decoding: try await client.send(.get, route.path, key: server.memberKey).body, as: UTF8.self)
                for marker in Self.markers(sealed) { #expect(!text.contains(marker), "GET \(route.path) after the writes leaked \(marker)") }
            }
            #expect(try await Self.rowsNaming(sealed, in: server.store) == before)
        }
    }

    /// The template with every parameter filled; nil (and a recorded issue) for a parameter
    /// this test does not know.
    static func path(_ template: String, _ sealed: Sealed) -> String? {
        var parts: [String] = []
        let segments = template.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for (index, segment) in segments.enumerated() {
            guard segment.hasPrefix("{") else { parts.append(segment); continue }
            guard let handle = handle(for: segment, after: index > 0 ? segments[index - 1] : "", in: template, sealed) else {
                Issue.record("\(template): no sealed handle for \(segment); say in handle(for:after:in:) what it names")
                return nil
            }
            parts.append(handle.text)
        }
        return parts.joined(separator: "/")
    }

    static func handles(_ template: String, _ sealed: Sealed) -> [Handle] {
        let segments = template.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        return segments.indices.compactMap { index in
            // The member's own lists (`/api/v1/me/history/{post_id}`): forgetting one's own
            // record of a post reveals nothing, so those may answer 2xx (and still leak nothing).
            if template.hasPrefix("/api/v1/me/"), segments[index] == "{post_id}" { return nil }
            return segments[index].hasPrefix("{") ? handle(for: segments[index], after: index > 0 ? segments[index - 1] : "", in: template, sealed) : nil
        }
    }

    /// What each path parameter names, by its name and the segment before it.
    static func handle(for parameter: String, after previous: String, in template: String, _ sealed: Sealed) -> Handle? {
        let post = String(sealed.post.id)
        switch parameter {
        case "{folder}": return .sealed(sealed.post.folderName)
        case "{post_id}": return .sealed(post)
        case "{username}", "{uploader}": return .shared("owner")
        case "{tag}": return .shared("sealedtag")
        case "{flag}": return .shared("broken")
        case "{file+}", "{file}":
            return .shared(template.hasPrefix("/img/") ? String(sealed.visiblePoster.split(separator: "/").last!) : "index.m3u8")
        case "{token}": return .sealed(String(sealed.visibleMaster.split(separator: "/")[1]))
        case "{sig}": return .sealed(String(sealed.visiblePoster.split(separator: "/")[1]))
        case "{hash}": return .sealed(String(sealed.visiblePoster.split(separator: "/")[3]))
        case "{id}":
            // `/media/{token}/{id}/…` and `/img/{sig}/{id}/…`: the post the capability is for.
            if template.hasPrefix("/media/") || template.hasPrefix("/img/") { return .sealed(post) }
            switch previous {
            case "videos": return .sealed(post)
            case "items": return .sealed(String(sealed.story.id))
            case "libraries": return .sealed(String(sealed.library))
            case "jobs": return .sealed(String(sealed.ownerJob))
            case "generations": return .sealed(String(sealed.ownerGeneration))
            case "keys": return .sealed(String(sealed.ownerKey))
            case "collections": return .shared(String(sealed.collection))
            case "shelves": return .shared("collection-\(sealed.collection)")
            default: return nil
            }
        default: return nil
        }
    }

    /// One body for every write: each field a request body names a post, story or library by,
    /// set to the sealed one (decoders ignore the fields their body does not have).
    static func body(_ sealed: Sealed) -> String {
        let at = WatchEvent.timestamp(Date())
        return """
        {"post_id":\(sealed.post.id),"post_ids":[\(sealed.post.id)],"items":[\(sealed.story.id)],"library":\(sealed.library),
         "library_id":\(sealed.library),"events":[{"event_id":"\(UUID().uuidString.lowercased())","type":"like","post_id":\(sealed.post.id),"at":"\(at)"},
         {"event_id":"\(UUID().uuidString.lowercased())","type":"view","post_id":\(sealed.story.id),"at":"\(at)","watched_ms":3000,"duration_ms":4000}],
         "rating":5,"seconds":1,"tags":["probe"],"flag":"broken","is_favorited":true,"name":"probe","query":"probe","keep":true}
        """
    }

    /// Every row of every table with a `post_id` column that names the sealed post or story,
    /// and their own rows: what no member's request may change.
    static func rowsNaming(_ sealed: Sealed, in store: SQLiteStore) async throws -> [String] {
        let ids = "(\(sealed.post.id), \(sealed.story.id))"
        var rows = try await rawStrings(store, "SELECT revision || ':' || coalesce(description, '') FROM posts WHERE id IN \(ids) ORDER BY id")
        for table in try await rawStrings(store, 
            "SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table' AND p.name = 'post_id' ORDER BY m.name"
        ) {
            rows += try await rawStrings(store, "SELECT '\(table): ' || count(*) FROM \(table) WHERE post_id IN \(ids)")
        }
        return rows
    }

    static func id(in body: Data) -> Int64? {
        ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?["id"].flatMap { ($0 as? NSNumber)?.int64Value }
    }

    static func fixture(_ server: TestServer, _ client: some TestClientProtocol) async throws -> Sealed {
        let created = try await client.send(.post, "/api/v1/libraries", key: server.ownerKey, json: #"{"name":"Sealed"}"#)
        #expect(created.status == .created)
        let library = try decode(APILibrary.self, created.body).id
        try await server.publishVideo(name: "openclip", tags: ["open"])
        let post = try await server.publishVideo(name: "sealedclip", tags: ["sealedtag"], libraryID: library)
        let story = try await server.postStory(author: "owner", userID: server.owner.id, libraryID: library)
        let collection = try await client.send(
            .post, "/api/v1/collections", key: server.ownerKey, json: #"{"name":"Shared","post_ids":[\#(post.id)]}"#
        )
        #expect(collection.status == .created, "\(String(decoding: collection.body, as: UTF8.self))")
        let job = try await server.store.enqueue(kind: .transcode, subject: String(post.id), maxAttempts: 1, timeLimit: nil, now: Date())
        let generation = try await client.send(.post, "/api/v1/generations", key: server.ownerKey, json: #"{"prompt":"a sealed sunrise"}"#)
        let keys = try await server.store.apiKeys(userID: server.owner.id)
        let feed = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed?limit=5", key: server.memberKey).body)
        let visible = try #require(feed.items.first)
        #expect(feed.items.map(\.id) == [visible.id], "the member sees only the post of library 1")
        return Sealed(
            post: post, story: story, library: library,
            collection: try #require(Self.id(in: collection.body)), ownerJob: job.id,
            ownerGeneration: try #require(Self.id(in: generation.body), "\(String(decoding: generation.body, as: UTF8.self))"),
            ownerKey: try #require(keys.first).id,
            visibleMaster: try #require(visible.media.master), visiblePoster: try #require(visible.media.poster?.url)
        )
    }
}
