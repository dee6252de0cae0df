import Foundation

/// How urgently the system wants memory back (UIKit's memory warning maps to `.critical`).
public enum MemoryPressure: Sendable {
    /// Keep the most recent half (by cost).
    case warning
    /// Keep nothing.
    case critical
}

/// Least-recently-used bytes in memory, bounded by item count and total cost (seed 001's
/// NSCache limits: 50 items, 100 MB). An actor, so players and prefetchers share it safely.
public actor MemoryCache {
    public nonisolated let countLimit: Int
    public nonisolated let costLimit: Int
    private var entries: [CacheKey: (data: Data, lastUse: UInt64)] = [:]
    private var tick: UInt64 = 0
    public private(set) var totalCost = 0

    public init(countLimit: Int = 50, costLimit: Int = 100 * 1024 * 1024) {
        self.countLimit = max(1, countLimit)
        self.costLimit = max(1, costLimit)
    }

    public var count: Int { entries.count }

    public func data(for key: CacheKey) -> Data? {
        guard let entry = entries[key] else { return nil }
        tick += 1
        entries[key] = (entry.data, tick)
        return entry.data
    }

    /// Stores `data` unless it alone exceeds the cost limit (it would evict everything and
    /// still not fit), then evicts the least recently used until both limits hold.
    public func store(_ data: Data, for key: CacheKey) {
        remove(key)
        guard data.count <= costLimit else { return }
        tick += 1
        entries[key] = (data, tick)
        totalCost += data.count
        while entries.count > countLimit || totalCost > costLimit { evictOldest() }
    }

    public func remove(_ key: CacheKey) {
        if let old = entries.removeValue(forKey: key) { totalCost -= old.data.count }
    }

    public func contains(_ key: CacheKey) -> Bool { entries[key] != nil }

    public func trim(_ pressure: MemoryPressure) {
        switch pressure {
        case .critical:
            entries.removeAll()
            totalCost = 0
        case .warning:
            let target = totalCost / 2
            while totalCost > target, !entries.isEmpty { evictOldest() }
        }
    }

    private func evictOldest() {
        // A linear scan: with ≤ 50 entries it is cheaper than maintaining a linked list.
        guard let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key else { return }
        remove(oldest)
    }
}
