import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore
import ReelStoreCore

extension PostgresStore: LibraryStore {
    /// Every column a `Post` is read from; media as text, decoded in Swift as SQLite's store does.
    static let postColumns = """
        id, folder_name, kind, status, description, uploader, username, shortcode, date_posted, source_url, date_added,
        content_hash, media_json::text AS media_json, failure_reason, filter, created_by, preparation, library_id,
        trim_start, trim_duration
        """

    public func post(id: Int64) async throws -> Post? {
        try await snapshot { connection in try await Self.fetchPosts(connection, where: "id = $1", [id], logger: logger).first }
    }

    public func post(folderName: String) async throws -> Post? {
        try await snapshot { connection in
            try await Self.fetchPosts(connection, where: "folder_name = $1", [folderName], logger: logger).first
        }
    }

    public func post(contentHash: String) async throws -> Post? {
        try await snapshot { connection in
            try await Self.fetchPosts(connection, where: "content_hash = $1", [contentHash], logger: logger).first
        }
    }

    /// Newest first (by date added, then id).
    public func posts(status: PostStatus?, limit: Int) async throws -> [Post] {
        try await snapshot { connection in
            if let status {
                return try await Self.fetchPosts(connection, where: "status = $1", [status.rawValue], limit: limit, logger: logger)
            }
            return try await Self.fetchPosts(connection, where: "true", [], limit: limit, logger: logger)
        }
    }

    public func sourcePaths(postID: Int64) async throws -> [String] {
        try await read { connection in
            try await connection.query("SELECT path FROM post_sources WHERE post_id = \(postID) ORDER BY position", logger: logger)
                .collect().map { try $0.decode(String.self) }
        }
    }

    /// Inserts the post (`queued`), its tags, sources and story filing, and its `transcode` job
    /// in one transaction. A taken folder name gets `-2`, `-3`… appended; a content hash that
    /// is already stored is `StoreError.conflict`.
    public func insertPost(_ post: NewPost, maxAttempts: Int, now: Date) async throws -> (Post, Job) {
        try await write { connection in
            if let existing = try await connection.query(
                "SELECT id FROM posts WHERE content_hash = \(post.contentHash)", logger: logger
            ).collect().first {
                throw StoreError.conflict("content \(post.contentHash) is already stored as post \(try existing.decode(Int64.self))")
            }
            try await Self.requireRow(connection, "SELECT 1 FROM libraries WHERE id = $1", post.libraryID, missing: "library \(post.libraryID)", logger: logger)
            let folderName = try await Self.unusedFolderName(connection, preferred: post.folderName, logger: logger)
            let metadata = post.metadata
            let titleKey = Self.titleKey(description: metadata.description, shortcode: metadata.shortcode, folderName: folderName)
            var bindings = PostgresBindings()
            bindings.append(folderName)
            bindings.append(post.kind.rawValue)
            bindings.append(PostStatus.queued.rawValue)
            bindings.append(metadata.description)
            bindings.append(metadata.uploader)
            bindings.append(metadata.username)
            bindings.append(metadata.shortcode)
            bindings.append(metadata.datePosted)
            bindings.append(metadata.sourceURL)
            bindings.append(post.dateAdded.timeIntervalSince1970)
            bindings.append(post.contentHash)
            bindings.append(post.filter.rawValue)
            bindings.append(post.createdBy)
            bindings.append(post.preparation.rawValue)
            bindings.append(post.libraryID)
            bindings.append(post.trim?.start)
            bindings.append(post.trim?.duration)
            bindings.append(titleKey)
            bindings.append(UploaderKey.key(uploader: metadata.uploader, username: metadata.username))
            for key in FeedShuffle.randomKeys() { bindings.append(key) }
            let rows = try await connection.query(PostgresQuery(unsafeSQL: Self.insertPostSQL, binds: bindings), logger: logger).collect()
            guard let postID = try rows.first?.decode(Int64.self) else { throw StoreError.corrupt("post insert returned no row") }
            try await Vocabulary.tags.replace(connection, postID: postID, names: metadata.tags, logger: logger)
            if let story = post.story { try await Self.fileStory(connection, postID: postID, story, logger: logger) }
            for (position, path) in post.sourcePaths.enumerated() {
                try await connection.query(
                    "INSERT INTO post_sources (post_id, position, path) VALUES (\(postID), \(position), \(path))", logger: logger
                )
            }
            let job = try await Self.enqueue(connection, kind: .transcode, postID: postID, maxAttempts: maxAttempts, now: now, logger: logger)
            guard let stored = try await Self.fetchPosts(connection, where: "id = $1", [postID], logger: logger).first else {
                throw StoreError.corrupt("post \(postID) vanished inside its own transaction")
            }
            return (stored, job)
        }
    }

