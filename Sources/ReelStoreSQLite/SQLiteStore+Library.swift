import Foundation
import GRDB
import ReelModels
import ReelStore
import ReelStoreCore

extension SQLiteStore {
    public func post(id: Int64) async throws -> Post? {
        try await read { db in try Self.fetchPosts(db, where: "id = ?", [id]).first }
    }

    public func post(folderName: String) async throws -> Post? {
        try await read { db in try Self.fetchPosts(db, where: "folder_name = ?", [folderName]).first }
    }

    public func post(contentHash: String) async throws -> Post? {
        try await read { db in try Self.fetchPosts(db, where: "content_hash = ?", [contentHash]).first }
    }

    /// Newest first (by date added, then id).
    public func posts(status: PostStatus?, limit: Int) async throws -> [Post] {
        try await read { db in
            if let status {
                return try Self.fetchPosts(db, where: "status = ?", [status.rawValue], limit: limit)
            }
            return try Self.fetchPosts(db, where: "1", [], limit: limit)
        }
    }

    public func sourcePaths(postID: Int64) async throws -> [String] {
        try await read { db in
            try String.fetchAll(db, sql: "SELECT path FROM post_sources WHERE post_id = ? ORDER BY position", arguments: [postID])
        }
    }

    /// Inserts the post (`queued`), its tags and sources, and its `transcode` job in one
    /// transaction. A taken folder name gets `-2`, `-3`… appended; a content hash that is
    /// already stored is `StoreError.conflict` (the caller decides what re-importing means).
    public func insertPost(_ post: NewPost, maxAttempts: Int, now: Date) async throws -> (Post, Job) {
        try await write { db in
            if let existing = try Int64.fetchOne(db, sql: "SELECT id FROM posts WHERE content_hash = ?", arguments: [post.contentHash]) {
                throw StoreError.conflict("content \(post.contentHash) is already stored as post \(existing)")
            }
            try Self.requireLibrary(db, id: post.libraryID)
            let folderName = try Self.unusedFolderName(db, preferred: post.folderName)
            let metadata = post.metadata
            var arguments: StatementArguments = [
                folderName, post.kind.rawValue, PostStatus.queued.rawValue, metadata.description, metadata.uploader,
                metadata.username, metadata.shortcode, metadata.datePosted, metadata.sourceURL,
                RowDecoding.seconds(post.dateAdded), post.contentHash, post.filter.rawValue, post.createdBy,
                post.preparation.rawValue, post.libraryID, post.trim?.start, post.trim?.duration,
            ]
            arguments += StatementArguments(FeedShuffle.randomKeys())
            try db.execute(sql: Self.insertPostSQL, arguments: arguments)
            let postID = db.lastInsertedRowID
            try Vocabulary.tags.replace(db, postID: postID, names: metadata.tags)
            if let story = post.story { try Self.fileStory(db, postID: postID, story) }
            for (position, path) in post.sourcePaths.enumerated() {
                try db.execute(
                    sql: "INSERT INTO post_sources (post_id, position, path) VALUES (?, ?, ?)",
                    arguments: [postID, position, path]
                )
            }
            let job = try Self.enqueue(db, kind: .transcode, postID: postID, maxAttempts: maxAttempts, now: now)
            guard let stored = try Self.fetchPosts(db, where: "id = ?", [postID]).first else {
                throw StoreError.corrupt("post \(postID) vanished inside its own transaction")
            }
            return (stored, job)
        }
    }

    public func finishSourcePreparation(postID: Int64, sourcePath: String) async throws -> String? {
        try await write { db in
            let old = try String.fetchOne(db, sql: "SELECT path FROM post_sources WHERE post_id = ? AND position = 0", arguments: [postID])
            // Only the video is replaced: a video's subtitle files follow it in the sources.
            try db.execute(sql: "DELETE FROM post_sources WHERE post_id = ? AND position = 0", arguments: [postID])
            try db.execute(sql: "INSERT INTO post_sources (post_id, position, path) VALUES (?, 0, ?)", arguments: [postID, sourcePath])
            try db.execute(sql: "UPDATE posts SET preparation = 'as_is' WHERE id = ?", arguments: [postID])
            return old
        }
    }

