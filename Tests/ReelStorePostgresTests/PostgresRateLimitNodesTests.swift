import Foundation
import ReelStore
import ReelStorePostgres
import ReelTestSupport
import Testing

/// On a window boundary (a multiple of the 100 s window), as the contract suite's instants.
private let boundary = Date(timeIntervalSince1970: 1_700_000_000)

@Suite("Rate limits shared by two nodes on one PostgreSQL database")
struct PostgresRateLimitNodesTests {
    @Test("PostgreSQL: two nodes' stores on one database count together, and ended windows are swept")
    func sharedAndSwept() async throws {
        try await withPostgresStore { (first) async throws in
            try await PostgresStore.withStore(url: first.url, poolSize: 2, migrating: false, logger: testLogger) { (second) async throws in
                #expect(try await first.hit(key: "login:ana", limit: 2, window: 100, now: boundary) == .allowed)
                #expect(try await second.hit(key: "login:ana", limit: 2, window: 100, now: boundary + 1) == .allowed)
                #expect(try await first.hit(key: "login:ana", limit: 2, window: 100, now: boundary + 2) == .refused(retryAfter: 98))
                _ = try await second.hit(key: "login:bo", limit: 2, window: 1000, now: boundary)
            }
            #expect(try await first.sweepRateLimits(now: boundary + 50) == 0)
            #expect(try await first.sweepRateLimits(now: boundary + 100) == 1)
            // Bo's longer window is still running, and still counts.
            #expect(try await first.hit(key: "login:bo", limit: 2, window: 1000, now: boundary + 100) == .allowed)
            #expect(try await first.hit(key: "login:bo", limit: 2, window: 1000, now: boundary + 101).retryAfter == 899)
        }
    }
}
