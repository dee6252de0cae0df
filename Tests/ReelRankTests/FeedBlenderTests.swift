import Foundation
import ReelRank
import Testing

@Suite struct FeedBlenderTests {
    func item(_ id: Int64, uploader: String? = nil, tags: [String] = [], reason: Reason = .popular) -> ScoredCandidate {
        ScoredCandidate(candidate: Candidate(postID: id, uploader: uploader, tags: tags, addedAt: .distantPast, sources: [.neighbor]),
                        score: Double(1_000 - id), reason: reason)
    }

    @Test func aboutThirtyPercentExploreSpreadThroughThePage() {
        let ranked = (1...30).map { item(Int64($0), uploader: "u\($0)") }
        let explore = (101...130).map { item(Int64($0), uploader: "x\($0)", reason: .explore) }
        let page = FeedBlender().blend(ranked: ranked, explore: explore, limit: 10, previousUploader: nil)
        #expect(page.count == 10)
        let positions = page.indices.filter { page[$0].reason == .explore }
        #expect(positions.count == 3)
        #expect(positions.first ?? 10 < 3) // not saved for the end of the page
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $1 - $0 > 1 }) // never bunched
        // Each source keeps its own order.
        #expect(page.filter { $0.reason != .explore }.map(\.candidate.postID) == [1, 2, 3, 4, 5, 6, 7])
        #expect(FeedBlender(exploreShare: 0).blend(ranked: ranked, explore: explore, limit: 10, previousUploader: nil)
            .allSatisfy { $0.reason != .explore })
    }

    @Test func neverTwoPostsOfOneUploaderInARow() {
        let uploaders = ["ann", "ann", "ann", "ann", "bob", "bob", "cy", "ann", "cy", "bob", "dee", "ann"]
        let ranked = uploaders.enumerated().map { item(Int64($0.offset + 1), uploader: $0.element) }
        let page = FeedBlender(exploreShare: 0).blend(ranked: ranked, explore: [], limit: 10, previousUploader: "ann")
        #expect(page.count == 10)
        let names = ["ann"] + page.map { $0.candidate.uploader! }
        #expect(zip(names, names.dropFirst()).allSatisfy { $0 != $1 }, "\(names)")
    }

    @Test func noTagTakesMoreThanFortyPercentWhenThereAreAlternatives() {
        let ranked = (1...10).map { item(Int64($0), uploader: "u\($0)", tags: ["cats"]) }
            + (11...20).map { item(Int64($0), uploader: "u\($0)", tags: ["dogs\($0)", "cats\($0)"]) }
        let page = FeedBlender(exploreShare: 0).blend(ranked: ranked, explore: [], limit: 10, previousUploader: nil)
        #expect(page.filter { $0.candidate.tags.contains("cats") }.count == 4)
        #expect(page.prefix(4).allSatisfy { $0.candidate.tags == ["cats"] }) // the best first, until the cap

        let onlyCats = (1...12).map { item(Int64($0), uploader: "u\($0)", tags: ["cats"]) }
        let full = FeedBlender(exploreShare: 0).blend(ranked: onlyCats, explore: [], limit: 10, previousUploader: nil)
        #expect(full.count == 10) // the cap never leaves a page short
    }

    @Test func anItemInBothSourcesIsShownOnce() {
        let shared = item(5, uploader: "a")
        let page = FeedBlender().blend(ranked: [shared, item(6, uploader: "b")], explore: [shared, item(7, uploader: "c")], limit: 10, previousUploader: nil)
        #expect(page.map(\.candidate.postID).sorted() == [5, 6, 7])
    }
}
