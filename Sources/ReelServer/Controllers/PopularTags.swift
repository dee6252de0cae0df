import Foundation
import ReelModels
import ReelStore

/// The most used tags, remembered for `lifetime`: counting every tag link costs about 0.15 s at
/// 100k posts, far more than the rest of a Discover answer, and which tags lead changes slowly
/// (a shelf's posts are always read live; only the choice of tags can be a little late).
final class PopularTags: @unchecked Sendable {
    let lifetime: TimeInterval
    private let lock = NSLock()
    private var remembered: (tags: [TagCount], at: Date)?

    init(lifetime: TimeInterval = 60) {
        self.lifetime = lifetime
    }

    func tags(limit: Int, now: Date, catalog: any CatalogStore) async throws -> [TagCount] {
        if let remembered = lock.withLock({ remembered }), now >= remembered.at, now.timeIntervalSince(remembered.at) < lifetime {
            return Array(remembered.tags.prefix(limit))
        }
        let fresh = try await catalog.popularTags(limit: limit)
        lock.withLock { remembered = (fresh, now) }
        return fresh
    }
}
