import Foundation

/// Where a cached read was answered from.
public enum CacheSource: String, Sendable {
    case memory, disk, network
}

public struct CacheStatistics: Sendable, Equatable {
    public var memoryHits = 0
    public var diskHits = 0
    public var misses = 0

    public var requests: Int { memoryHits + diskHits + misses }
    /// Hits (either level) over all reads; 0 before the first read.
    public var hitRate: Double { requests == 0 ? 0 : Double(memoryHits + diskHits) / Double(requests) }
}

/// Memory in front of disk in front of the network. A disk hit is promoted to memory;
/// concurrent requests for one key share a single download.
public actor MediaCache {
    public nonisolated let memory: MemoryCache
    public nonisolated let disk: DiskCache?
    public private(set) var statistics = CacheStatistics()
    private var inFlight: [CacheKey: Task<Data, any Error>] = [:]

    public init(memory: MemoryCache = MemoryCache(), disk: DiskCache?) {
        self.memory = memory
        self.disk = disk
    }

    /// Cached bytes, or nil; counts towards the hit rate.
    public func cached(_ key: CacheKey) async -> (data: Data, source: CacheSource)? {
        if let data = await memory.data(for: key) {
            statistics.memoryHits += 1
            return (data, .memory)
        }
        if let data = await disk?.data(for: key) {
            statistics.diskHits += 1
            await memory.store(data, for: key)
            return (data, .disk)
        }
        statistics.misses += 1
        return nil
    }

    public func store(_ data: Data, for key: CacheKey) async {
        await memory.store(data, for: key)
        await disk?.store(data, for: key)
    }

    /// The bytes for `key`, from a cache level or else from `load` (stored on success).
    /// Two callers asking for the same key at once trigger one `load`.
    public func data(
        for key: CacheKey, load: @escaping @Sendable () async throws -> Data
    ) async throws -> (data: Data, source: CacheSource) {
        if let hit = await cached(key) { return hit }
        if let running = inFlight[key] { return (try await running.value, .network) }
        let task = Task { try await load() }
        inFlight[key] = task
        defer { inFlight[key] = nil }
        let data = try await task.value
        await store(data, for: key)
        return (data, .network)
    }

    /// Warms the cache without counting a read (prefetch): nothing happens if either level
    /// already holds the key.
    public func prefetch(_ key: CacheKey, load: @escaping @Sendable () async throws -> Data) async throws {
        if await memory.contains(key) { return }
        if let data = await disk?.data(for: key) {
            await memory.store(data, for: key)
            return
        }
        if let running = inFlight[key] {
            _ = try await running.value
            return
        }
        let task = Task { try await load() }
        inFlight[key] = task
        defer { inFlight[key] = nil }
        await store(try await task.value, for: key)
    }

    public func handleMemoryPressure(_ pressure: MemoryPressure) async {
        await memory.trim(pressure)
    }

    public func resetStatistics() {
        statistics = CacheStatistics()
    }
}
