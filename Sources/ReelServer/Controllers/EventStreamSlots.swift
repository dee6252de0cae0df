import Foundation

/// Open server-sent event streams per user: at most `perUser` at once, each for at most
/// `lifetime` (an `EventSource` reconnects by itself after its `retry:`), so one person's
/// tabs cannot hold a node's connections forever.
///
/// A slot is taken before the response starts and given back when its body ends. A response
/// whose body never ran (the client left first) would keep its slot, so slots also lapse after
/// `lifetime` plus a grace period: the count can never stay wrong for long.
actor EventStreamSlots {
    struct Slot: Sendable, Hashable {
        let userID: Int64
        let id: UUID
    }

    let perUser: Int
    let lifetime: Duration
    /// How long past its lifetime an unreturned slot still counts.
    let grace: Duration
    private var open: [Int64: [UUID: ContinuousClock.Instant]] = [:]
    private let clock = ContinuousClock()

    init(perUser: Int = 4, lifetime: Duration = .seconds(600), grace: Duration = .seconds(30)) {
        self.perUser = perUser
        self.lifetime = lifetime
        self.grace = grace
    }

    /// A slot, or nil when the user already has `perUser` streams open.
    func take(userID: Int64) -> Slot? {
        let now = clock.now
        var mine = open[userID, default: [:]].filter { now - $0.value < lifetime + grace }
        guard mine.count < perUser else {
            open[userID] = mine
            return nil
        }
        let slot = Slot(userID: userID, id: UUID())
        mine[slot.id] = now
        open[userID] = mine
        return slot
    }

    func give(_ slot: Slot) {
        open[slot.userID]?[slot.id] = nil
        if open[slot.userID]?.isEmpty == true { open[slot.userID] = nil }
    }

    func count(userID: Int64) -> Int { open[userID]?.count ?? 0 }
}
