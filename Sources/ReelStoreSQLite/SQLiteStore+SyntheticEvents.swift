import Foundation
import GRDB
import ReelStore

/// What `reelhouse bench-seed` needs of a library to make synthetic watching for it
/// (ReelForYou's `SyntheticWatching` makes the events; `loadEvents` writes them).
extension SQLiteStore {
    /// Ready posts by tag, and all of them.
    public func syntheticCatalogue() throws -> (byTag: [Int64: [Int64]], all: [Int64]) {
        do {
            return try writer.read { db in
                var byTag: [Int64: [Int64]] = [:]
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT x.tag_id, x.post_id FROM post_tag_ids x JOIN posts p ON p.id = x.post_id
                    WHERE p.status = 'ready' ORDER BY x.tag_id, x.post_id
                    """)
                while let row = try rows.next() { byTag[row[0], default: []].append(row[1]) }
                return (byTag, try Int64.fetchAll(db, sql: "SELECT id FROM posts WHERE status = 'ready' ORDER BY id"))
            }
        } catch {
            throw Self.storeError(error)
        }
    }

    /// `count` members named `bench-RUN-N` (they cannot sign in: no password hash matches `-`).
    public func insertSyntheticUsers(count: Int, now: Date) throws -> [Int64] {
        do {
            return try writer.write { db in
                let run = UInt32.random(in: 0...UInt32.max)
                let insert = try db.makeStatement(sql: """
                    INSERT INTO users (name, name_key, role, password_hash, created_at) VALUES (?, ?, 'member', '-', ?)
                    """)
                var ids: [Int64] = []
                for index in 0..<count {
                    let name = "bench-\(run)-\(index)"
                    try insert.execute(arguments: [name, name, RowDecoding.seconds(now)])
                    ids.append(db.lastInsertedRowID)
                }
                return ids
            }
        } catch {
            throw Self.storeError(error)
        }
    }
}
