import Foundation
import ReelStore
import ReelStorePostgres
import ReelTestSupport
import Testing

/// The rate-limit store of each backend: the embedded one in memory, PostgreSQL's in the
/// shared database. Instants sit on a window boundary (a multiple of the 100 s window), where
/// memory's windows (from the first hit) and PostgreSQL's (aligned to the clock) coincide.
func withRateLimits(_ backend: StoreBackend, _ body: (any RateLimitStore) async throws -> Void) async throws {
    switch backend {
    case .sqlite: try await body(MemoryRateLimitStore())
    case .postgres: try await withPostgresStore { store in try await body(store) }
    }
}

private let boundary = Date(timeIntervalSince1970: 1_700_000_000)

@Suite("Rate limits in memory and in PostgreSQL")
struct RateLimitStoreTests {
    @Test("hits past the limit are refused until the window ends, per key", arguments: StoreBackend.allCases)
    func hits(backend: StoreBackend) async throws {
        try await withRateLimits(backend) { (limits) async throws in
            for second in 0..<3 {
                #expect(try await limits.hit(key: "login:ana", limit: 3, window: 100, now: boundary + Double(second)) == .allowed)
            }
            #expect(try await limits.hit(key: "login:ana", limit: 3, window: 100, now: boundary + 10) == .refused(retryAfter: 90))
            // Refused hits count too: still refused later in the window.
            #expect(try await limits.hit(key: "login:ana", limit: 3, window: 100, now: boundary + 99.5) == .refused(retryAfter: 1))
            #expect(try await limits.hit(key: "login:bo", limit: 3, window: 100, now: boundary + 10) == .allowed)
            // A new window starts afresh.
            #expect(try await limits.hit(key: "login:ana", limit: 3, window: 100, now: boundary + 100) == .allowed)
        }
    }

    @Test("a batch is counted whole or not at all", arguments: StoreBackend.allCases)
    func batches(backend: StoreBackend) async throws {
        try await withRateLimits(backend) { (limits) async throws in
            #expect(try await limits.take(key: "events:1", count: 6, limit: 10, window: 100, now: boundary) == .allowed)
            #expect(try await limits.take(key: "events:1", count: 5, limit: 10, window: 100, now: boundary + 1) == .refused(retryAfter: 99))
            // The refused batch used none of the allowance.
            #expect(try await limits.take(key: "events:1", count: 4, limit: 10, window: 100, now: boundary + 2) == .allowed)
            #expect(try await limits.take(key: "events:1", count: 1, limit: 10, window: 100, now: boundary + 3) == .refused(retryAfter: 97))
            #expect(try await limits.take(key: "events:1", count: 10, limit: 10, window: 100, now: boundary + 100) == .allowed)
            #expect(try await limits.take(key: "events:2", count: 11, limit: 10, window: 100, now: boundary) == .refused(retryAfter: 100))
            #expect(try await limits.take(key: "events:2", count: 10, limit: 10, window: 100, now: boundary + 1) == .allowed)
        }
    }

    @Test("a reset forgets the key's count", arguments: StoreBackend.allCases)
    func reset(backend: StoreBackend) async throws {
        try await withRateLimits(backend) { (limits) async throws in
            for _ in 0..<3 { _ = try await limits.hit(key: "login:ana", limit: 2, window: 100, now: boundary) }
            #expect(try await limits.hit(key: "login:ana", limit: 2, window: 100, now: boundary + 1).retryAfter != nil)
            try await limits.reset(key: "login:ana")
            #expect(try await limits.hit(key: "login:ana", limit: 2, window: 100, now: boundary + 2) == .allowed)
        }
    }
}
