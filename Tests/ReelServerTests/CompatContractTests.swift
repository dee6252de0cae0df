import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelModels
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelServer

/// Seed 000's iOS client, replayed: its exact requests (headers, paths, bodies) and its exact
/// `Video` model with CodingKeys. If this decodes, that client works against us unmodified.
@Suite("Seed-000 compatibility")
struct CompatContractTests {
    struct Tag: Codable { let id: Int; let name: String }
    struct Flag: Codable { let id: Int; let name: String }
    struct Video: Codable, Identifiable {
        let id: Int
        let folderName: String
        var isFavorited: Bool
        var rating: Int
        let description: String?
        var tags: [Tag]?
        var flags: [Flag]?
        let shortcode: String?
        let datePosted: String?
        let uploader: String?
        let username: String?
        let dateAdded: String?

        enum CodingKeys: String, CodingKey {
            case id
            case folderName = "folder_name"
            case isFavorited = "is_favorited"
            case rating, description, tags, flags, shortcode
            case datePosted = "date_posted"
            case uploader, username
            case dateAdded = "date_added"
        }
    }

    /// What `authenticatedRequest(for:method:)` sends.
    func clientHeaders(_ key: String) -> HTTPFields {
        [HTTPField.Name("api-key")!: key, .contentType: "application/json"]
    }

    @Test func theClientsFeedFavoriteAndRatingRequestsWork() async throws {
        let server = try await TestServer { $0[CompatSettings.self].compatRoutes = true }
        try await server.publishVideo(name: "first-clip", tags: ["cats"])
        try await server.publishVideo(name: "second-clip")
        try await server.application().test(.router) { client in
            let feed = try await client.send(.get, "/api/feed/random", headers: clientHeaders(server.memberKey))
            #expect(feed.status == .ok)
            let videos = try JSONDecoder().decode([Video].self, from: feed.body)   // the client's plain decoder
            #expect(Set(videos.map(\.folderName)) == ["first-clip", "second-clip"])
            let first = try #require(videos.first { $0.folderName == "first-clip" })
            #expect(first.tags?.map(\.name) == ["cats"])
            #expect(first.isFavorited == false && first.rating == 0)

            let favorite = try await client.send(.post, "/api/videos/first-clip/favorite", headers: clientHeaders(server.memberKey), json: #"{"is_favorited":true}"#)
            #expect(favorite.status == .ok)
            let rating = try await client.send(.post, "/api/videos/first-clip/rating", headers: clientHeaders(server.memberKey), json: #"{"rating":4}"#)
            #expect(rating.status == .ok)
            let again = try JSONDecoder().decode([Video].self, from: try await client.send(.get, "/api/feed/random", headers: clientHeaders(server.memberKey)).body)
            let updated = try #require(again.first { $0.folderName == "first-clip" })
            #expect(updated.isFavorited && updated.rating == 4)

            // The client rolls back on anything but 200; bad input must not be 200.
            let r1 = try await client.send(.post, "/api/videos/first-clip/rating", headers: clientHeaders(server.memberKey), json: #"{"rating":9}"#)
            #expect(r1.status == .badRequest)
            let r2 = try await client.send(.post, "/api/videos/no-such-clip/favorite", headers: clientHeaders(server.memberKey), json: #"{"is_favorited":true}"#)
            #expect(r2.status == .notFound)
            let r3 = try await client.send(.post, "/api/videos/first-clip/favorite", json: #"{"is_favorited":true}"#)
            #expect(r3.status == .unauthorized)
        }
    }

    @Test func thePlaylistThatAVPlayerLoadsNeedsNoHeaderAndPointsTheKeyAtTheCustomScheme() async throws {
        let server = try await TestServer { $0[CompatSettings.self].compatRoutes = true }
        try await server.publishVideo(name: "clip")
        try await server.application().test(.router) { client in
            let master = try await client.send(.get, "/videos/clip/index.m3u8", headers: [HTTPField.Name("host")!: "reels.example:8443"])
            #expect(master.status == .ok)
            let text = String(decoding: master.body, as: UTF8.self)
            #expect(text.contains("240p/index.m3u8"))
            let media = try await client.send(.get, "/videos/clip/240p/index.m3u8", headers: [HTTPField.Name("host")!: "reels.example:8443"])
            #expect(media.status == .ok)
            let playlist = String(decoding: media.body, as: UTF8.self)
            #expect(playlist.contains(#"URI="lockdown://reels.example:8443/api/videos/clip/key""#))
            // The resource loader swaps the scheme/host and adds api-key; only then is the key served.
            let r4 = try await client.send(.get, "/api/videos/clip/key")
            #expect(r4.status == .unauthorized)
            let key = try await client.send(.get, "/api/videos/clip/key", headers: clientHeaders(server.memberKey))
            #expect(key.status == .ok)
            #expect(key.body == Data(repeating: 9, count: 16))
            #expect(key.headers[.cacheControl] == "private, no-store")
        }
    }

    @Test func compatibilityRoutesAreOffUnlessTurnedOn() async throws {
        #expect(ServerConfiguration()[CompatSettings.self].compatRoutes == false)
        let server = try await TestServer()
        try await server.publishVideo(name: "clip")
        try await server.application().test(.router) { client in
            let r5 = try await client.send(.get, "/videos/clip/index.m3u8")
            #expect(r5.status == .notFound)
        }
    }
}
