import Foundation
import ReelModels
import ReelStore
@testable import ReelStoreSQLite
import ReelTestSupport
import Testing

/// Recent searches on a real SQLite file and on PostgreSQL: newest first, one per query, at
/// most twenty, per user.
@Suite("Recent searches on SQLite and PostgreSQL")
struct RecentSearchStoreTests {
    func withUsers(_ backend: StoreBackend, _ body: (any PortableStore, Int64, Int64) async throws -> Void) async throws {
        try await withStore(backend) { (store) async throws in
            let ana = try await store.createUser(name: "ana", role: .member, passwordHash: "h", now: t0)
            let ben = try await store.createUser(name: "ben", role: .member, passwordHash: "h", now: t0)
            try await body(store, ana.id, ben.id)
        }
    }

    @Test("newest first; a repeat (ignoring case and spaces) moves to the top with its new spelling", arguments: StoreBackend.allCases)
    func repeatsMoveUp(backend: StoreBackend) async throws {
        try await withUsers(backend) { store, ana, ben in
            try await store.recordSearch(userID: ana, query: "leon", now: t0)
            try await store.recordSearch(userID: ana, query: "cats", now: t0.addingTimeInterval(1))
            try await store.recordSearch(userID: ana, query: "  Leon ", now: t0.addingTimeInterval(2))
            let searches = try await store.recentSearches(userID: ana)
            #expect(searches.map(\.query) == ["Leon", "cats"])
            #expect(searches.first?.searchedAt == t0.addingTimeInterval(2))
            #expect(try await store.recentSearches(userID: ben).isEmpty, "each user has their own")
        }
    }

    @Test("searches made in the same instant keep the order they were made in", arguments: StoreBackend.allCases)
    func sameInstant(backend: StoreBackend) async throws {
        try await withUsers(backend) { store, ana, _ in
            for query in ["a", "b", "c", "a"] { try await store.recordSearch(userID: ana, query: query, now: t0) }
            #expect(try await store.recentSearches(userID: ana).map(\.query) == ["a", "c", "b"])
        }
    }

    @Test("at most twenty are kept, the oldest go", arguments: StoreBackend.allCases)
    func bounded(backend: StoreBackend) async throws {
        try await withUsers(backend) { store, ana, _ in
            for index in 0..<25 { try await store.recordSearch(userID: ana, query: "q\(index)", now: t0.addingTimeInterval(Double(index))) }
            let searches = try await store.recentSearches(userID: ana)
            #expect(searches.count == RecentSearchLimits.maxRecentSearches)
            #expect(searches.map(\.query) == (5..<25).reversed().map { "q\($0)" })
            #expect(try await rawStrings(store, "SELECT count(*) FROM recent_searches") == ["20"], "the dropped ones are deleted, not hidden")
        }
    }

    @Test("blank or overlong queries are refused; clearing forgets one user's searches only", arguments: StoreBackend.allCases)
    func refuseAndClear(backend: StoreBackend) async throws {
        try await withUsers(backend) { store, ana, ben in
            await #expect(throws: StoreError.self) { try await store.recordSearch(userID: ana, query: "   ", now: t0) }
            await #expect(throws: StoreError.self) {
                try await store.recordSearch(userID: ana, query: String(repeating: "x", count: RecentSearchLimits.maxRecentSearchLength + 1), now: t0)
            }
            try await store.recordSearch(userID: ana, query: "crème brûlée", now: t0)
            try await store.recordSearch(userID: ben, query: "robot", now: t0)
            try await store.clearRecentSearches(userID: ana)
            #expect(try await store.recentSearches(userID: ana).isEmpty)
            #expect(try await store.recentSearches(userID: ben).map(\.query) == ["robot"])
        }
    }
}
