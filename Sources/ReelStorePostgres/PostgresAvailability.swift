import Foundation
import PostgresNIO
import ReelStore

/// Whether the database answers, as this node last saw it: the store's own circuit breaker.
///
/// postgres-nio's pool is built for a database that stays up. While the server is down, a
/// request waits in the pool's queue for as long as the pool keeps retrying (tens of seconds),
/// and the retries back off exponentially, so after the server returns the pool may sleep a
/// long while before trying again (18 s measured). Neither is what a balancer needs: a quick
/// 503 while the database is away and service again as soon as it is back.
///
/// So once a query fails for want of a server, the store is *down*: requests are refused at
/// once with `StoreError.unavailable` without reaching the pool, and at most one request every
/// `probeInterval` opens a connection of its own outside the pool. When that succeeds the store
/// puts a fresh pool in place of the one that saw the outage (`PostgresPool.renew`) and is up
/// again.
final class PostgresAvailability: @unchecked Sendable {
    /// How often, while down, one request may check whether the server is back.
    static let probeInterval: Duration = .milliseconds(250)

    private let lock = NSLock()
    private var downReason: String?
    private var lastProbe: ContinuousClock.Instant?
    private var lastAnswer: ContinuousClock.Instant?

    var isDown: Bool { lock.withLock { downReason != nil } }

    /// Lets the request through when the store is up, or when it is down and this request is the
    /// one that checks (`probe`); otherwise throws `StoreError.unavailable` at once.
    func admit(probe: () async throws -> Void) async throws {
        switch turn(now: .now) {
        case .go:
            return
        case .refuse(let reason):
            throw StoreError.unavailable(reason)
        case .probe(let reason):
            do {
                try await probe()
            } catch {
                throw StoreError.unavailable(reason)
            }
            markUp()
        }
    }

    /// Records a query's failure: only the absence of a server marks the store down.
    func record(_ error: any Error) {
        guard case StoreError.unavailable(let reason) = error else { return }
        lock.withLock {
            if downReason == nil { downReason = reason }
        }
    }

    /// Whether the server accepts connections, asked while a query waits long for a pooled one.
    /// Many queries wait at once under load: one answer serves them all for `probeInterval`.
    /// A server that refuses marks the store down. A probe that only ran out of time is no
    /// such proof: on a machine busy enough for a query to wait this long, connecting is slow
    /// too (the full test suite on 2 cores saw it), so the query keeps waiting, within the
    /// lease's own limit.
    func serverAnswers(probe: () async throws -> Void) async -> Bool {
        let now = ContinuousClock.now
        let recent = lock.withLock { lastAnswer.map { $0.duration(to: now) < Self.probeInterval } ?? false }
        if recent { return true }
        do {
            try await probe()
            lock.withLock { lastAnswer = .now }
            return true
        } catch is Deadline.TimedOut {
            // Shared like an answer, so the other waiting queries do not each add a probe of
            // their own to a machine that is already too busy.
            lock.withLock { lastAnswer = .now }
            return true
        } catch {
            record(StoreError.unavailable("\(error)"))
            return false
        }
    }

    func markUp() {
        lock.withLock {
            downReason = nil
            lastProbe = nil
        }
    }

    enum Turn: Equatable {
        case go
        case probe(String)
        case refuse(String)
    }

    func turn(now: ContinuousClock.Instant) -> Turn {
        lock.withLock {
            guard let reason = downReason else { return .go }
            if let lastProbe, lastProbe.duration(to: now) < Self.probeInterval { return .refuse(reason) }
            lastProbe = now
            return .probe(reason)
        }
    }
}
