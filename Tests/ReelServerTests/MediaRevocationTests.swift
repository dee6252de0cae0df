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

/// Revocation (issue 28, part 2): media URLs already issued stop working once their viewer's
/// access changes, not at the token's expiry. Each case signs in as the member, takes a media
/// URL from the feed, plays it (200), changes one thing, and plays it again (403, or 404 for a
/// deleted post). The node here checks on every request (`mediaAccessCacheSeconds = 0`); in
/// production it remembers an answer for 20 s and the edge for 30 s more.
@Suite("Revocation: issued media URLs stop working when access changes")
struct MediaRevocationTests {
    struct Issued {
        var master: String
        var segment: String
        var post: Int64
    }

    static func server() async throws -> TestServer {
        try await TestServer {
            $0[MediaSettings.self].mediaAccessCacheSeconds = 0
            $0[AccountSettings.self].credentialCacheSeconds = 0
        }
    }

    /// The member's first feed item's master playlist and first segment, both playing.
    static func issued(_ server: TestServer, _ client: some TestClientProtocol, key: String) async throws -> Issued {
        let page = try decode(APIFeedPage.self, try await client.send(.get, "/api/v1/feed?limit=1", key: key).body)
        let item = try #require(page.items.first)
        let prefetch = try #require(item.media.prefetch)
        let issued = Issued(master: try #require(item.media.master), segment: prefetch.firstSegment, post: item.id)
        for url in [issued.master, issued.segment] {
            #expect(try await client.send(.get, url).status == .ok, "\(url) plays before the change")
        }
        return issued
    }

    static func expectRefused(_ issued: Issued, _ client: some TestClientProtocol, status: HTTPResponse.Status = .forbidden, _ change: String) async throws {
        for url in [issued.master, issued.segment] {
            let answer = try await client.send(.get, url)
            #expect(answer.status == status, "\(url) after \(change): \(answer.status.code) \(String(decoding: answer.body, as: UTF8.self))")
        }
    }

    @Test("a URL names the member, the key it was issued through and their access")
    func aURLNamesItsViewer() async throws {
        let server = try await Self.server()
        try await server.application().test(.router) { client in
            try await server.publishVideo(name: "clip")
            let issued = try await Self.issued(server, client, key: server.memberKey)
            let token = String(issued.master.split(separator: "/")[1])
            let key = try #require(try await server.store.apiKeys(userID: server.member.id).first)
            let viewer = try #require(try server.tokensForTest.check(token, postID: issued.post, now: Date()).get().viewer)
            #expect(viewer.userID == server.member.id && viewer.keyID == key.id)
            // The owner's URL for the same post is another URL.
            let owners = try await Self.issued(server, client, key: server.ownerKey)
            #expect(owners.master != issued.master)
        }
    }

    @Test("revoking the member's grant to the post's library")
    func revokingAGrant() async throws {
        let server = try await Self.server()
        try await server.application().test(.router) { client in
            try await server.publishVideo(name: "clip")
            let issued = try await Self.issued(server, client, key: server.memberKey)
            try await server.store.revoke(libraryID: Post.defaultLibraryID, userID: server.member.id)
            try await Self.expectRefused(issued, client, "the grant was revoked")
        }
    }

    @Test("revoking the key the URL was issued through; the member's other key's URLs still play")
    func revokingTheKey() async throws {
        let server = try await Self.server()
        try await server.application().test(.router) { client in
            try await server.publishVideo(name: "clip")
            let otherKey = try await server.makeKey(for: server.member)
            let issued = try await Self.issued(server, client, key: server.memberKey)
            let kept = try await Self.issued(server, client, key: otherKey)
            let keys = try await server.store.apiKeys(userID: server.member.id)
            let first = try #require(keys.first { Credentials.displayPrefix(server.memberKey) == $0.prefix })
            try await server.store.revokeAPIKey(id: first.id, now: Date())
            try await Self.expectRefused(issued, client, "the key was revoked")
            #expect(try await client.send(.get, kept.master).status == .ok, "another key's URL is not affected")
        }
    }

    @Test("a key revoked while the node still remembers it issues no more URLs (none that name no one)")
    func aRememberedRevokedKeyGetsNoURLs() async throws {
        let server = try await TestServer {
            $0[MediaSettings.self].mediaAccessCacheSeconds = 0
            $0[AccountSettings.self].credentialCacheSeconds = 60
        }
        try await server.application().test(.router) { client in
            try await server.publishVideo(name: "clip")
            _ = try await Self.issued(server, client, key: server.memberKey)
            let keys = try await server.store.apiKeys(userID: server.member.id)
            try await server.store.revokeAPIKey(id: try #require(keys.first).id, now: Date())
            let answer = try await client.send(.get, "/api/v1/feed?limit=1", key: server.memberKey)
            #expect(answer.status == .unauthorized, "\(answer.status.code) \(String(decoding: answer.body, as: UTF8.self).prefix(300))")
        }
    }

    @Test("a new password ends the URLs issued before it")
    func changingThePassword() async throws {
        let server = try await Self.server()
        try await server.application().test(.router) { client in
            try await server.publishVideo(name: "clip")
            let issued = try await Self.issued(server, client, key: server.memberKey)
            let hash = try await BcryptPasswordHasher(cost: 4).hash("a brand new password")
            try await server.store.setPasswordHash(userID: server.member.id, passwordHash: hash)
            try await Self.expectRefused(issued, client, "the password changed")
            // Fetching the video again gives a URL that plays.
            _ = try await Self.issued(server, client, key: server.memberKey)
        }
    }

    @Test("disabling the account: its URLs, sessions, keys and password stop; enabling gives back the password, not the keys")
    func disablingTheAccount() async throws {
        let server = try await Self.server()
        try await server.application().test(.router) { client in
            try await server.publishVideo(name: "clip")
            let session = try await AccountRoutesTests.login(client, "member")
            let issued = try await Self.issued(server, client, key: server.memberKey)
            try await server.store.disableUser(id: server.member.id, now: Date())
            #expect(try await server.store.isDisabled(userID: server.member.id))
            try await Self.expectRefused(issued, client, "the account was disabled")
            #expect(try await client.send(.get, "/api/v1/me", key: server.memberKey).status == .unauthorized)
            #expect(try await client.send(.get, "/api/v1/me", headers: session).status == .unauthorized)
            let refused = try await client.send(.post, "/api/v1/session", json: #"{"username":"member","password":"\#(TestServer.password)"}"#)
            #expect(refused.status == .unauthorized, "the right password of a disabled account")
            #expect(try await client.send(.get, "/api/v1/me", key: server.ownerKey).status == .ok, "the owner is not affected")

            try await server.store.enableUser(id: server.member.id)
            #expect(try await !server.store.isDisabled(userID: server.member.id))
            let again = try await AccountRoutesTests.login(client, "member")
            #expect(try await client.send(.get, "/api/v1/me", headers: again).status == .ok)
            #expect(try await client.send(.get, "/api/v1/me", key: server.memberKey).status == .unauthorized, "revoked keys stay revoked")
        }
    }

    @Test("deleting the post (its media is gone once the node's few seconds of memory pass)")
    func deletingThePost() async throws {
        let server = try await Self.server()
        try await server.application().test(.router) { client in
            try await server.publishVideo(name: "clip")
            let issued = try await Self.issued(server, client, key: server.memberKey)
            let deleted = try await client.send(.delete, "/api/v1/videos/\(issued.post)", key: server.ownerKey)
            #expect(deleted.status == .noContent, "\(String(decoding: deleted.body, as: UTF8.self))")
            try await Task.sleep(for: .seconds(3.2))
            try await Self.expectRefused(issued, client, status: .notFound, "the post was deleted")
        }
    }

    @Test("the feed's cached items carry each viewer's own token, never another's")
    func cachedItemsAreSplicedPerViewer() async throws {
        let server = try await Self.server()
        try await server.application().test(.router) { client in
            try await server.publishVideo(name: "clip")
            for _ in 0..<2 {
                let member = try await Self.issued(server, client, key: server.memberKey)
                let owner = try await Self.issued(server, client, key: server.ownerKey)
                for (issued, user) in [(member, server.member!), (owner, server.owner!)] {
                    let token = String(issued.master.split(separator: "/")[1])
                    #expect(try server.tokensForTest.check(token, postID: issued.post, now: Date()).get().viewer?.userID == user.id)
                    #expect(!issued.master.contains(VideoPresenter.tokenPlaceholder))
                }
            }
        }
    }
}

extension TestServer {
    /// The signer the server's routes use (the same secret and settings).
    var tokensForTest: MediaTokenSigner {
        MediaTokenSigner(
            secret: secret, windowSeconds: configuration[MediaSettings.self].mediaTokenWindowSeconds, marginSeconds: configuration[MediaSettings.self].mediaTokenMarginSeconds
        )
    }
}
