import Foundation
import ReelKit
import Testing

@Suite struct MediaCacheTests {
    func bytes(_ count: Int, _ seed: UInt8 = 1) -> Data { Data((0..<count).map { UInt8(truncatingIfNeeded: Int(seed) &+ $0) }) }

    @Test func memoryEvictsTheLeastRecentlyUsedByCount() async {
        let memory = MemoryCache(countLimit: 3, costLimit: 1_000)
        for name in ["a", "b", "c"] { await memory.store(bytes(10), for: CacheKey(name)) }
        _ = await memory.data(for: CacheKey("a"))  // a is now the most recent
        await memory.store(bytes(10), for: CacheKey("d"))
        #expect(await memory.contains(CacheKey("a")))
        #expect(await !memory.contains(CacheKey("b")), "b was the least recently used")
        #expect(await memory.count == 3)
    }

    @Test func memoryHoldsItsCostLimitAndRefusesWhatCannotFit() async {
        let memory = MemoryCache(countLimit: 50, costLimit: 100)
        await memory.store(bytes(60), for: CacheKey("a"))
        await memory.store(bytes(60), for: CacheKey("b"))
        #expect(await memory.totalCost == 60)
        #expect(await !memory.contains(CacheKey("a")))
        await memory.store(bytes(101), for: CacheKey("huge"))
        #expect(await !memory.contains(CacheKey("huge")))
        #expect(await memory.contains(CacheKey("b")), "an oversized item does not flush the cache")
    }

    @Test func seedDefaultsAreFiftyItemsAndOneHundredMegabytes() async {
        let memory = MemoryCache()
        #expect(memory.countLimit == 50 && memory.costLimit == 100 * 1024 * 1024)
        for index in 0..<60 { await memory.store(bytes(1), for: CacheKey("k\(index)")) }
        #expect(await memory.count == 50)
    }

    @Test func memoryPressureTrims() async {
        let memory = MemoryCache(countLimit: 50, costLimit: 10_000)
        for index in 0..<10 { await memory.store(bytes(100), for: CacheKey("k\(index)")) }
        await memory.trim(.warning)
        #expect(await memory.totalCost == 500)
        #expect(await memory.contains(CacheKey("k9")), "the newest half stays")
        #expect(await !memory.contains(CacheKey("k0")))
        await memory.trim(.critical)
        #expect(await memory.count == 0)
        #expect(await memory.totalCost == 0)
    }

    @Test func diskEntriesExpireAfterTheirTimeToLive() async {
        let clock = ManualClock()
        let disk = DiskCache(fileSystem: InMemoryFileSystem(clock: clock), timeToLive: 24 * 3600, clock: clock)
        await disk.store(bytes(100), for: CacheKey("seg"))
        clock.advance(by: 23 * 3600)
        #expect(await disk.data(for: CacheKey("seg")) == bytes(100))
        clock.advance(by: 3600)
        #expect(await disk.data(for: CacheKey("seg")) == nil)
        #expect(await disk.count == 0, "the expired file is deleted")
    }

    @Test func diskKeepsItsSizeCapByEvictingTheLeastRecentlyUsed() async {
        let clock = ManualClock()
        let files = InMemoryFileSystem(clock: clock)
        let disk = DiskCache(fileSystem: files, sizeLimit: 1_100, clock: clock)  // three 300-byte entries with headers fit
        for index in 0..<3 {
            await disk.store(bytes(300), for: CacheKey("k\(index)"))
            clock.advance(by: 1)
        }
        _ = await disk.data(for: CacheKey("k0"))
        clock.advance(by: 1)
        await disk.store(bytes(300), for: CacheKey("k3"))
        #expect(await disk.totalSize <= 1_100)
        #expect(await disk.data(for: CacheKey("k1")) == nil, "k1 was used least recently")
        #expect(await disk.data(for: CacheKey("k0")) != nil)
        #expect(files.paths.count == 3)
    }

