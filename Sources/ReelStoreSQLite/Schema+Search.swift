import GRDB

extension Schema {
    /// v8: the search index, two FTS5 tables over ready posts, keyed by post id (rowid):
    ///
    /// - `post_search` holds a post's words by field (description, tags, people = uploader and
    ///   username, shortcode) with the `unicode61 remove_diacritics 2` tokenizer, so "leon" finds
    ///   "Léon" and "spider man" finds "Spider-Man"; its bm25 ranks the matches.
    /// - `post_search_substrings` holds the same text folded (`SearchFolding`) with the `trigram`
    ///   tokenizer, so part of a long word finds it ("brul" → "brûlée"). SQLite 3.40's trigram
    ///   tokenizer folds case but not diacritics, hence the folded copy.
    ///
    /// Like `posts.revision` (v7), triggers keep the index right for every writer: a post's
    /// rows are rewritten whenever its text, status or tags change, or a tag it carries is
    /// renamed, and removed when it is deleted. Posts that are not ready are not indexed, so
    /// queued imports cost the index nothing. The triggers call `reelhouse_search_fold`, which
    /// every connection of `SQLiteStore` registers: a tool writing posts through another SQLite
    /// client must register it too.
    static func addSearchIndex(_ db: Database) throws {
        try db.execute(sql: """
            CREATE VIRTUAL TABLE post_search USING fts5(
                description, tags, people, shortcode, tokenize = 'unicode61 remove_diacritics 2'
            );
            CREATE VIRTUAL TABLE post_search_substrings USING fts5(text, tokenize = 'trigram');
            -- What is indexed of each ready post, in one place for the triggers and the rebuild.
            CREATE VIEW post_search_documents AS
                SELECT p.id AS id,
                       coalesce(p.description, '') AS description,
                       coalesce((SELECT group_concat(t.name, ' ') FROM post_tag_ids l JOIN tags t ON t.id = l.tag_id
                                 WHERE l.post_id = p.id), '') AS tags,
                       trim(coalesce(p.uploader, '') || ' ' || coalesce(p.username, '')) AS people,
                       coalesce(p.shortcode, '') AS shortcode
                FROM posts p WHERE p.status = 'ready';
            \(SearchIndexSQL.triggers(.v8))
            """)
        try db.execute(sql: SearchIndexSQL.rebuild(.v8))
    }
}

/// The statements that write the search index, shared by the triggers and the rebuild. Each
/// layout is the index as one migration left it: v8's is kept as it was so that migration
/// still builds what it built.
enum SearchIndexSQL {
    enum Layout {
        /// v8: the word index and `post_search_substrings`, one folded text per post.
        case v8
        /// v12: `post_search_fields` alone, folded words by field.
        case fields
    }

    static let current = Layout.fields

    /// Removes the index rows of the posts whose id is `condition` (e.g. `= NEW.id`).
    static func remove(_ condition: String, _ layout: Layout = current) -> String {
        layout.tables.map { "DELETE FROM \($0) WHERE rowid \(condition);" }.joined(separator: "\n")
    }

    /// Rewrites the index rows of the posts whose id is `condition`: removed, then written
    /// again if the post is (still) ready.
    static func reindex(_ condition: String, _ layout: Layout = current) -> String {
        remove(condition, layout) + "\n" + insert("WHERE id \(condition)", layout)
    }

    static func insert(_ whereClause: String, _ layout: Layout = current) -> String {
        switch layout {
        case .v8:
            """
            INSERT INTO post_search (rowid, description, tags, people, shortcode)
                SELECT id, description, tags, people, shortcode FROM post_search_documents \(whereClause);
            INSERT INTO post_search_substrings (rowid, text)
                SELECT id, \(SearchFolding.sqlFunction)(description || ' ' || tags || ' ' || people || ' ' || shortcode)
                FROM post_search_documents \(whereClause);
            """
        case .fields:
            """
            INSERT INTO post_search_fields (rowid, description, tags, people, shortcode, joined)
                SELECT id, \(words)(description), \(words)(tags), \(words)(people), \(words)(shortcode),
                       \(SearchFolding.joinedSQLFunction)(description || ' ' || tags || ' ' || people || ' ' || shortcode)
                FROM post_search_documents \(whereClause);
            """
        }
    }

    private static var words: String { SearchFolding.wordsSQLFunction }

    /// The triggers that keep the index right (see `Schema.addSearchIndex`).
    static func triggers(_ layout: Layout) -> String {
        """
        CREATE TRIGGER posts_search_on_insert AFTER INSERT ON posts
            BEGIN \(reindex("= NEW.id", layout)) END;
        CREATE TRIGGER posts_search_on_update AFTER UPDATE OF description, uploader, username, shortcode, status ON posts
            BEGIN \(reindex("= NEW.id", layout)) END;
        CREATE TRIGGER posts_search_on_delete AFTER DELETE ON posts
            BEGIN \(remove("= OLD.id", layout)) END;
        CREATE TRIGGER post_tag_ids_search_on_insert AFTER INSERT ON post_tag_ids
            BEGIN \(reindex("= NEW.post_id", layout)) END;
        CREATE TRIGGER post_tag_ids_search_on_delete AFTER DELETE ON post_tag_ids
            BEGIN \(reindex("= OLD.post_id", layout)) END;
        CREATE TRIGGER tags_search_on_rename AFTER UPDATE OF name ON tags
            BEGIN \(reindex("IN (SELECT post_id FROM post_tag_ids WHERE tag_id = NEW.id)", layout)) END;
        """
    }

    static let triggerNames = [
        "posts_search_on_insert", "posts_search_on_update", "posts_search_on_delete",
        "post_tag_ids_search_on_insert", "post_tag_ids_search_on_delete", "tags_search_on_rename",
    ]

    /// Empties the index and fills it from every ready post.
    static func rebuild(_ layout: Layout = current) -> String {
        layout.tables.map { "DELETE FROM \($0);" }.joined(separator: "\n") + "\n" + insert("", layout)
    }
}

extension SearchIndexSQL.Layout {
    var tables: [String] { self == .v8 ? ["post_search", "post_search_substrings"] : ["post_search_fields"] }
}
