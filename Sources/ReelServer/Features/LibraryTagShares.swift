import Foundation
import ReelCache
import ReelModels
import ReelStore

/// How common each tag is in the library, for For You's reasons (a tag on nearly every post
/// explains nothing). Counted at most once a minute per node: a tag spreading through the
/// library changes reasons a minute later, which no one notices.
final class LibraryTagShares: Sendable {
    private let social: any SocialStore
    private let library: any LibraryStore
    private let cache = BoundedCache<Int, [String: Double], NoRevision>(capacity: 1, lifetime: 60)

    init(social: any SocialStore, library: any LibraryStore) {
        self.social = social
        self.library = library
    }

    /// Tag name (lowercased) → share of ready posts carrying it; empty when counting fails
    /// (reasons then fall back to every tag, as before).
    func shares() async -> [String: Double] {
        if let cached = cache.value(for: 0) { return cached }
        guard let total = try? await library.countPosts(status: .ready), total > 0, let counts = try? await social.tagCounts() else { return [:] }
        let shares = Dictionary(counts.map { ($0.name.lowercased(), Double($0.count) / Double(total)) }) { max($0, $1) }
        cache.insert(shares, for: 0)
        return shares
    }
}
