import Foundation
@testable import ReelStorePostgres
import ReelStore
import Testing

/// The store's circuit breaker, without a server: which requests go ahead, which probe, which
/// are refused at once. (`test_postgres_outage.py` stops a real server under a real node.)
@Suite("PostgreSQL availability: refuse at once while down, one probe per interval")
struct PostgresAvailabilityTests {
    @Test("up: every request goes ahead; a conflict or a fault does not mark the store down")
    func upStaysUp() {
        let availability = PostgresAvailability()
        let now = ContinuousClock.now
        availability.record(StoreError.conflict("duplicate"))
        availability.record(StoreError.failed("syntax"))
        #expect(availability.turn(now: now) == .go)
        #expect(!availability.isDown)
    }

    @Test("down: one request probes, the rest are refused until the interval has passed")
    func downProbesOncePerInterval() {
        let availability = PostgresAvailability()
        let now = ContinuousClock.now
        availability.record(StoreError.unavailable("connection refused"))
        availability.record(StoreError.unavailable("a later reason"))
        #expect(availability.turn(now: now) == .probe("connection refused"))
        #expect(availability.turn(now: now + .milliseconds(10)) == .refuse("connection refused"))
        let later = now + PostgresAvailability.probeInterval
        #expect(availability.turn(now: later) == .probe("connection refused"))
        availability.markUp()
        #expect(availability.turn(now: later) == .go)
    }

    @Test("admit: a failed probe is `unavailable` with the outage's reason; a good one lets the request through")
    func admitProbes() async throws {
        struct Refused: Error {}
        let availability = PostgresAvailability()
        availability.record(StoreError.unavailable("connection refused"))
        await #expect(throws: StoreError.unavailable("connection refused")) {
            try await availability.admit { throw Refused() }
        }
        // Too soon for another probe: refused without asking.
        await #expect(throws: StoreError.unavailable("connection refused")) {
            try await availability.admit { Issue.record("probed twice within the interval") }
        }
        try await Task.sleep(for: PostgresAvailability.probeInterval)
        try await availability.admit {}
        #expect(!availability.isDown)
    }
}
