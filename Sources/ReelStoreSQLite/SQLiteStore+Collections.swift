import Foundation
import GRDB
import ReelModels
import ReelStore

extension SQLiteStore {
    public func collections() async throws -> [PostCollection] {
        try await read { db in try Self.fetchCollections(db, where: "1", []) }
    }

    public func collection(id: Int64) async throws -> PostCollection? {
        try await read { db in try Self.fetchCollections(db, where: "c.id = ?", [id]).first }
    }

    public func collection(named name: String) async throws -> PostCollection? {
        try await read { db in try Self.fetchCollections(db, where: "c.name = ?", [name.trimmingCharacters(in: .whitespacesAndNewlines)]).first }
    }

    public func createCollection(name: String, postIDs: [Int64], createdBy: Int64?, now: Date) async throws -> PostCollection {
        let name = try PostCollection.validName(name)
        try Self.checkPostCount(postIDs)
        return try await write { db in
            try Self.requireFreeName(db, name, except: nil)
            try db.execute(
                sql: "INSERT INTO collections (name, created_by, created_at, updated_at) VALUES (?, ?, ?, ?)",
                arguments: [name, createdBy, RowDecoding.seconds(now), RowDecoding.seconds(now)]
            )
            let id = db.lastInsertedRowID
            try Self.append(db, collection: id, postIDs: postIDs, now: now)
            return try Self.requireCollection(db, id: id)
        }
    }

    public func updateCollection(id: Int64, name: String?, postIDs: [Int64]?, now: Date) async throws -> PostCollection {
        var validName: String?
        if let name { validName = try PostCollection.validName(name) }
        let name = validName
        try Self.checkPostCount(postIDs ?? [])
        return try await change(id, now: now) { db in
            if let name {
                try Self.requireFreeName(db, name, except: id)
                try db.execute(sql: "UPDATE collections SET name = ? WHERE id = ?", arguments: [name, id])
            }
            if let postIDs {
                try db.execute(sql: "DELETE FROM collection_items WHERE collection_id = ?", arguments: [id])
                try Self.append(db, collection: id, postIDs: postIDs, now: now)
            }
        }
    }

    public func addToCollection(id: Int64, postIDs: [Int64], now: Date) async throws -> PostCollection {
        try Self.checkPostCount(postIDs)
        return try await change(id, now: now) { db in try Self.append(db, collection: id, postIDs: postIDs, now: now) }
    }

    public func removeFromCollection(id: Int64, postIDs: [Int64], now: Date) async throws -> PostCollection {
        try Self.checkPostCount(postIDs)
        return try await change(id, now: now) { db in
            guard !postIDs.isEmpty else { return }
            try db.execute(
                sql: "DELETE FROM collection_items WHERE collection_id = ? AND post_id IN (\(Self.placeholders(postIDs.count)))",
                arguments: [id] + StatementArguments(postIDs)
            )
        }
    }

    public func deleteCollection(id: Int64) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM collections WHERE id = ?", arguments: [id])
            guard db.changesCount > 0 else { throw StoreError.notFound("collection \(id)") }
        }
    }

    // MARK: - Helpers inside a transaction

    /// Runs `body` on an existing collection, stamps it updated and returns it afterwards.
    private func change(_ id: Int64, now: Date, _ body: @escaping @Sendable (Database) throws -> Void) async throws -> PostCollection {
        try await write { db in
            _ = try Self.requireCollection(db, id: id)
            try body(db)
            try db.execute(sql: "UPDATE collections SET updated_at = ? WHERE id = ?", arguments: [RowDecoding.seconds(now), id])
            return try Self.requireCollection(db, id: id)
        }
    }

    private static func checkPostCount(_ postIDs: [Int64]) throws {
        guard postIDs.count <= PostCollection.maxPostsPerChange else {
            throw StoreError.invalid("at most \(PostCollection.maxPostsPerChange) posts per change")
        }
    }

    private static func requireFreeName(_ db: Database, _ name: String, except id: Int64?) throws {
        if let other = try Int64.fetchOne(db, sql: "SELECT id FROM collections WHERE name = ?", arguments: [name]), other != id {
            throw StoreError.conflict("a collection named \(name) already exists")
        }
    }

    private static func requireCollection(_ db: Database, id: Int64) throws -> PostCollection {
        guard let collection = try fetchCollections(db, where: "c.id = ?", [id]).first else {
            throw StoreError.notFound("collection \(id)")
        }
        return collection
    }

    /// Appends the posts not in the collection yet after its last one, in the order given.
    private static func append(_ db: Database, collection: Int64, postIDs: [Int64], now: Date) throws {
        var position = try Int64.fetchOne(
            db, sql: "SELECT coalesce(MAX(position), -1) FROM collection_items WHERE collection_id = ?", arguments: [collection]
        ) ?? -1
        for postID in postIDs {
            try requirePost(db, id: postID)
            try db.execute(
                sql: "INSERT OR IGNORE INTO collection_items (collection_id, post_id, position, added_at) VALUES (?, ?, ?, ?)",
                arguments: [collection, postID, position + 1, RowDecoding.seconds(now)]
            )
            if db.changesCount > 0 { position += 1 }
        }
    }

    /// Collections matching `condition` (SQL over `collections c`), by name, with their count of
    /// ready posts and their first ready post (the cover) decoded.
    static func fetchCollections(_ db: Database, where condition: String, _ arguments: StatementArguments) throws -> [PostCollection] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT c.id, c.name, c.created_by, c.created_at, c.updated_at,
                       (SELECT COUNT(*) FROM collection_items i JOIN posts p ON p.id = i.post_id
                        WHERE i.collection_id = c.id AND p.status = 'ready') AS ready_count,
                       (SELECT i.post_id FROM collection_items i JOIN posts p ON p.id = i.post_id
                        WHERE i.collection_id = c.id AND p.status = 'ready' ORDER BY i.position, i.post_id LIMIT 1) AS cover_id
                FROM collections c WHERE \(condition) ORDER BY c.name COLLATE NOCASE, c.id
                """,
            arguments: arguments
        )
        let coverIDs = rows.compactMap { $0["cover_id"] as Int64? }
        var covers: [Int64: Post] = [:]
        if !coverIDs.isEmpty {
            for post in try fetchPosts(db, where: "id IN (\(placeholders(coverIDs.count)))", StatementArguments(coverIDs)) {
                covers[post.id] = post
            }
        }
        return rows.map { row in
            PostCollection(
                id: row["id"], name: row["name"], count: row["ready_count"], coverPost: (row["cover_id"] as Int64?).flatMap { covers[$0] },
                createdBy: row["created_by"], createdAt: RowDecoding.date(row["created_at"]), updatedAt: RowDecoding.date(row["updated_at"])
            )
        }
    }
}