    public func finishSourcePreparation(postID: Int64, sourcePath: String) async throws -> String? {
        try await write { connection in
            let old = try await connection.query(
                "DELETE FROM post_sources WHERE post_id = \(postID) AND position = 0 RETURNING path", logger: logger
            ).collect().first?.decode(String.self)
            // Only the video is replaced: a video's subtitle files follow it in the sources.
            try await connection.query("INSERT INTO post_sources (post_id, position, path) VALUES (\(postID), 0, \(sourcePath))", logger: logger)
            try await connection.query("UPDATE posts SET preparation = 'as_is' WHERE id = \(postID)", logger: logger)
            return old
        }
    }

    /// Replaces the descriptive metadata and the tags.
    public func updateMetadata(postID: Int64, metadata: PostMetadata) async throws {
        try await write { connection in
            let rows = try await connection.query("""
                UPDATE posts SET description = \(metadata.description), uploader = \(metadata.uploader), username = \(metadata.username),
                                 shortcode = \(metadata.shortcode), date_posted = \(metadata.datePosted), source_url = \(metadata.sourceURL),
                                 uploader_key = \(UploaderKey.key(uploader: metadata.uploader, username: metadata.username))
                WHERE id = \(postID)
                RETURNING description, shortcode, folder_name
                """, logger: logger).collect()
            guard let row = rows.first else { throw StoreError.notFound("post \(postID)") }
            try await Self.refreshTitleKey(connection, postID: postID, row: row, logger: logger)
            try await Vocabulary.tags.replace(connection, postID: postID, names: metadata.tags, logger: logger)
        }
    }

    public func setStatus(postID: Int64, status: PostStatus, failureReason: String?) async throws {
        try await write { connection in
            let rows = try await connection.query(
                "UPDATE posts SET status = \(status.rawValue), failure_reason = \(failureReason) WHERE id = \(postID) RETURNING id",
                logger: logger
            ).collect()
            guard !rows.isEmpty else { throw StoreError.notFound("post \(postID)") }
        }
    }

    /// Marks the post `ready` (or `story`, when it was filed as a story and not kept) with its
    /// media, size, duration and key (nil removes the key of an earlier encrypted publication).
    public func publish(postID: Int64, media: PublishedMedia, key: Data?) async throws {
        let json = try MediaJSON.encode(media)
        try await write { connection in
            let rows = try await connection.query("""
                UPDATE posts SET status = CASE
                        WHEN EXISTS (SELECT 1 FROM story_items WHERE post_id = posts.id AND NOT kept) THEN \(PostStatus.story.rawValue)
                        ELSE \(PostStatus.ready.rawValue) END,
                    media_json = \(json)::jsonb, width = \(media.width), height = \(media.height), duration = \(media.duration),
                    failure_reason = NULL
                WHERE id = \(postID)
                RETURNING id
                """, logger: logger).collect()
            guard !rows.isEmpty else { throw StoreError.notFound("post \(postID)") }
            if let key {
                try await connection.query("""
                    INSERT INTO post_keys (post_id, key) VALUES (\(postID), \(ByteBuffer(bytes: key)))
                    ON CONFLICT (post_id) DO UPDATE SET key = EXCLUDED.key
                    """, logger: logger)
            } else {
                try await connection.query("DELETE FROM post_keys WHERE post_id = \(postID)", logger: logger)
            }
        }
    }

    public func encryptionKey(postID: Int64) async throws -> Data? {
        try await read { connection in
            guard let row = try await connection.query("SELECT key FROM post_keys WHERE post_id = \(postID)", logger: logger)
                .collect().first else { return nil }
            let buffer = try row.decode(ByteBuffer.self)
            return Data(buffer.readableBytesView)
        }
    }

    /// Deletes the post; links, viewers' state, sources, key and jobs go with it (ON DELETE
    /// CASCADE); tag and flag names stay. Deleting a post that does not exist is not an error.
    public func deletePost(id: Int64) async throws {
        try await write { connection in
            _ = try await connection.query("DELETE FROM posts WHERE id = \(id)", logger: logger)
        }
    }

    public func removePost(id: Int64) async throws -> [String]? {
        try await write { connection in
            guard try await !connection.query("SELECT 1 FROM posts WHERE id = \(id) FOR UPDATE", logger: logger).collect().isEmpty
            else { return nil }
            let paths = try await connection.query(
                "SELECT DISTINCT path FROM post_sources WHERE post_id = \(id) ORDER BY path", logger: logger
            ).collect().map { try $0.decode(String.self) }
            try await connection.query("DELETE FROM posts WHERE id = \(id)", logger: logger)
            let stillUsed = try await connection.query(
                "SELECT DISTINCT path FROM post_sources WHERE path = ANY(\(paths))", logger: logger
            ).collect().map { try $0.decode(String.self) }
            return paths.filter { !stillUsed.contains($0) }
        }
    }

