import Foundation

/// A limit counted on every API call, shared by the nodes without a database write per call.
///
/// With the limits in PostgreSQL every call of one API key was an upsert of one row: the calls
/// of a busy client queued on that row's lock, and the feed served a fraction of SQLite's rate.
/// Here each node counts a key's hits itself and adds them to the shared store at most once per
/// `interval` (the call that finds the interval over does it, so an idle key costs nothing);
/// a decision is the shared count as last read plus this node's hits since. One node alone is
/// exact; several may together let through what the others counted within their last
/// interval before each hears of it (at `interval` = 1 s, a second's worth of calls).
public actor BatchedRateLimitStore {
    private struct Entry {
        /// The window's count in the shared store when last read (this node's added hits included).
        var known = 0
        /// This node's hits not yet added to the shared store.
        var pending = 0
        var windowEnds: Date
        var lastSync = Date.distantPast
        var syncing = false
    }

    private let shared: any RateLimitStore
    private let interval: TimeInterval
    private var entries: [String: Entry] = [:]
    private var lastPrune = Date.distantPast

    public init(shared: any RateLimitStore, interval: TimeInterval = 1) {
        self.shared = shared
        self.interval = interval
    }

    /// Counts one call (refused ones too, as `RateLimitStore.hit` does).
    public func hit(key: String, limit: Int, window: TimeInterval, now: Date) async throws -> RateLimitDecision {
        prune(now: now)
        var entry = entries[key] ?? Entry(windowEnds: now.addingTimeInterval(window))
        if now >= entry.windowEnds {
            // What was still pending belonged to the window that ended.
            entry = Entry(windowEnds: now.addingTimeInterval(window), lastSync: entry.lastSync)
        }
        entry.pending += 1
        let sending = !entry.syncing && now.timeIntervalSince(entry.lastSync) >= interval ? entry.pending : 0
        if sending > 0 {
            entry.syncing = true
            entry.pending = 0
        }
        entries[key] = entry
        if sending > 0 { try await sync(key: key, sending: sending, window: window, now: now) }
        guard let current = entries[key], current.known + current.pending > limit else { return .allowed }
        return .refused(retryAfter: max(1, Int(current.windowEnds.timeIntervalSince(now).rounded(.up))))
    }

    /// Adds `sending` hits to the shared store and takes its count. Calls arriving meanwhile
    /// (the actor is re-entered during the await) add to `pending` and decide on the last count.
    private func sync(key: String, sending: Int, window: TimeInterval, now: Date) async throws {
        do {
            let counted = try await shared.add(key: key, count: sending, window: window, now: now)
            var entry = entries[key] ?? Entry(windowEnds: now)
            entry.known = counted.held
            entry.windowEnds = now.addingTimeInterval(TimeInterval(counted.secondsLeft))
            entry.lastSync = now
            entry.syncing = false
            entries[key] = entry
        } catch {
            // Kept for the next sync; the caller answers as the shared store's failure says.
            entries[key]?.pending += sending
            entries[key]?.lastSync = now
            entries[key]?.syncing = false
            throw error
        }
    }

    private func prune(now: Date) {
        guard now.timeIntervalSince(lastPrune) > 60 else { return }
        lastPrune = now
        entries = entries.filter { $0.value.syncing || $0.value.windowEnds > now }
    }
}
