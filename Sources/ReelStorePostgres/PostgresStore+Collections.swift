import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore

extension PostgresStore: CollectionStore {
    public func collections() async throws -> [PostCollection] {
        try await snapshot { connection in try await Self.fetchCollections(connection, logger: logger) }
    }

    public func collection(id: Int64) async throws -> PostCollection? {
        try await snapshot { connection in try await Self.fetchCollections(connection, id: id, logger: logger).first }
    }

    public func collection(named name: String) async throws -> PostCollection? {
        let key = TagName.key(name.trimmingCharacters(in: .whitespacesAndNewlines))
        return try await snapshot { connection in try await Self.fetchCollections(connection, nameKey: key, logger: logger).first }
    }

    public func collections(userID: Int64, library: Int64?) async throws -> [PostCollection] {
        try await snapshot { connection in try await Self.visibleCollections(connection, userID: userID, library: library, id: nil, logger: logger) }
    }

    public func collection(id: Int64, userID: Int64, library: Int64?) async throws -> PostCollection? {
        try await snapshot { connection in
            try await Self.visibleCollections(connection, userID: userID, library: library, id: id, logger: logger).first
        }
    }

    public func collections(containing postID: Int64) async throws -> [PostCollection] {
        try await snapshot { connection in try await Self.fetchCollections(connection, containing: postID, logger: logger) }
    }

    public func createCollection(name: String, postIDs: [Int64], createdBy: Int64?, now: Date) async throws -> PostCollection {
        let name = try PostCollection.validName(name)
        try Self.checkPostCount(postIDs)
        return try await write { connection in
            try await Self.requireFreeCollectionName(connection, name, except: nil, logger: logger)
            let seconds = now.timeIntervalSince1970
            let rows = try await connection.query("""
                INSERT INTO collections (name, name_key, created_by, created_at, updated_at)
                VALUES (\(name), \(TagName.key(name)), \(createdBy), \(seconds), \(seconds))
                RETURNING id
                """, logger: logger).collect()
            guard let id = try rows.first?.decode(Int64.self) else { throw StoreError.corrupt("collection insert returned no row") }
            try await Self.append(connection, collection: id, postIDs: postIDs, now: now, logger: logger)
            return try await Self.requireCollection(connection, id: id, logger: logger)
        }
    }

    public func updateCollection(id: Int64, name: String?, postIDs: [Int64]?, now: Date) async throws -> PostCollection {
        var validName: String?
        if let name { validName = try PostCollection.validName(name) }
        let name = validName
        try Self.checkPostCount(postIDs ?? [])
        return try await change(id, now: now) { connection in
            if let name {
                try await Self.requireFreeCollectionName(connection, name, except: id, logger: self.logger)
                try await connection.query(
                    "UPDATE collections SET name = \(name), name_key = \(TagName.key(name)) WHERE id = \(id)", logger: self.logger
                )
            }
            if let postIDs {
                try await connection.query("DELETE FROM collection_items WHERE collection_id = \(id)", logger: self.logger)
                try await Self.append(connection, collection: id, postIDs: postIDs, now: now, logger: self.logger)
            }
        }
    }

    public func addToCollection(id: Int64, postIDs: [Int64], now: Date) async throws -> PostCollection {
        try Self.checkPostCount(postIDs)
        return try await change(id, now: now) { connection in
            try await Self.append(connection, collection: id, postIDs: postIDs, now: now, logger: self.logger)
        }
    }

    public func removeFromCollection(id: Int64, postIDs: [Int64], now: Date) async throws -> PostCollection {
        try Self.checkPostCount(postIDs)
        return try await change(id, now: now) { connection in
            try await connection.query(
                "DELETE FROM collection_items WHERE collection_id = \(id) AND post_id = ANY(\(postIDs))", logger: self.logger
            )
        }
    }

    public func deleteCollection(id: Int64) async throws {
        try await write { connection in
            let rows = try await connection.query("DELETE FROM collections WHERE id = \(id) RETURNING id", logger: logger).collect()
            guard !rows.isEmpty else { throw StoreError.notFound("collection \(id)") }
        }
    }

    // MARK: - Helpers inside a transaction

    /// Runs `body` on an existing collection (locked, so concurrent changes append in turn),
    /// stamps it updated and returns it afterwards.
    private func change(_ id: Int64, now: Date, _ body: (PostgresConnection) async throws -> Void) async throws -> PostCollection {
        try await write { connection in
            try await Self.requireRow(connection, "SELECT 1 FROM collections WHERE id = $1 FOR UPDATE", id, missing: "collection \(id)", logger: logger)
            try await body(connection)
            try await connection.query("UPDATE collections SET updated_at = \(now.timeIntervalSince1970) WHERE id = \(id)", logger: logger)
            return try await Self.requireCollection(connection, id: id, logger: logger)
        }
    }