    public func editPost(id: Int64, description: String??, tags: [String]?) async throws {
        try await write { connection in
            try await Self.requireRow(connection, "SELECT 1 FROM posts WHERE id = $1", id, missing: "post \(id)", logger: logger)
            if let description {
                let text = description.flatMap { $0.isEmpty ? nil : $0 }
                let rows = try await connection.query(
                    "UPDATE posts SET description = \(text) WHERE id = \(id) RETURNING description, shortcode, folder_name", logger: logger
                ).collect()
                if let row = rows.first { try await Self.refreshTitleKey(connection, postID: id, row: row, logger: logger) }
            }
            if let tags { try await Vocabulary.tags.replace(connection, postID: id, names: tags, logger: logger) }
        }
    }

    public func postIDs(status: PostStatus) async throws -> Set<Int64> {
        try await read { connection in
            Set(try await connection.query("SELECT id FROM posts WHERE status = \(status.rawValue)", logger: logger)
                .collect().map { try $0.decode(Int64.self) })
        }
    }

    public func countPosts(status: PostStatus?) async throws -> Int {
        try await read { connection in
            let rows = try await connection.query(
                "SELECT count(*) FROM posts WHERE \(status?.rawValue)::text IS NULL OR status = \(status?.rawValue)", logger: logger
            ).collect()
            return Int(try rows.first?.decode(Int64.self) ?? 0)
        }
    }

    // MARK: - Helpers inside a transaction

    /// Every column a new post sets, its title, uploader and shuffle keys last.
    static let insertPostSQL: String = {
        let columns = ["folder_name", "kind", "status", "description", "uploader", "username", "shortcode",
                       "date_posted", "source_url", "date_added", "content_hash", "filter", "created_by",
                       "preparation", "library_id", "trim_start", "trim_duration", "title_key", "uploader_key"]
            + (0..<FeedShuffle.keyCount).map { "shuffle\($0)" }
        let placeholders = (1...columns.count).map { "$\($0)" }.joined(separator: ", ")
        return "INSERT INTO posts (\(columns.joined(separator: ", "))) VALUES (\(placeholders)) RETURNING id"
    }()

    /// The A–Z key, from the same Swift function SQLite's trigger calls.
    static func titleKey(description: String?, shortcode: String?, folderName: String) -> String {
        TitleSortKey.key(for: PostTitle.title(description: description, shortcode: shortcode, folderName: folderName))
    }

    /// Rewrites `title_key` from a row of `description, shortcode, folder_name` when it changed
    /// (what SQLite's update trigger does).
    static func refreshTitleKey(_ connection: PostgresConnection, postID: Int64, row: PostgresRow, logger: Logger) async throws {
        let (description, shortcode, folderName) = try row.decode((String?, String?, String).self)
        let key = titleKey(description: description, shortcode: shortcode, folderName: folderName)
        try await connection.query(
            "UPDATE posts SET title_key = \(key) WHERE id = \(postID) AND title_key IS DISTINCT FROM \(key)", logger: logger
        )
    }

    /// `preferred`, or `preferred-2`, `preferred-3`… whichever is free first.
    static func unusedFolderName(_ connection: PostgresConnection, preferred: String, logger: Logger) async throws -> String {
        let base = preferred.isEmpty ? "post" : preferred
        var candidate = base
        var suffix = 2
        while try await !connection.query("SELECT 1 FROM posts WHERE folder_name = \(candidate)", logger: logger).collect().isEmpty {
            candidate = "\(base)-\(suffix)"
            suffix += 1
        }
        return candidate
    }

