import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelModels
import ReelStore
import ReelStoreSQLite
import Testing
@testable import ReelServer

@Suite("Sessions and keys")
struct SessionTests {
    @Test func loginSetsASafeCookieThatWorksUntilLogout() async throws {
        let server = try await TestServer()
        try await server.application().test(.router) { client in
            let login = try await client.send(.post, "/api/v1/session", json: #"{"username":"member","password":"\#(TestServer.password)"}"#)
            #expect(login.status == .ok)
            let cookie = try #require(login.headers[.setCookie])
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && !cookie.contains("Secure"))
            let token = String(cookie.split(separator: ";")[0])
            let me = try await client.send(.get, "/api/v1/me", headers: [.cookie: token])
            #expect(me.status == .ok)
            #expect(try decode(ReelModelsUser.self, me.body).name == "member")
            let logout = try await client.send(.delete, "/api/v1/session", headers: [.cookie: token, .secFetchSite: "same-origin"])
            #expect(logout.status == .noContent)
            #expect(logout.headers[.setCookie]?.contains("Max-Age=0") == true)
            let r1 = try await client.send(.get, "/api/v1/me", headers: [.cookie: token])
            #expect(r1.status == .unauthorized)
        }
    }

    @Test func secureCookieBehindATLSProxy() async throws {
        let server = try await TestServer()
        try await server.application().test(.router) { client in
            let login = try await client.send(.post, "/api/v1/session", headers: [HTTPField.Name("x-forwarded-proto")!: "https"],
                                              json: #"{"username":"member","password":"\#(TestServer.password)"}"#)
            #expect(login.headers[.setCookie]?.contains("Secure") == true)
        }
    }

    @Test func wrongPasswordsAreRateLimitedPerAccount() async throws {
        let server = try await TestServer { $0[AccountSettings.self].loginAttemptsPerAccount = 3; $0[AccountSettings.self].loginAttemptsPerIP = 100 }
        try await server.application().test(.router) { client in
            for _ in 0..<3 {
                let wrong = try await client.send(.post, "/api/v1/session", json: #"{"username":"member","password":"nope-nope"}"#)
                #expect(wrong.status == .unauthorized)
                #expect(try decode(APIErrorEnvelope.self, wrong.body).error.code == "invalid_credentials")
            }
            let limited = try await client.send(.post, "/api/v1/session", json: #"{"username":"member","password":"\#(TestServer.password)"}"#)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] != nil)
            // Another account is unaffected.
            let other = try await client.send(.post, "/api/v1/session", json: #"{"username":"owner","password":"\#(TestServer.password)"}"#)
            #expect(other.status == .ok)
        }
    }

    @Test func unknownUsersAndWrongKeysAre401() async throws {
        let server = try await TestServer()
        try await server.application().test(.router) { client in
            let r2 = try await client.send(.post, "/api/v1/session", json: #"{"username":"ghost","password":"whatever1"}"#)
            #expect(r2.status == .unauthorized)
            let r3 = try await client.send(.get, "/api/v1/me", key: "rh_not-a-real-key")
            #expect(r3.status == .unauthorized)
            let r4 = try await client.send(.get, "/api/v1/me", headers: [.authorization: "Bearer \(server.memberKey)"])
            #expect(r4.status == .ok)
        }
    }

    @Test func revokedKeysStopWorkingOnceTheCacheExpires() async throws {
        // With the credential cache off, a revocation is seen by the very next request.
        let server = try await TestServer { $0[AccountSettings.self].credentialCacheSeconds = 0 }
        try await server.application().test(.router) { client in
            let r5 = try await client.send(.get, "/api/v1/me", key: server.memberKey)
            #expect(r5.status == .ok)
            let keys = try await server.store.apiKeys(userID: server.member.id)
            try await server.store.revokeAPIKey(id: keys[0].id, now: Date())
            let r6 = try await client.send(.get, "/api/v1/me", key: server.memberKey)
            #expect(r6.status == .unauthorized)
        }
    }

    @Test func apiRequestsAreRateLimitedPerKey() async throws {
        let server = try await TestServer { $0[AccountSettings.self].apiRequestsPerMinute = 5 }
        try await server.application().test(.router) { client in
            for _ in 0..<5 {
                let response = try await client.send(.get, "/api/v1/me", key: server.memberKey)
                #expect(response.status == .ok)
            }
            let r7 = try await client.send(.get, "/api/v1/me", key: server.memberKey)
            #expect(r7.status == .tooManyRequests)
            let r8 = try await client.send(.get, "/api/v1/me", key: server.ownerKey)
            #expect(r8.status == .ok)
        }
    }

    @Test func mediaAndShellRequestsCarryingACredentialDoNotSpendTheAPILimit() async throws {
        let server = try await TestServer { $0[AccountSettings.self].apiRequestsPerMinute = 2 }
        let post = try await server.publishVideo(name: "limited")
        try await server.application().test(.router) { client in
            let video = try decode(APIVideo.self, try await client.send(.get, "/api/v1/videos/\(post.id)", key: server.memberKey).body)
            let segment = try #require(video.media.prefetch?.firstSegment)
            // A player sends its credential along with every segment and poster request.
            for _ in 0..<5 {
                #expect(try await client.send(.get, segment, key: server.memberKey).status == .ok)
            }
            #expect(try await client.send(.get, "/api/v1/me", key: server.memberKey).status == .ok)
            #expect(try await client.send(.get, "/api/v1/me", key: server.memberKey).status == .tooManyRequests)
        }
    }
}

struct ReelModelsUser: Decodable {
    var id: Int64
    var name: String
    var role: String
}
