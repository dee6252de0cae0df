import Foundation
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing

/// One suite for both stores (SQLite and PostgreSQL): they must give the same answers.
@Suite("AccountStore on SQLite and PostgreSQL")
struct AccountStoreTests {
    @Test("user names are unique ignoring case, also beyond ASCII", arguments: StoreBackend.allCases)
    func duplicateNames(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let ana = try await store.createUser(name: "Ana", role: .owner, passwordHash: "h1", now: t0)
            #expect(ana.name == "Ana" && ana.role == .owner && ana.createdAt == t0)
            await #expect(throws: StoreError.conflict("the user name ana is taken")) {
                _ = try await store.createUser(name: "ana", role: .member, passwordHash: "h2", now: t0)
            }
            _ = try await store.createUser(name: "Émile", role: .member, passwordHash: "h3", now: t0)
            await #expect(throws: StoreError.self) {
                _ = try await store.createUser(name: "émile", role: .member, passwordHash: "h4", now: t0)
            }
            await #expect(throws: StoreError.invalid("a user name cannot be blank")) {
                _ = try await store.createUser(name: "  ", role: .member, passwordHash: "h", now: t0)
            }
            for reserved in ["Archive", "seen", "ITEMS"] {
                await #expect(throws: StoreError.invalid("the user name \(reserved) is reserved (a stories route uses it)")) {
                    _ = try await store.createUser(name: reserved, role: .member, passwordHash: "h", now: t0)
                }
            }
            #expect(try await store.user(name: "ANA") == ana)
            #expect(try await store.user(id: ana.id) == ana)
            #expect(try await store.user(name: "nobody") == nil)
            #expect(try await store.users().map(\.name) == ["Ana", "Émile"])
            #expect(try await store.countUsers() == 2)
            #expect(try await store.passwordHash(userID: ana.id) == "h1")
            #expect(try await store.passwordHash(userID: 999) == nil)
        }
    }

    @Test("an API key authenticates until revoked; lastUsedAt moves at most once a minute", arguments: StoreBackend.allCases)
    func apiKeys(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let ana = try await store.createUser(name: "ana", role: .owner, passwordHash: "h", now: t0)
            let bo = try await store.createUser(name: "bo", role: .member, passwordHash: "h", now: t0)
            let key = try await store.createAPIKey(userID: ana.id, name: "phone", keyHash: "hash-a", prefix: "rh_abcde", now: t0)
            #expect(key.userID == ana.id && key.name == "phone" && key.prefix == "rh_abcde" && key.lastUsedAt == nil && key.revokedAt == nil)
            _ = try await store.createAPIKey(userID: bo.id, name: "tv", keyHash: "hash-b", prefix: "rh_zzzzz", now: t0)
            await #expect(throws: StoreError.notFound("user 999")) {
                _ = try await store.createAPIKey(userID: 999, name: "x", keyHash: "hash-c", prefix: "p", now: t0)
            }

            let first = try #require(try await store.authenticate(apiKeyHash: "hash-a", now: t0.addingTimeInterval(10)))
            #expect(first.0 == ana && first.1.lastUsedAt == t0.addingTimeInterval(10))
            let soon = try #require(try await store.authenticate(apiKeyHash: "hash-a", now: t0.addingTimeInterval(30)))
            #expect(soon.1.lastUsedAt == t0.addingTimeInterval(10), "refreshed within the minute")
            let later = try #require(try await store.authenticate(apiKeyHash: "hash-a", now: t0.addingTimeInterval(75)))
            #expect(later.1.lastUsedAt == t0.addingTimeInterval(75))
            #expect(try await store.authenticate(apiKeyHash: "unknown", now: t0) == nil)

            #expect(try await store.apiKeys(userID: ana.id).map(\.name) == ["phone"])
            #expect(try await store.apiKeys(userID: nil).map(\.name) == ["phone", "tv"])
            try await store.revokeAPIKey(id: key.id, now: t0.addingTimeInterval(100))
            try await store.revokeAPIKey(id: key.id, now: t0.addingTimeInterval(200))
            #expect(try await store.apiKeys(userID: ana.id).first?.revokedAt == t0.addingTimeInterval(100))
            #expect(try await store.authenticate(apiKeyHash: "hash-a", now: t0.addingTimeInterval(300)) == nil)
            #expect(try await store.authenticate(apiKeyHash: "hash-b", now: t0.addingTimeInterval(300))?.0 == bo)
            await #expect(throws: StoreError.notFound("API key 999")) {
                try await store.revokeAPIKey(id: 999, now: t0)
            }
        }
    }

    @Test("sessions expire, can be deleted, and a password change ends them all", arguments: StoreBackend.allCases)
    func sessions(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let ana = try await store.createUser(name: "ana", role: .owner, passwordHash: "old", now: t0)
            let bo = try await store.createUser(name: "bo", role: .member, passwordHash: "h", now: t0)
            let hour = t0.addingTimeInterval(3600)
            try await store.createSession(userID: ana.id, tokenHash: "s1", expiresAt: hour, now: t0)
            try await store.createSession(userID: ana.id, tokenHash: "s2", expiresAt: t0.addingTimeInterval(60), now: t0)
            try await store.createSession(userID: bo.id, tokenHash: "s3", expiresAt: hour, now: t0)
            await #expect(throws: StoreError.notFound("user 999")) {
                try await store.createSession(userID: 999, tokenHash: "s4", expiresAt: hour, now: t0)
            }
            #expect(try await store.authenticate(sessionTokenHash: "s1", now: t0) == ana)
            #expect(try await store.authenticate(sessionTokenHash: "s2", now: t0.addingTimeInterval(60)) == nil, "expired")
            #expect(try await store.authenticate(sessionTokenHash: "nope", now: t0) == nil)
            #expect(try await store.deleteExpiredSessions(now: t0.addingTimeInterval(120)) == 1)

            try await store.setPasswordHash(userID: ana.id, passwordHash: "new")
            #expect(try await store.passwordHash(userID: ana.id) == "new")
            #expect(try await store.authenticate(sessionTokenHash: "s1", now: t0) == nil)
            #expect(try await store.authenticate(sessionTokenHash: "s3", now: t0) == bo, "other users keep their sessions")
            try await store.deleteSession(tokenHash: "s3")
            try await store.deleteSession(tokenHash: "s3")
            #expect(try await store.authenticate(sessionTokenHash: "s3", now: t0) == nil)
            await #expect(throws: StoreError.notFound("user 999")) {
                try await store.setPasswordHash(userID: 999, passwordHash: "x")
            }
        }
    }
}
