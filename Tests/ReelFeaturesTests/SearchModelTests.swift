import Foundation
import ReelFeatures
import ReelKit
import ReelKitTestDoubles
import ReelModels
import ReelServer
import ReelStore
import ReelStoreSQLite
import ReelTestFiles
import ReelTestSupport
import Testing

/// Search as a person types it: one request per pause, the one in flight dropped when the
/// text changes, recent searches that persist, and a rate limit said plainly.
@Suite(.serialized) @MainActor struct SearchModelTests {
    func searches(_ harness: Harness) async -> [String] {
        await harness.network.log.filter { $0.url.path.hasSuffix("/api/v1/search") }
            .compactMap { URLComponents(url: $0.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "q" }?.value }
    }

    @Test func typingSendsOneSearchAfterThePause() async throws {
        try await withHarness(videos: 3) { harness in
            let model = SearchModel(context: try await harness.context())
            for text in ["c", "cl", "cli", "clip-1"] {
                model.textChanged(text)
                #expect(await eventually { harness.clock.sleeperCount == 1 })
                harness.clock.advance(by: 0.1)
            }
            #expect(await searches(harness).isEmpty, "nothing is sent while the person types")
            harness.clock.advance(by: 0.2)
            await model.settle()
            #expect(await searches(harness) == ["clip-1"] && model.requestsSent == 1)
            #expect(model.resultsQuery == "clip-1" && model.results?.items.first?.folderName == "clip-1")

            model.textChanged("   ")
            #expect(model.results == nil && model.resultsQuery == nil, "clearing the field clears the results")
        }
    }

    @Test func aSearchInFlightIsCancelledWhenTheTextChanges() async throws {
        try await withHarness(videos: 3) { harness in
            let model = SearchModel(context: try await harness.context())
            await harness.network.hold { $0.url.query?.contains("q=clip-0") == true }
            model.textChanged("clip-0")
            #expect(await eventually { harness.clock.sleeperCount == 1 })
            harness.clock.advance(by: 0.25)
            #expect(await eventually { await harness.network.heldCount == 1 }, "the first search is on its way")

            model.textChanged("clip-2")
            #expect(await eventually { harness.clock.sleeperCount == 1 })
            harness.clock.advance(by: 0.25)
            await model.settle()
            await harness.network.release()
            #expect(model.resultsQuery == "clip-2" && model.results?.items.map(\.folderName).first == "clip-2")
            #expect(await eventually { await harness.network.log.contains { $0.url.query?.contains("q=clip-0") == true && $0.cancelled } },
                    "the request for the old text was cancelled, not answered")
            #expect(model.results?.items.contains { $0.folderName == "clip-0" } != true, "its late answer never shows")
        }
    }

    @Test func recentSearchesAreKeptNewestFirstWithoutRepeats() async throws {
        try await withHarness(videos: 1) { harness in
            let context = try await harness.context()
            let model = SearchModel(context: context)
            for text in ["sunrise", "retro", "Sunrise"] {
                model.textChanged(text)
                await model.submit()
            }
            #expect(model.recent == ["Sunrise", "retro"])
            #expect(SearchModel(context: context).recent == ["Sunrise", "retro"], "kept on the device")
            model.removeRecent("retro")
            #expect(model.recent == ["Sunrise"])
            await model.search("clip")
            #expect(model.text == "clip" && model.recent == ["clip", "Sunrise"] && model.results?.items.count == 1)
            model.clearRecent()
            #expect(SearchModel(context: context).recent.isEmpty)
        }
    }

    @Test func aRateLimitIsSaidWithItsWait() async throws {
        try await withHarness(videos: 1, configure: { $0[AccountSettings.self].apiRequestsPerMinute = 3 }) { harness in
            let model = SearchModel(context: try await harness.context())
            var limited: ScreenError?
            for attempt in 0..<6 where limited == nil {
                model.textChanged("clip \(attempt)")
                await model.submit()
                if case .rateLimited = model.results?.error?.kind { limited = model.results?.error }
            }
            let error = try #require(limited)
            guard case .rateLimited(let retryAfter) = error.kind else { return }
            #expect((retryAfter ?? 0) > 0)
            #expect(error.message.hasPrefix("Too many requests. Try again in"))
        }
    }
}
