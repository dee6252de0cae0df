import Foundation
import GRDB
import ReelModels
import ReelStore

/// The tag and flag vocabularies in SQLite: names match through the column's NOCASE collation
/// (what `TagName.key` spells out for the other backend).
extension Vocabulary {
    /// The id of `name`, creating the entry if needed.
    func ensureID(_ db: Database, name: String) throws -> Int64 {
        try db.execute(sql: "INSERT INTO \(table) (name) VALUES (?) ON CONFLICT (name) DO NOTHING", arguments: [name])
        guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM \(table) WHERE name = ?", arguments: [name]) else {
            throw StoreError.corrupt("\(table) entry \(name) vanished inside its own transaction")
        }
        return id
    }

    /// Ids of the names that exist (ignoring case); unknown names are skipped.
    func existingIDs(_ db: Database, names: [String]) throws -> [Int64] {
        let names = names.filter { !TagName.isBlank($0) }
        guard !names.isEmpty else { return [] }
        return try Int64.fetchAll(
            db, sql: "SELECT id FROM \(table) WHERE name IN (\(SQLiteStore.placeholders(names.count))) ORDER BY id",
            arguments: StatementArguments(names)
        )
    }

    /// Appends names the post does not carry yet, in order; blanks and repeats are dropped.
    func attach(_ db: Database, postID: Int64, names: [String]) throws {
        for name in names where !TagName.isBlank(name) {
            let id = try ensureID(db, name: name)
            try db.execute(sql: "INSERT OR IGNORE INTO \(link) (post_id, \(column)) VALUES (?, ?)", arguments: [postID, id])
        }
    }

    func replace(_ db: Database, postID: Int64, names: [String]) throws {
        try db.execute(sql: "DELETE FROM \(link) WHERE post_id = ?", arguments: [postID])
        try attach(db, postID: postID, names: names)
    }

    func detach(_ db: Database, postID: Int64, name: String) throws {
        try db.execute(
            sql: "DELETE FROM \(link) WHERE post_id = ? AND \(column) IN (SELECT id FROM \(table) WHERE name = ?)",
            arguments: [postID, name]
        )
    }

    /// Each post's entries in the order they were attached, with count 0. Ids go in chunks so
    /// a large page stays under SQLite's bound-parameter limit.
    func refs(_ db: Database, postIDs: [Int64]) throws -> [Int64: [TagCount]] {
        var result: [Int64: [TagCount]] = [:]
        var start = 0
        while start < postIDs.count {
            let chunk = Array(postIDs[start..<min(start + 500, postIDs.count)])
            start += chunk.count
            // Cached: a feed page asks this with the same few batch sizes over and over.
            let statement = try db.cachedStatement(sql: """
                SELECT l.post_id, v.id, v.name FROM \(link) l JOIN \(table) v ON v.id = l.\(column)
                WHERE l.post_id IN (\(SQLiteStore.placeholders(chunk.count))) ORDER BY l.rowid
                """)
            let rows = try Row.fetchCursor(statement, arguments: StatementArguments(chunk))
            while let row = try rows.next() {
                result[row[0], default: []].append(TagCount(id: row[1], name: row[2], count: 0))
            }
        }
        return result
    }

    /// Entries carried by at least one ready post, most used first, then by name.
    /// `libraryIDs`: count only posts of these libraries (nil: every library).
    func counts(_ db: Database, libraryIDs: [Int64]? = nil) throws -> [TagCount] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT v.id, v.name, COUNT(*) AS uses
                FROM \(link) l JOIN \(table) v ON v.id = l.\(column) JOIN posts p ON p.id = l.post_id
                WHERE p.status = 'ready'\(libraryIDs.map { " AND p.library_id IN (\(SQLiteStore.placeholders($0.count)))" } ?? "")
                GROUP BY v.id
                ORDER BY uses DESC, v.name, v.id
                """,
            arguments: StatementArguments(libraryIDs ?? [])
        ).map { TagCount(id: $0[0], name: $0[1], count: $0[2]) }
    }
}
