import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReelModels
import ReelStoreSQLite
import Testing
@testable import ReelServer

/// `PUT /api/v1/me/password` and `/api/v1/me/keys`, through real HTTP on a real store.
@Suite("Account routes")
struct AccountRoutesTests {
    static func login(_ client: some TestClientProtocol, _ name: String, _ password: String = TestServer.password) async throws -> HTTPFields {
        let answer = try await client.send(.post, "/api/v1/session", json: #"{"username":"\#(name)","password":"\#(password)"}"#)
        #expect(answer.status == .ok)
        let cookie = try #require(answer.headers[.setCookie])
        // As the page sends it: writes with the cookie must come from the site itself.
        return [.cookie: String(cookie.split(separator: ";")[0]), .secFetchSite: "same-origin"]
    }

    @Test func changingThePasswordSignsOutEveryOtherSessionButThisOne() async throws {
        let server = try await TestServer()
        try await server.application().test(.router) { client in
            let here = try await Self.login(client, "member")
            let elsewhere = try await Self.login(client, "member")
            let ownersSession = try await Self.login(client, "owner")
            // Both sessions are in the credential cache before the change.
            #expect(try await client.send(.get, "/api/v1/me", headers: elsewhere).status == .ok)
            let body = #"{"current_password":"\#(TestServer.password)","new_password":"a brand new secret"}"#
            let changed = try await client.send(.put, "/api/v1/me/password", headers: here, json: body)
            #expect(changed.status == .noContent)
            #expect(try await client.send(.get, "/api/v1/me", headers: here).status == .ok)
            #expect(try await client.send(.get, "/api/v1/me", headers: elsewhere).status == .unauthorized)
            #expect(try await client.send(.get, "/api/v1/me", headers: ownersSession).status == .ok)
            // API keys are separate credentials and keep working.
            #expect(try await client.send(.get, "/api/v1/me", key: server.memberKey).status == .ok)
            let old = try await client.send(.post, "/api/v1/session", json: #"{"username":"member","password":"\#(TestServer.password)"}"#)
            #expect(old.status == .unauthorized)
            _ = try await Self.login(client, "member", "a brand new secret")
        }
    }

    @Test func aWrongCurrentPasswordIs403AShortNewOneIs400AndGuessingIsRateLimited() async throws {
        let server = try await TestServer { $0[AccountSettings.self].loginAttemptsPerAccount = 3 }
        try await server.application().test(.router) { client in
            let short = try await client.send(.put, "/api/v1/me/password", key: server.memberKey,
                                              json: #"{"current_password":"\#(TestServer.password)","new_password":"short"}"#)
            #expect(short.status == .badRequest)
            let wrong = try await client.send(.put, "/api/v1/me/password", key: server.memberKey,
                                              json: #"{"current_password":"not it at all","new_password":"long enough now"}"#)
            #expect(wrong.status == .forbidden)
            #expect(try decode(APIErrorEnvelope.self, wrong.body).error.code == "forbidden")
            _ = try await client.send(.put, "/api/v1/me/password", key: server.memberKey,
                                      json: #"{"current_password":"still not it","new_password":"long enough now"}"#)
            let limited = try await client.send(.put, "/api/v1/me/password", key: server.memberKey,
                                                json: #"{"current_password":"\#(TestServer.password)","new_password":"long enough now"}"#)
            #expect(limited.status == .tooManyRequests)
            // Nothing changed: the old password still signs in.
            _ = try await Self.login(client, "member")
        }
    }

    @Test func keysAreMintedListedWithoutSecretsAndRevokedAtOnce() async throws {
        let server = try await TestServer()
        try await server.application().test(.router) { client in
            let created = try await client.send(.post, "/api/v1/me/keys", key: server.memberKey, json: #"{"name":" laptop "}"#)
            #expect(created.status == .created)
            let minted = try decode(APICreatedKey.self, created.body)
            #expect(minted.secret.hasPrefix(Credentials.apiKeyPrefix) && minted.key.name == "laptop")
            #expect(minted.secret.hasPrefix(minted.key.prefix) && minted.key.lastUsedAt == nil)
            #expect(String(decoding: created.body, as: UTF8.self).contains(#""last_used_at":null"#))

            // The new key works, and then shows when it was used.
            #expect(try await client.send(.get, "/api/v1/me", key: minted.secret).status == .ok)
            let listed = try decode(APIKeyList.self, try await client.send(.get, "/api/v1/me/keys", key: server.memberKey).body)
            #expect(listed.keys.map(\.name) == ["test", "laptop"])
            #expect(listed.keys.last?.lastUsedAt != nil)
            let text = String(decoding: try await client.send(.get, "/api/v1/me/keys", key: server.memberKey).body, as: UTF8.self)
            #expect(!text.contains(minted.secret) && !text.contains(server.memberKey))

            // Another user's key is not found, and stays working.
            let ownersKeys = try decode(APIKeyList.self, try await client.send(.get, "/api/v1/me/keys", key: server.ownerKey).body)
            let ownersKey = try #require(ownersKeys.keys.first)
            #expect(try await client.send(.delete, "/api/v1/me/keys/\(ownersKey.id)", key: server.memberKey).status == .notFound)
            #expect(try await client.send(.get, "/api/v1/me", key: server.ownerKey).status == .ok)

            // Revoked: gone from the list and refused at once, although it was just cached.
            #expect(try await client.send(.delete, "/api/v1/me/keys/\(minted.key.id)", key: server.memberKey).status == .noContent)
            #expect(try await client.send(.get, "/api/v1/me", key: minted.secret).status == .unauthorized)
            let after = try decode(APIKeyList.self, try await client.send(.get, "/api/v1/me/keys", key: server.memberKey).body)
            #expect(after.keys.map(\.name) == ["test"])
            #expect(try await client.send(.delete, "/api/v1/me/keys/\(minted.key.id)", key: server.memberKey).status == .notFound)
        }
    }

    @Test func blankOrMultiLineKeyNamesAre400() async throws {
        let server = try await TestServer()
        try await server.application().test(.router) { client async throws in
            for body in [#"{"name":"   "}"#, #"{"name":"a\nb"}"#, #"{"name":"\#(String(repeating: "x", count: 65))"}"#, #"{}"#] {
                #expect(try await client.send(.post, "/api/v1/me/keys", key: server.memberKey, json: body).status == .badRequest, "\(body)")
            }
            #expect(try await server.store.apiKeys(userID: server.member.id).count == 1)
        }
    }
}