    @Test func aCorruptOrTruncatedEntryIsAMissAndIsRemoved() async throws {
        let clock = ManualClock()
        let files = InMemoryFileSystem(clock: clock)
        let disk = DiskCache(fileSystem: files, clock: clock)
        await disk.store(bytes(500), for: CacheKey("a"))
        await disk.store(bytes(500, 9), for: CacheKey("b"))
        await disk.store(bytes(500, 7), for: CacheKey("c"))
        let paths = files.paths
        #expect(paths.count == 3)
        // Truncate one, flip a payload byte of another, replace the third with garbage.
        let a = try #require(try files.read(paths[0]))
        try files.write(a.prefix(a.count - 10), to: paths[0])
        var b = try #require(try files.read(paths[1]))
        b[b.count - 1] ^= 0xFF
        try files.write(b, to: paths[1])
        try files.write(Data("not a cache entry".utf8), to: paths[2])

        for key in ["a", "b", "c"] { #expect(await disk.data(for: CacheKey(key)) == nil, "\(key)") }
        #expect(await disk.corruptEntriesRemoved == 3)
        #expect(files.paths.isEmpty)
        await disk.store(bytes(10), for: CacheKey("a"))
        #expect(await disk.data(for: CacheKey("a")) == bytes(10), "the cache keeps working")
    }

    @Test func aDiskCacheReopensWhatAnEarlierLaunchStored() async {
        let clock = ManualClock()
        let files = InMemoryFileSystem(clock: clock)
        await DiskCache(fileSystem: files, clock: clock).store(bytes(42), for: CacheKey("kept"))
        let reopened = DiskCache(fileSystem: files, clock: clock)
        #expect(await reopened.count == 1)
        #expect(await reopened.data(for: CacheKey("kept")) == bytes(42))
    }

    @Test func aFullDiskLeavesTheCacheUsable() async {
        let files = InMemoryFileSystem()
        files.failWrites = CocoaError(.fileWriteOutOfSpace)
        let cache = MediaCache(memory: MemoryCache(), disk: DiskCache(fileSystem: files))
        await cache.store(bytes(5), for: CacheKey("x"))
        #expect(await cache.cached(CacheKey("x"))?.source == .memory)
    }

    @Test func keysFollowContentNotSignatures() throws {
        let poster = try #require(URL(string: "http://h/img/SIG1/12/0123abcd/poster.jpg"))
        let resigned = try #require(URL(string: "http://h/img/SIG2/12/0123abcd/poster.jpg"))
        let changed = try #require(URL(string: "http://h/img/SIG1/12/99ffee00/poster.jpg"))
        #expect(CacheKey(url: poster) == CacheKey(url: resigned))
        #expect(CacheKey(url: poster) != CacheKey(url: changed), "a changed poster has a new hash and is never served stale")
        let segment = try #require(URL(string: "http://h/media/TOKEN-A/12/240p/seg_00000.m4s"))
        let nextHour = try #require(URL(string: "http://h/media/TOKEN-B/12/240p/seg_00000.m4s"))
        #expect(CacheKey(url: segment) == CacheKey(url: nextHour))
        #expect(CacheKey(url: segment).rawValue == "media/12/240p/seg_00000.m4s")
        let other = try #require(URL(string: "https://cdn.example/x.mp4?sig=1"))
        #expect(CacheKey(url: other).rawValue == other.absoluteString)
    }

    @Test func twoLevelsPromoteCountAndShareOneDownload() async throws {
        let clock = ManualClock()
        let files = InMemoryFileSystem(clock: clock)
        let downloads = Counter()
        let cache = MediaCache(memory: MemoryCache(), disk: DiskCache(fileSystem: files, clock: clock))
        let load: @Sendable () async throws -> Data = {
            await downloads.increment()
            // Long enough that the second reader arrives mid-download even on a loaded CI machine.
            try await Task.sleep(for: .milliseconds(300))
            return Data("payload".utf8)
        }
        async let first = cache.data(for: CacheKey("k"), load: load)
        async let second = cache.data(for: CacheKey("k"), load: load)
        let results = try await [first, second]
        #expect(results.allSatisfy { $0.data == Data("payload".utf8) && $0.source == .network })
        #expect(await downloads.value == 1, "concurrent readers share one download")
        #expect(try await cache.data(for: CacheKey("k"), load: load).source == .memory)

        await cache.handleMemoryPressure(.critical)
        #expect(try await cache.data(for: CacheKey("k"), load: load).source == .disk)
        #expect(try await cache.data(for: CacheKey("k"), load: load).source == .memory, "a disk hit is promoted")
        let stats = await cache.statistics
        #expect(stats.memoryHits == 2 && stats.diskHits == 1 && stats.misses == 2)
        #expect(abs(stats.hitRate - 0.6) < 1e-9)
    }
}

actor Counter {
    private(set) var value = 0
    func increment() { value += 1 }
}
