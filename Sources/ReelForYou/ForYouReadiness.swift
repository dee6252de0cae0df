import Foundation
import ReelCache
import ReelRank
import ReelStore

/// Whether a person has sent enough signals (`UserProfile.signalsForForYou`) for For You to be
/// their default feed, remembered per node above the store, so both backends share it. Every
/// feed request without a mode asked this; on PostgreSQL that was a round trip of its own on
/// each of them.
///
/// - **This node's writes** (`changed`) forget the person's answer at once: the request after
///   the one that sent the twentieth signal gets For You.
/// - **Other nodes' writes** are seen when the answer runs out. "Not yet" lasts a few seconds
///   (`notYetLifetime`): that is how long a signal sent through another node takes to switch the
///   default here. "Ready" lasts longer (`readyLifetime`): the count only falls when history is
///   cleared or forgotten on another node, events expire or posts are deleted, and For You on a
///   thin profile is still a good feed. Time-bounded rather than told by the database
///   (LISTEN/NOTIFY): the same for both backends, no connection per node kept listening, no
///   NOTIFY on the event write path, and nothing lost while such a connection reconnects.
public final class ForYouReadiness: Sendable {
    public static let readyLifetime: TimeInterval = 300
    public static let notYetLifetime: TimeInterval = 3

    private let countSignals: @Sendable (_ userID: Int64) async throws -> Int
    private let now: @Sendable () -> Date
    private let ready: BoundedCache<Int64, Bool, NoRevision>
    private let notYet: BoundedCache<Int64, Bool, NoRevision>
    /// Bumped by every `changed`: an answer read while it moved may predate that write, so it
    /// is answered but not kept. One counter for every person rather than one each: nothing to
    /// bound, and a fill lost to someone else's write only means the next request asks again.
    private let generation = Generation()

    /// `source`'s `signalCount`, stopping at the threshold.
    public convenience init(
        source: any ForYouSource, capacity: Int = 50_000, readyLifetime: TimeInterval = readyLifetime,
        notYetLifetime: TimeInterval = notYetLifetime, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.init(capacity: capacity, readyLifetime: readyLifetime, notYetLifetime: notYetLifetime, now: now) { userID in
            try await source.signalCount(userID: userID, atMost: UserProfile.signalsForForYou)
        }
    }

    /// `countSignals`: the person's signals, counted at least up to `UserProfile.signalsForForYou`.
    public init(
        capacity: Int = 50_000, readyLifetime: TimeInterval = readyLifetime, notYetLifetime: TimeInterval = notYetLifetime,
        now: @escaping @Sendable () -> Date = Date.init, countSignals: @escaping @Sendable (_ userID: Int64) async throws -> Int
    ) {
        self.countSignals = countSignals
        self.now = now
        ready = BoundedCache(capacity: capacity, lifetime: readyLifetime)
        notYet = BoundedCache(capacity: capacity, lifetime: notYetLifetime)
    }

    /// True when For You is the person's default feed.
    public func isReady(userID: Int64) async throws -> Bool {
        let now = now()
        if ready.value(for: userID, now: now) != nil { return true }
        if notYet.value(for: userID, now: now) != nil { return false }
        let ticket = generation.current
        let isReady = try await countSignals(userID) >= UserProfile.signalsForForYou
        generation.ifUnchanged(since: ticket) {
            (isReady ? ready : notYet).insert(true, for: userID, now: now)
        }
        return isReady
    }

    /// This node changed the person's events (recorded a batch with signals in it, cleared or
    /// forgot history): their next `isReady` counts afresh.
    public func changed(userID: Int64) {
        generation.advance {
            ready.remove(userID)
            notYet.remove(userID)
        }
    }
}

/// A counter whose moves and the stores that check it take one lock, so no answer is kept
/// after a write that came while it was read.
private final class Generation: @unchecked Sendable {
    private let lock = NSLock()
    private var value: UInt64 = 0

    var current: UInt64 { lock.withLock { value } }

    func advance(_ body: () -> Void) {
        lock.withLock {
            value &+= 1
            body()
        }
    }

    func ifUnchanged(since ticket: UInt64, _ body: () -> Void) {
        lock.withLock { if value == ticket { body() } }
    }
}
