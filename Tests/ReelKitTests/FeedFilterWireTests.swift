import Foundation
import ReelKit
import ReelModels
import Testing

/// ReelKit writes the feed filter with the same type the server reads it with: what one
/// side writes, the other reads back unchanged.
@Suite struct FeedFilterWireTests {
    @Test(arguments: [
        FeedFilter(),
        FeedFilter(tags: ["cats", "Dogs"]),
        FeedFilter(excludeTags: ["nsfw"], kind: .image),
        FeedFilter(tags: ["a"], excludeTags: ["b", "c"], kind: .carousel, favoritesOnly: true, minRating: 3),
        FeedFilter(minRating: 0),
    ])
    func queryItemsReadBackAsTheSameFilter(_ filter: FeedFilter) throws {
        let items = filter.queryItems
        let read = try FeedFilter { name in items.first { $0.name == name }?.value }
        #expect(read == filter)
    }

    @Test func nonsenseIsRefusedWithASentence() {
        #expect(throws: FeedFilterError("min_rating must be an integer from 0 to 5")) {
            try FeedFilter { $0 == "min_rating" ? "9" : nil }
        }
        #expect(throws: FeedFilterError("kind must be one of video, image, carousel")) {
            try FeedFilter { $0 == "kind" ? "movie" : nil }
        }
    }
}
