import Foundation
import ReelSources
import ReelTestSupport
import Testing
import ReelTestFiles

/// The Pexels adapter against a local server speaking Pexels' wire format: paging, the key,
/// the rate limit. Files land in a temporary staging folder, as `reelhouse source` does it.
@Suite("Pexels source against a server speaking its wire format")
struct PexelsSourceTests {
    func withStaging(_ body: (URL) async throws -> Void) async throws {
        let folder = try TemporaryFolder(prefix: "reel-pexels")
        defer { folder.remove() }
        try await body(folder.url)
    }

    func mediaFiles(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix(".info.json") }.sorted()
    }

    @Test("pages until the limit, choosing the HD portrait file and leaving a 4K-only video out")
    func pagingToTheLimit() async throws {
        let clip = try await TinyMedia.clip("paging")
        let clock = TestClock()
        try await FakePexelsServer.withLive(clock: clock) { base, state in
            let videos = [Catalogue.video(1), Catalogue.video4KOnly(2)] + (3...12).map { Catalogue.video($0) }
            await Catalogue.serve(videos, clip: clip, on: state)
            try await withStaging { folder in
                let stager = SourceStager(source: try Catalogue.source(base, clock: clock))
                let report = await stager.stage(SourceQuery(kind: .video, search: "ocean waves", orientation: .portrait), limit: 5, into: folder)
                #expect(report.stoppedBy == nil)
                #expect(report.staged.map(\.item.id) == ["1", "3", "4", "5", "6"])
                #expect(report.skipped == [.init(id: nil, reason: "Pexels item 2 left out: only larger than HD (2K/4K) files")])
                #expect(try mediaFiles(in: folder) == ["pexels-video-1.mp4", "pexels-video-3.mp4", "pexels-video-4.mp4", "pexels-video-5.mp4", "pexels-video-6.mp4"])
                #expect(try Data(contentsOf: folder.appendingPathComponent("pexels-video-3.mp4")) == clip)
                let item = try #require(report.staged.first?.item)
                #expect(item.width == 1080 && item.height == 1920 && item.duration == 2)
                #expect(item.downloadURL.lastPathComponent == "1-hd.mp4")
            }
            let requests = await state.apiRequests
            #expect(requests.map(\.path) == ["/videos/search", "/videos/search"])
            #expect(requests.map { $0.query["page"] } == ["1", "2"])
            #expect(requests.allSatisfy { $0.query["per_page"] == "5" && $0.query["query"] == "ocean waves" && $0.query["orientation"] == "portrait" })
        }
    }

    @Test("a listing that ends before the limit stops at its last page; popular and curated take no query")
    func listingEnds() async throws {
        let clip = try await TinyMedia.clip("ends")
        let clock = TestClock()
        try await FakePexelsServer.withLive(clock: clock) { base, state in
            await Catalogue.serve((1...3).map { Catalogue.video($0) }, clip: clip, on: state)
            await state.configure { $0.photos = [Catalogue.photo(7)]; $0.files["7.jpeg"] = Data(clip.prefix(10)) }
            try await withStaging { folder in
                let stager = SourceStager(source: try Catalogue.source(base, clock: clock))
                let videos = await stager.stage(SourceQuery(kind: .video, orientation: .portrait), limit: 10, into: folder)
                #expect(videos.staged.count == 3 && videos.stoppedBy == nil)
                let photos = await stager.stage(SourceQuery(kind: .photo), limit: 10, into: folder)
                #expect(photos.staged.map(\.item.id) == ["7"])
                #expect(photos.staged.first?.file.lastPathComponent == "pexels-photo-7.jpeg")
            }
            let requests = await state.apiRequests
            #expect(requests.map(\.path) == ["/videos/popular", "/v1/curated"])
            #expect(requests.allSatisfy { $0.query["query"] == nil && $0.query["orientation"] == nil && $0.query["per_page"] == "10" })
        }
    }

    @Test("the key is sent as Pexels wants it: the bare key in Authorization, and never to the file host")
    func authorizationHeader() async throws {
        let clip = try await TinyMedia.clip("auth")
        let clock = TestClock()
        try await FakePexelsServer.withLive(clock: clock) { base, state in
            await Catalogue.serve([Catalogue.video(1)], clip: clip, on: state)
            await state.configure { $0.photos = [Catalogue.photo(5)]; $0.files["5.jpeg"] = Data(clip.prefix(10)) }
            try await withStaging { folder in
                let stager = SourceStager(source: try Catalogue.source(base, clock: clock))
                _ = await stager.stage(SourceQuery(kind: .video, search: "fox"), limit: 1, into: folder)
                _ = await stager.stage(SourceQuery(kind: .photo, search: "fox"), limit: 1, into: folder)
            }
            let api = await state.apiRequests
            #expect(api.map(\.path) == ["/videos/search", "/v1/search"])
            #expect(api.allSatisfy { $0.authorization == FakePexelsServer.apiKey })
            let files = await state.fileRequests
            #expect(files.map(\.path) == ["/files/1-hd.mp4", "/files/5.jpeg"])
            #expect(files.allSatisfy { $0.authorization == nil })
        }
    }

    @Test("a 429 is retried after its Retry-After, then (none given) after the doubled backoff, and the run goes on")
    func tooManyRequestsThenSuccess() async throws {
        let clip = try await TinyMedia.clip("429")
        let clock = TestClock()
        try await FakePexelsServer.withLive(clock: clock) { base, state in
            await Catalogue.serve([Catalogue.video(1), Catalogue.video(2)], clip: clip, on: state)
            await state.configure { $0.forced429 = ["7", nil] }
            try await withStaging { folder in
                let stager = SourceStager(source: try Catalogue.source(base, clock: clock, policy: RateLimitPolicy(fallbackBackoffSeconds: 30)))
                let report = await stager.stage(SourceQuery(kind: .video, search: "fox"), limit: 2, into: folder)
                #expect(report.stoppedBy == nil)
                #expect(report.staged.map(\.item.id) == ["1", "2"])
            }
            #expect(await clock.sleeps == [7, 60])
            #expect(await state.served429 == 2)
            #expect(await state.apiRequests.count == 3)
        }
    }

    @Test("429 after 429 beyond the retry bound ends the run with a rate-limit error and nothing staged")
    func tooManyRequestsForever() async throws {
        let clock = TestClock()
        try await FakePexelsServer.withLive(clock: clock) { base, state in
            await Catalogue.serve([Catalogue.video(1)], clip: Data("x".utf8), on: state)
            await state.configure { $0.forced429 = ["1", "1", "1", "1", "1"] }
            try await withStaging { folder in
                let stager = SourceStager(source: try Catalogue.source(base, clock: clock, policy: RateLimitPolicy(maxRetries: 2)))
                let report = await stager.stage(SourceQuery(kind: .video, search: "fox"), limit: 1, into: folder)
                #expect(report.stoppedBy == .rateLimited(source: "Pexels", resetsAt: nil))
                #expect(report.staged.isEmpty)
                #expect(try mediaFiles(in: folder).isEmpty)
            }
            #expect(await clock.sleeps == [1, 1])
            #expect(await state.apiRequests.count == 3)
        }
    }

    @Test("X-Ratelimit-Remaining 0 makes the next request wait until X-Ratelimit-Reset, so no 429 is ever served")
    func remainingZeroWaitsForReset() async throws {
        let clip = try await TinyMedia.clip("reset")
        let clock = TestClock()
        try await FakePexelsServer.withLive(clock: clock) { base, state in
            // Page 1 (4 listed, one 4K-only) leaves the limit one short, so page 2 is needed…
            await Catalogue.serve([Catalogue.video(1), Catalogue.video4KOnly(2)] + (3...6).map { Catalogue.video($0) }, clip: clip, on: state)
            // …and one request per two-minute window leaves nothing for it until the reset.
            await state.configure { $0.limit = 1; $0.window = 120 }
            try await withStaging { folder in
                let stager = SourceStager(source: try Catalogue.source(base, clock: clock))
                let report = await stager.stage(SourceQuery(kind: .video, search: "fox"), limit: 4, into: folder)
                #expect(report.stoppedBy == nil)
                #expect(report.staged.map(\.item.id) == ["1", "3", "4", "5"])
            }
            #expect(await clock.sleeps == [120])
            #expect(await state.served429 == 0)
            #expect(await state.apiRequests.map { $0.query["page"] } == ["1", "2"])
        }
    }

    @Test("a reset further away than the longest wait is an error naming when, keeping what was staged")
    func resetTooFarAway() async throws {
        let clip = try await TinyMedia.clip("far")
        let clock = TestClock()
        try await FakePexelsServer.withLive(clock: clock) { base, state in
            await Catalogue.serve([Catalogue.video(1), Catalogue.video4KOnly(2)] + (3...6).map { Catalogue.video($0) }, clip: clip, on: state)
            await state.configure { $0.limit = 1; $0.window = 7200 }
            try await withStaging { folder in
                let source = try Catalogue.source(base, clock: clock, policy: RateLimitPolicy(maxWaitSeconds: 900))
                let report = await SourceStager(source: source).stage(SourceQuery(kind: .video, search: "fox"), limit: 4, into: folder)
                let resetsAt = Date(timeIntervalSince1970: 1_760_007_200)
                #expect(report.stoppedBy == .rateLimited(source: "Pexels", resetsAt: resetsAt))
                #expect(report.stoppedBy?.description == "the Pexels rate limit is used up until 2025-10-09T10:53:20Z; try again then")
                #expect(report.staged.map(\.item.id) == ["1", "3", "4"])
                // Asking again waits for nothing and sends nothing: it fails the same way at once.
                await #expect(throws: SourceError.rateLimited(source: "Pexels", resetsAt: resetsAt)) {
                    _ = try await source.page(SourceQuery(kind: .video, search: "fox"), page: 2, perPage: 4)
                }
            }
            #expect(await state.apiRequests.count == 1)
            #expect(await clock.sleeps.isEmpty)
        }
    }

    @Test("a refused key is one clear error, stops the run before anything is downloaded, and never shows the key")
    func badKey() async throws {
        let clock = TestClock()
        try await FakePexelsServer.withLive(clock: clock) { base, state in
            await Catalogue.serve([Catalogue.video(1)], clip: Data("x".utf8), on: state)
            try await withStaging { folder in
                let wrongKey = "not-the-key-0123456789"
                let stager = SourceStager(source: try Catalogue.source(base, key: wrongKey, clock: clock))
                let report = await stager.stage(SourceQuery(kind: .video, search: "fox"), limit: 3, into: folder)
                #expect(report.stoppedBy == .keyRefused(source: "Pexels"))
                #expect(report.stoppedBy?.description == "the Pexels key was refused: check REELHOUSE_PEXELS_KEY (or --key)")
                #expect(report.stoppedBy?.description.contains(wrongKey) == false)
                #expect(report.staged.isEmpty)
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
            }
            #expect(await state.apiRequests.count == 1)
            #expect(await state.fileRequests.isEmpty)
            #expect(await clock.sleeps.isEmpty)
        }
    }

    @Test("a listed file that is gone is skipped with a warning; the others are staged")
    func missingFile() async throws {
        let clip = try await TinyMedia.clip("missing")
        let clock = TestClock()
        try await FakePexelsServer.withLive(clock: clock) { base, state in
            await Catalogue.serve((1...3).map { Catalogue.video($0) }, clip: clip, on: state)
            await state.configure { $0.files["2-hd.mp4"] = nil }
            try await withStaging { folder in
                let report = await SourceStager(source: try Catalogue.source(base, clock: clock))
                    .stage(SourceQuery(kind: .video, search: "fox"), limit: 3, into: folder)
                #expect(report.stoppedBy == nil)
                #expect(report.staged.map(\.item.id) == ["1", "3"])
                #expect(report.skipped == [.init(id: "2", reason: "the file of Pexels video 2 is gone (HTTP 404)")])
                #expect(try mediaFiles(in: folder) == ["pexels-video-1.mp4", "pexels-video-3.mp4"])
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".info.json") }.count == 2)
            }
        }
    }
}