    /// Replaces the descriptive metadata and the tags.
    public func updateMetadata(postID: Int64, metadata: PostMetadata) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE posts SET description = ?, uploader = ?, username = ?, shortcode = ?, date_posted = ?,
                                     source_url = ?
                    WHERE id = ?
                    """,
                arguments: [
                    metadata.description, metadata.uploader, metadata.username, metadata.shortcode,
                    metadata.datePosted, metadata.sourceURL, postID,
                ]
            )
            guard db.changesCount > 0 else { throw StoreError.notFound("post \(postID)") }
            try Vocabulary.tags.replace(db, postID: postID, names: metadata.tags)
        }
    }

    public func setStatus(postID: Int64, status: PostStatus, failureReason: String?) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE posts SET status = ?, failure_reason = ? WHERE id = ?",
                arguments: [status.rawValue, failureReason, postID]
            )
            guard db.changesCount > 0 else { throw StoreError.notFound("post \(postID)") }
        }
    }

    /// Marks the post `ready` (or `story`, when it was filed as a story and not kept as a post)
    /// with its media, its denormalised size and duration, and its key (a `nil` key removes any
    /// key of an earlier, encrypted publication), in one transaction.
    public func publish(postID: Int64, media: PublishedMedia, key: Data?) async throws {
        let json = try MediaJSON.encode(media)
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE posts SET status = CASE
                            WHEN EXISTS (SELECT 1 FROM story_items WHERE post_id = posts.id AND kept = 0) THEN ?
                            ELSE ? END,
                        media_json = ?, width = ?, height = ?, duration = ?, failure_reason = NULL
                    WHERE id = ?
                    """,
                arguments: [PostStatus.story.rawValue, PostStatus.ready.rawValue, json, media.width, media.height, media.duration, postID]
            )
            guard db.changesCount > 0 else { throw StoreError.notFound("post \(postID)") }
            if let key {
                try db.execute(sql: "INSERT OR REPLACE INTO post_keys (post_id, key) VALUES (?, ?)", arguments: [postID, key])
            } else {
                try db.execute(sql: "DELETE FROM post_keys WHERE post_id = ?", arguments: [postID])
            }
        }
    }

    public func encryptionKey(postID: Int64) async throws -> Data? {
        try await read { db in try Data.fetchOne(db, sql: "SELECT key FROM post_keys WHERE post_id = ?", arguments: [postID]) }
    }

    /// Deletes the post; its tag and flag links, viewers' state, sources, key and jobs go with it
    /// (ON DELETE CASCADE); tag and flag names stay, so their ids remain stable.
    /// Deleting a post that does not exist is not an error.
    public func deletePost(id: Int64) async throws {
        try await write { db in try db.execute(sql: "DELETE FROM posts WHERE id = ?", arguments: [id]) }
    }

    public func removePost(id: Int64) async throws -> [String]? {
        try await write { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM posts WHERE id = ?)", arguments: [id]) == true else { return nil }
            let paths = try String.fetchAll(db, sql: "SELECT DISTINCT path FROM post_sources WHERE post_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM posts WHERE id = ?", arguments: [id])
            return try paths.filter { path in
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM post_sources WHERE path = ?)", arguments: [path]) != true
            }
        }
    }

    public func editPost(id: Int64, description: String??, tags: [String]?) async throws {
        try await write { db in
            try Self.requirePost(db, id: id)
            if let description {
                let text = description.flatMap { $0.isEmpty ? nil : $0 }
                try db.execute(sql: "UPDATE posts SET description = ? WHERE id = ?", arguments: [text, id])
            }
            if let tags { try Vocabulary.tags.replace(db, postID: id, names: tags) }
        }
    }

    public func postIDs(status: PostStatus) async throws -> Set<Int64> {
        try await read { db in
            Set(try Int64.fetchAll(db, sql: "SELECT id FROM posts WHERE status = ?", arguments: [status.rawValue]))
        }
    }

    public func countPosts(status: PostStatus?) async throws -> Int {
        try await read { db in
            if let status {
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM posts WHERE status = ?", arguments: [status.rawValue]) ?? 0
            }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM posts") ?? 0
        }
    }

    // MARK: - Helpers inside a transaction

    /// `preferred`, or `preferred-2`, `preferred-3`… whichever is free first.
    static func unusedFolderName(_ db: Database, preferred: String) throws -> String {
        let base = preferred.isEmpty ? "post" : preferred
        var candidate = base
        var suffix = 2
        while try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM posts WHERE folder_name = ?)", arguments: [candidate]) == true {
            candidate = "\(base)-\(suffix)"
            suffix += 1
        }
        return candidate
    }

    /// Every `posts` column a new post sets, its shuffle keys last (random, fixed for life).
    static let insertPostSQL: String = {
        let keys = (0..<FeedShuffle.keyCount).map(FeedShuffleColumns.name)
        let columns = ["folder_name", "kind", "status", "description", "uploader", "username", "shortcode",
                       "date_posted", "source_url", "date_added", "content_hash", "filter", "created_by",
                       "preparation", "library_id", "trim_start", "trim_duration"] + keys
        return "INSERT INTO posts (\(columns.joined(separator: ", "))) VALUES (\(placeholders(columns.count)))"
    }()

    /// Posts matching `condition` (SQL over `posts`), newest first, with tags and flags loaded
    /// in two queries for the whole page rather than two per post.
    static func fetchPosts(_ db: Database, where condition: String, _ arguments: StatementArguments, limit: Int? = nil) throws -> [Post] {
        var sql = "SELECT * FROM posts WHERE \(condition) ORDER BY date_added DESC, id DESC"
        var arguments = arguments
        if let limit {
            sql += " LIMIT ?"
            arguments += [max(0, limit)]
        }
        return try decodePosts(db, rows: Row.fetchAll(db, sql: sql, arguments: arguments))
    }

    /// Rows holding every `posts` column, as posts in the same order, their tags and flags
    /// loaded with one query each for the whole batch.
    static func decodePosts(_ db: Database, rows: [Row]) throws -> [Post] {
        try decodeItems(db, rows: rows).map(\.post)
    }

    /// Posts with their tag and flag refs (ids and names), read in one query each for the
    /// whole batch; the viewer's state comes from the row when the query selected it.
    static func decodeItems(_ db: Database, rows: [Row]) throws -> [FeedItem] {
        guard let first = rows.first else { return [] }
        let columns = try PostColumns(first)
        let refs = try PostRefs(db, postIDs: rows.map { $0[columns.id] as Int64 })
        return try rows.map { try decodeItem($0, columns: columns, refs: refs) }
    }

    /// One post row with its refs from `refs`.
    static func decodeItem(_ row: Row, columns: PostColumns, refs: PostRefs) throws -> FeedItem {
        let id: Int64 = row[columns.id]
        let postTags = refs.tags[id] ?? []
        let postFlags = refs.flags[id] ?? []
        let post = try RowDecoding.post(row, columns: columns, tags: postTags.map(\.name), flags: postFlags.map(\.name))
        return FeedItem(post: post, viewer: RowDecoding.viewerState(row, columns: columns.viewer), tagRefs: postTags, flagRefs: postFlags)
    }
}

/// The tag and flag refs of a batch of posts, by post id: one query per link table.
struct PostRefs {
    let tags: [Int64: [TagCount]]
    let flags: [Int64: [TagCount]]

    init(_ db: Database, postIDs: [Int64]) throws {
        tags = try Vocabulary.tags.refs(db, postIDs: postIDs)
        flags = try Vocabulary.flags.refs(db, postIDs: postIDs)
    }
}
