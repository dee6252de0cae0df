import Foundation
import ReelKit
import ReelHLS
import ReelModels

/// The walk itself: a feed session with three headless players, prefetch through the cache,
/// and for each item the reads its player would make when it comes on screen.
@MainActor
struct FeedWalk {
    let options: DemoOptions

    func run() async throws {
        let client = ReelClient(baseURL: options.baseURL, credentials: .apiKey(options.apiKey ?? ""))
        let user = try await client.me()
        let cacheRoot = options.cacheDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("reelkit-demo-\(UUID().uuidString)")
        let cache = MediaCache(disk: DiskCache(fileSystem: LocalFileSystem(root: cacheRoot)))
        let prefetcher = MediaPrefetcher(client: client, cache: cache)
        let slots = (0..<3).map { HeadlessSlot(number: $0) }
        let session = FeedSession(client: client, pool: PlayerPool(slots: slots), prefetcher: prefetcher, pageSize: options.pageSize)
        var throughput = ThroughputEstimator(minimumBytes: 4 * 1024)
        let selector = BitrateSelector()
        print("ReelKit demo: \(options.baseURL.absoluteString) as \(user.name) (\(user.role)); cache in \(cacheRoot.path)")

        try await session.start()
        await session.prefetchesFinished()
        var shown: [Int64] = []
        var step = 0
        while shown.count < options.items, let video = session.current {
            shown.append(video.id)
            let line = try await watch(video, session: session, prefetcher: prefetcher, throughput: &throughput, selector: selector)
            print(String(format: "%2d. ", shown.count) + line)
            step += 1
            if options.flickAt > 0, step == options.flickAt, session.window.items.count > session.window.currentIndex + 3 {
                // A fast flick: the finger passes two items before the feed settles on the third.
                let from = session.window.currentIndex
                try await session.move(to: from + 1, settled: false)
                try await session.move(to: from + 2, settled: false)
                try await session.move(to: from + 3)
                await session.prefetchesFinished()
                print("    ⇊ flicked past \(session.window.items[from + 1]) and \(session.window.items[from + 2]) without starting them")
            } else {
                let before = session.window.currentIndex
                try await session.next()
                await session.prefetchesFinished()
                if session.window.currentIndex == before { break }  // the end of a finite feed
            }
        }
        let stats = await cache.statistics
        let diskEntries = await cache.disk?.count ?? 0
        let diskBytes = await cache.disk?.totalSize ?? 0
        let loads = slots.map(\.loads).reduce(0, +)
        print("")
        print("seen \(shown.count) items (\(Set(shown).count) distinct) from \(session.pagesLoaded) pages; feed window holds \(session.window.items.count), \(session.window.droppedRepeats) repeats dropped")
        print("players: 3 slots, \(loads) loads in total")
        print(String(format: "cache: %d reads, %d from memory, %d from disk, %d from network: hit rate %.0f %%", stats.requests, stats.memoryHits, stats.diskHits, stats.misses, stats.hitRate * 100))
        print("disk cache: \(diskEntries) files, \(diskBytes / 1024) KiB; throughput estimate \(throughput.bitsPerSecond.map { String(format: "%.1f Mbit/s", $0 / 1e6) } ?? "none")")
        if options.cacheDirectory == nil { try? FileManager.default.removeItem(at: cacheRoot) }
    }

    /// What the player of the current item reads, and what a user would have seen.
    func watch(
        _ video: APIVideo, session: FeedSession<HeadlessSlot>, prefetcher: MediaPrefetcher,
        throughput: inout ThroughputEstimator, selector: BitrateSelector
    ) async throws -> String {
        var sources: [CacheSource] = []
        for url in prefetcher.startupURLs(for: video) {
            let started = Date()
            let (data, source) = try await prefetcher.load(url)
            if source == .network { throughput.record(bytes: data.count, seconds: Date().timeIntervalSince(started)) }
            sources.append(source)
        }
        let cached = sources.filter { $0 != .network }.count
        let slot = session.pool.activeSlot.map { "slot \($0)" } ?? "no slot"
        let caption = (video.description ?? video.folderName).replacingOccurrences(of: "\n", with: " ")
        var line = "[\(video.id)] \(video.kind.rawValue) \(video.width)×\(video.height)"
        if let duration = video.duration { line += String(format: " %.1f s", duration) }
        line += " “\(caption.count > 40 ? caption.prefix(39) + "…" : caption)” · \(slot) · start \(cached)/\(sources.count) from cache"
        if let masterPath = video.media.master, let masterURL = session.client.url(for: masterPath) {
            let text = String(decoding: try await session.client.download(masterURL), as: UTF8.self)
            if let master = try? MasterPlaylist.parse(text),
               let variant = selector.select(from: master, throughput: throughput.bitsPerSecond) {
                line += " · rung \(variant.width)×\(variant.height) of \(master.variants.count)"
            }
        }
        return line
    }
}