    private static func checkPostCount(_ postIDs: [Int64]) throws {
        guard postIDs.count <= PostCollection.maxPostsPerChange else {
            throw StoreError.invalid("at most \(PostCollection.maxPostsPerChange) posts per change")
        }
    }

    private static func requireFreeCollectionName(_ connection: PostgresConnection, _ name: String, except id: Int64?, logger: Logger) async throws {
        let rows = try await connection.query(
            "SELECT id FROM collections WHERE name_key = \(TagName.key(name))", logger: logger
        ).collect()
        if let other = try rows.first?.decode(Int64.self), other != id {
            throw StoreError.conflict("a collection named \(name) already exists")
        }
    }

    private static func requireCollection(_ connection: PostgresConnection, id: Int64, logger: Logger) async throws -> PostCollection {
        guard let collection = try await fetchCollections(connection, id: id, logger: logger).first else {
            throw StoreError.notFound("collection \(id)")
        }
        return collection
    }

    /// Appends the posts not in the collection yet after its last one, in the order given.
    private static func append(_ connection: PostgresConnection, collection: Int64, postIDs: [Int64], now: Date, logger: Logger) async throws {
        var position = try await connection.query(
            "SELECT coalesce(max(position), -1) FROM collection_items WHERE collection_id = \(collection)", logger: logger
        ).collect().first?.decode(Int64.self) ?? -1
        for postID in postIDs {
            try await requireRow(connection, "SELECT 1 FROM posts WHERE id = $1", postID, missing: "post \(postID)", logger: logger)
            let inserted = try await connection.query("""
                INSERT INTO collection_items (collection_id, post_id, position, added_at)
                VALUES (\(collection), \(postID), \(position + 1), \(now.timeIntervalSince1970))
                ON CONFLICT DO NOTHING RETURNING post_id
                """, logger: logger).collect()
            if !inserted.isEmpty { position += 1 }
        }
    }

    private static func visibleCollections(
        _ connection: PostgresConnection, userID: Int64, library: Int64?, id: Int64?, logger: Logger
    ) async throws -> [PostCollection] {
        switch try await scope(connection, userID: userID, requested: library, logger: logger) {
        case .all: return try await fetchCollections(connection, id: id, logger: logger)
        case .only(let ids): return try await fetchCollections(connection, id: id, libraryIDs: ids, logger: logger).filter { $0.count > 0 }
        }
    }

    /// Collections (by id, name key, containing a post, or all) by name ignoring ASCII case,
    /// with their count of ready posts and their first ready post (the cover).
    /// `libraryIDs`: count and cover only posts of these libraries (nil: every library).
    static func fetchCollections(
        _ connection: PostgresConnection, id: Int64? = nil, nameKey: String? = nil, containing postID: Int64? = nil,
        libraryIDs: [Int64]? = nil, logger: Logger
    ) async throws -> [PostCollection] {
        let rows = try await connection.query("""
            SELECT c.id, c.name, c.created_by, c.created_at, c.updated_at,
                   (SELECT count(*) FROM collection_items i JOIN posts p ON p.id = i.post_id
                    WHERE i.collection_id = c.id AND p.status = 'ready'
                      AND (\(libraryIDs)::bigint[] IS NULL OR p.library_id = ANY(\(libraryIDs)::bigint[]))),
                   (SELECT i.post_id FROM collection_items i JOIN posts p ON p.id = i.post_id
                    WHERE i.collection_id = c.id AND p.status = 'ready'
                      AND (\(libraryIDs)::bigint[] IS NULL OR p.library_id = ANY(\(libraryIDs)::bigint[]))
                    ORDER BY i.position, i.post_id LIMIT 1)
            FROM collections c
            WHERE (\(id)::bigint IS NULL OR c.id = \(id))
              AND (\(nameKey)::text IS NULL OR c.name_key = \(nameKey))
              AND (\(postID)::bigint IS NULL OR c.id IN (SELECT collection_id FROM collection_items WHERE post_id = \(postID)))
            ORDER BY c.name_key, c.id
            """, logger: logger).collect()
        let decoded = try rows.map { try $0.decode((Int64, String, Int64?, Double, Double, Int64, Int64?).self) }
        let covers = try await posts(connection, ids: decoded.compactMap(\.6), logger: logger)
        let byID = Dictionary(covers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return decoded.map { id, name, createdBy, createdAt, updatedAt, count, coverID in
            PostCollection(
                id: id, name: name, count: Int(count), coverPost: coverID.flatMap { byID[$0] }, createdBy: createdBy,
                createdAt: Date(timeIntervalSince1970: createdAt), updatedAt: Date(timeIntervalSince1970: updatedAt)
            )
        }
    }
}