    static func requireRow(
        _ connection: PostgresConnection, _ sql: String, _ id: Int64, missing: String, logger: Logger
    ) async throws {
        var bindings = PostgresBindings()
        bindings.append(id)
        guard try await !connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).collect().isEmpty else {
            throw StoreError.notFound(missing)
        }
    }

    /// Posts matching `condition` (SQL over `posts` with `$1…` for `arguments`), newest first,
    /// with tags and flags loaded in one query each for the whole batch.
    static func fetchPosts(
        _ connection: PostgresConnection, where condition: String, _ arguments: [any PostgresEncodable & Sendable],
        limit: Int? = nil, logger: Logger
    ) async throws -> [Post] {
        var bindings = PostgresBindings()
        for argument in arguments { try bindings.append(argument) }
        var sql = "SELECT \(postColumns) FROM posts WHERE \(condition) ORDER BY date_added DESC, id DESC"
        if let limit {
            bindings.append(max(0, limit))
            sql += " LIMIT $\(arguments.count + 1)"
        }
        let rows = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).collect()
        let ids = try rows.map { try $0.makeRandomAccess()["id"].decode(Int64.self) }
        let tags = try await Vocabulary.tags.names(connection, postIDs: ids, logger: logger)
        let flags = try await Vocabulary.flags.names(connection, postIDs: ids, logger: logger)
        return try rows.map { row in try post(row, tags: tags, flags: flags) }
    }

    static func post(_ row: PostgresRow, tags: [Int64: [String]], flags: [Int64: [String]]) throws -> Post {
        let columns = row.makeRandomAccess()
        let id = try columns["id"].decode(Int64.self)
        func value<T: PostgresDecodable>(_ name: String, _ type: T.Type) throws -> T { try columns[name].decode(T.self) }
        func enumValue<E: RawRepresentable<String>>(_ name: String, _ type: E.Type) throws -> E {
            let raw = try columns[name].decode(String.self)
            guard let parsed = E(rawValue: raw) else { throw StoreError.corrupt("post \(id) \(name) has unknown value \(raw)") }
            return parsed
        }
        var media: PublishedMedia?
        if let json = try value("media_json", String?.self) { media = try MediaJSON.decode(json, postID: id) }
        let trim: SourceTrim?
        switch (try value("trim_start", Double?.self), try value("trim_duration", Double?.self)) {
        case (nil, nil): trim = nil
        case (let start?, let duration?) where start >= 0 && duration > 0: trim = SourceTrim(start: start, duration: duration)
        case (let start, let duration):
            throw StoreError.corrupt("post \(id) trim_start/trim_duration are \(start.map { "\($0)" } ?? "NULL")/\(duration.map { "\($0)" } ?? "NULL")")
        }
        return Post(
            id: id,
            folderName: try value("folder_name", String.self),
            kind: try enumValue("kind", PostKind.self),
            status: try enumValue("status", PostStatus.self),
            metadata: PostMetadata(
                description: try value("description", String?.self), uploader: try value("uploader", String?.self),
                username: try value("username", String?.self), shortcode: try value("shortcode", String?.self),
                datePosted: try value("date_posted", String?.self), sourceURL: try value("source_url", String?.self),
                tags: tags[id] ?? []
            ),
            flags: flags[id] ?? [],
            dateAdded: Date(timeIntervalSince1970: try value("date_added", Double.self)),
            contentHash: try value("content_hash", String.self),
            media: media,
            failureReason: try value("failure_reason", String?.self),
            filter: try enumValue("filter", VideoFilter.self),
            createdBy: try value("created_by", Int64?.self),
            preparation: try enumValue("preparation", SourcePreparation.self),
            libraryID: try value("library_id", Int64.self),
            trim: trim
        )
    }
}

extension PostgresStore: StoryFilingStore {
    public func fileStory(postID: Int64, _ filing: StoryFiling) async throws {
        try await write { connection in
            try await Self.requireRow(connection, "SELECT 1 FROM posts WHERE id = $1 FOR UPDATE", postID, missing: "post \(postID)", logger: logger)
            try await Self.fileStory(connection, postID: postID, filing, logger: logger)
            // A post filed after it was published moves out of the listings into the tray.
            try await connection.query(
                "UPDATE posts SET status = \(PostStatus.story.rawValue) WHERE id = \(postID) AND status = \(PostStatus.ready.rawValue)",
                logger: logger
            )
        }
    }

    /// The filing row itself, shared by `fileStory` and `insertPost`.
    static func fileStory(_ connection: PostgresConnection, postID: Int64, _ filing: StoryFiling, logger: Logger) async throws {
        let author = filing.author.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !author.isEmpty else { throw StoreError.invalid("a story needs an author") }
        guard filing.parts >= 1, (0..<filing.parts).contains(filing.part) else {
            throw StoreError.invalid("story part \(filing.part) of \(filing.parts) is out of range")
        }
        try await connection.query("""
            INSERT INTO story_items (post_id, author, author_key, user_id, posted_at, expires_at, archived, kept, expired, part, parts)
            VALUES (\(postID), \(author), \(author.lowercased()), \(filing.userID), \(filing.postedAt.timeIntervalSince1970),
                    \(filing.expiresAt?.timeIntervalSince1970), \(filing.archived), false, false, \(filing.part), \(filing.parts))
            ON CONFLICT (post_id) DO UPDATE SET
                author = EXCLUDED.author, author_key = EXCLUDED.author_key, user_id = EXCLUDED.user_id,
                posted_at = EXCLUDED.posted_at, expires_at = EXCLUDED.expires_at, archived = EXCLUDED.archived,
                kept = false, expired = false, part = EXCLUDED.part, parts = EXCLUDED.parts
            """, logger: logger)
    }
}
