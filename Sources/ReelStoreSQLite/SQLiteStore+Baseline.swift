import Foundation
import GRDB
import ReelModels
import ReelStore

extension SQLiteStore {
    /// The naive random feed, `ORDER BY random() LIMIT n`, kept only as the baseline that
    /// `make bench` measures the real feed against. It sorts the whole library on every call
    /// (O(n log n)) and repeats posts across pages — everything `feedPage` exists to avoid.
    public func orderByRandomBaseline(userID: Int64, limit: Int) async throws -> [FeedItem] {
        let posts = try await read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM posts WHERE status = 'ready' ORDER BY random() LIMIT ?", arguments: [limit])
            return try Self.decodePosts(db, rows: rows)
        }
        let viewers = try await viewerStates(userID: userID, postIDs: posts.map(\.id))
        return posts.map { FeedItem(post: $0, viewer: viewers[$0.id] ?? ViewerState.none) }
    }
}
