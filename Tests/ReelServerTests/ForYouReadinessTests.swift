import Foundation
import ReelForYou
import ReelRank
import Testing

/// `ForYouReadiness`: the default feed's "enough signals?" remembered per node.
@Suite("For You readiness")
struct ForYouReadinessTests {
    /// A signal count the test sets, and how often it was read.
    final class Counts: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        private var reads = 0

        var readCount: Int { lock.withLock { reads } }

        func set(_ value: Int) { lock.withLock { count = value } }

        func read() -> Int {
            lock.withLock {
                reads += 1
                return count
            }
        }
    }

    static let threshold = UserProfile.signalsForForYou
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func readiness(_ counts: Counts, clock: MediaTestClock) -> ForYouReadiness {
        ForYouReadiness(now: { clock.now }) { _ in counts.read() }
    }

    @Test func anAnswerIsKeptSoTheNextRequestDoesNotCount() async throws {
        let counts = Counts()
        counts.set(Self.threshold - 1)
        let readiness = readiness(counts, clock: MediaTestClock(start))
        #expect(try await readiness.isReady(userID: 1) == false)
        #expect(try await readiness.isReady(userID: 1) == false)
        #expect(counts.readCount == 1)
        // Each person has their own answer.
        #expect(try await readiness.isReady(userID: 2) == false)
        #expect(counts.readCount == 2)
    }

    @Test func aSignalRecordedOnThisNodeFlipsTheAnswerAtOnce() async throws {
        let counts = Counts()
        counts.set(Self.threshold - 1)
        let readiness = readiness(counts, clock: MediaTestClock(start))
        #expect(try await readiness.isReady(userID: 1) == false)
        counts.set(Self.threshold)
        readiness.changed(userID: 1)
        #expect(try await readiness.isReady(userID: 1) == true)
        #expect(try await readiness.isReady(userID: 1) == true)
        #expect(counts.readCount == 2)
        // Clearing history here takes it away as quickly.
        counts.set(0)
        readiness.changed(userID: 1)
        #expect(try await readiness.isReady(userID: 1) == false)
    }

    @Test func notYetRunsOutWithinSecondsSoAnotherNodesSignalsShow() async throws {
        let counts = Counts()
        counts.set(Self.threshold - 1)
        let clock = MediaTestClock(start)
        let readiness = readiness(counts, clock: clock)
        #expect(try await readiness.isReady(userID: 1) == false)
        counts.set(Self.threshold)  // written through another node: this one is not told
        clock.advance(ForYouReadiness.notYetLifetime - 0.5)
        #expect(try await readiness.isReady(userID: 1) == false)
        clock.advance(1)
        #expect(try await readiness.isReady(userID: 1) == true)
        #expect(ForYouReadiness.notYetLifetime <= 5)
    }

    @Test func readyLastsLongerButNotForever() async throws {
        let counts = Counts()
        counts.set(Self.threshold)
        let clock = MediaTestClock(start)
        let readiness = readiness(counts, clock: clock)
        #expect(try await readiness.isReady(userID: 1) == true)
        counts.set(0)  // history cleared through another node, or the posts deleted
        clock.advance(ForYouReadiness.notYetLifetime * 10)
        #expect(try await readiness.isReady(userID: 1) == true)
        #expect(counts.readCount == 1)
        clock.advance(ForYouReadiness.readyLifetime)
        #expect(try await readiness.isReady(userID: 1) == false)
    }

    @Test func aCountReadWhileThisNodeWroteIsAnsweredButNotKept() async throws {
        let counts = Counts()
        counts.set(Self.threshold - 1)
        let (reading, startedReading) = AsyncStream.makeStream(of: Void.self)
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let held = HeldOnce()
        let readiness = ForYouReadiness(now: { Date() }) { _ in
            let count = counts.read()
            if held.first() {
                startedReading.yield()
                for await _ in release { break }
            }
            return count
        }
        let slow = Task { try await readiness.isReady(userID: 1) }
        for await _ in reading { break }
        // The twentieth signal commits and this node is told while the old count is in flight.
        counts.set(Self.threshold)
        readiness.changed(userID: 1)
        releaser.yield()
        #expect(try await slow.value == false)
        #expect(try await readiness.isReady(userID: 1) == true, "the stale count was kept")
        #expect(counts.readCount == 2)
    }

    /// True once.
    final class HeldOnce: @unchecked Sendable {
        private let lock = NSLock()
        private var done = false

        func first() -> Bool {
            lock.withLock {
                defer { done = true }
                return !done
            }
        }
    }
}
