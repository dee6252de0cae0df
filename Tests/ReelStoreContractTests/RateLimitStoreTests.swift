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

@Suite("The API limit, counted per node and shared once a second")
struct BatchedRateLimitTests {
    /// The backend's store, counting how often a node reported to it.
    final class Counting: RateLimitStore, @unchecked Sendable {
        let inner: any RateLimitStore
        private let lock = NSLock()
        private var reports = 0
        var added: Int { lock.withLock { reports } }

        init(_ inner: any RateLimitStore) { self.inner = inner }

        func hit(key: String, limit: Int, window: TimeInterval, now: Date) async throws -> RateLimitDecision {
            try await inner.hit(key: key, limit: limit, window: window, now: now)
        }
        func take(key: String, count: Int, limit: Int, window: TimeInterval, now: Date) async throws -> RateLimitDecision {
            try await inner.take(key: key, count: count, limit: limit, window: window, now: now)
        }
        func reset(key: String) async throws { try await inner.reset(key: key) }
        func add(key: String, count: Int, window: TimeInterval, now: Date) async throws -> RateLimitCount {
            lock.withLock { reports += 1 }
            return try await inner.add(key: key, count: count, window: window, now: now)
        }
    }

    @Test("add counts whatever the window holds and says what it holds", arguments: StoreBackend.allCases)
    func adding(backend: StoreBackend) async throws {
        try await withRateLimits(backend) { (limits) async throws in
            #expect(try await limits.add(key: "api:1", count: 5, window: 100, now: boundary) == RateLimitCount(held: 5, secondsLeft: 100))
            #expect(try await limits.add(key: "api:1", count: 3, window: 100, now: boundary + 40) == RateLimitCount(held: 8, secondsLeft: 60))
            #expect(try await limits.hit(key: "api:1", limit: 8, window: 100, now: boundary + 41) == .refused(retryAfter: 59))
            #expect(try await limits.add(key: "api:1", count: 2, window: 100, now: boundary + 100) == RateLimitCount(held: 2, secondsLeft: 100))
        }
    }

    @Test("one node alone is exact, and reports to the shared store once a second", arguments: StoreBackend.allCases)
    func oneNodeIsExact(backend: StoreBackend) async throws {
        try await withRateLimits(backend) { (limits) async throws in
            let shared = Counting(limits)
            let node = BatchedRateLimitStore(shared: shared)
            for call in 0..<10 {
                #expect(try await node.hit(key: "key:7", limit: 10, window: 100, now: boundary + Double(call) * 0.05) == .allowed)
            }
            #expect(try await node.hit(key: "key:7", limit: 10, window: 100, now: boundary + 0.6) == .refused(retryAfter: 100))
            #expect(shared.added == 1, "eleven calls in 0.6 s, one report")
            #expect(try await node.hit(key: "key:7", limit: 10, window: 100, now: boundary + 1.5) == .refused(retryAfter: 99))
            #expect(shared.added == 2)
            // The shared store holds every call: the ten allowed and the two refused.
            #expect(try await limits.add(key: "key:7", count: 0, window: 100, now: boundary + 2).held == 12)
            #expect(try await node.hit(key: "key:7", limit: 10, window: 100, now: boundary + 100) == .allowed, "a new window")
        }
    }

    @Test("two nodes hear of each other's calls within a second", arguments: StoreBackend.allCases)
    func twoNodesShare(backend: StoreBackend) async throws {
        try await withRateLimits(backend) { (limits) async throws in
            let (a, b) = (BatchedRateLimitStore(shared: limits), BatchedRateLimitStore(shared: limits))
            for call in 0..<6 {
                let at = boundary + Double(call) * 0.1
                #expect(try await a.hit(key: "key:9", limit: 10, window: 100, now: at) == .allowed)
                #expect(try await b.hit(key: "key:9", limit: 10, window: 100, now: at) == .allowed, "B has not heard of A's calls yet")
            }
            // A reports its five pending calls and reads B's first one: 6 + 1 + its own new one.
            #expect(try await a.hit(key: "key:9", limit: 10, window: 100, now: boundary + 1.2) == .allowed)
            // B reports its six and reads A's seven: 7 + 7 = 14, past the limit.
            #expect(try await b.hit(key: "key:9", limit: 10, window: 100, now: boundary + 1.3) == .refused(retryAfter: 99))
        }
    }
}
