import Foundation
import GRDB
import ReelModels

extension Schema {
    /// v9: the catalog (issue 14): browsing in an order, shelves and collections.
    ///
    /// - `posts.title_key`: the A–Z sort key of the post's title (`TitleSortKey` of
    ///   `PostTitle`), kept by triggers like the search index (v8), so every writer keeps it
    ///   right. The triggers call `reelhouse_title_key`, which every connection of
    ///   `SQLiteStore` registers. An insert that already wrote the right key costs one call.
    /// - Partial indexes over ready posts for each browse order, each ending in `id` (the tie
    ///   break), so a page is an index seek after the keyset cursor at any depth.
    /// - `post_user_state.position_at`: when the position was last saved (Continue watching
    ///   lists the most recent first).
    /// - `collections` and their ordered `collection_items`; deleting a post or a collection
    ///   removes its memberships (ON DELETE CASCADE).
    static func addCatalog(_ db: Database) throws {
        let key = "\(TitleKeyFunction.name)(NEW.description, NEW.shortcode, NEW.folder_name)"
        try db.execute(sql: """
            ALTER TABLE posts ADD COLUMN title_key TEXT NOT NULL DEFAULT '';
            UPDATE posts SET title_key = \(TitleKeyFunction.name)(description, shortcode, folder_name);
            CREATE TRIGGER posts_title_key_on_insert AFTER INSERT ON posts
                WHEN NEW.title_key IS NOT \(key)
                BEGIN UPDATE posts SET title_key = \(key) WHERE id = NEW.id; END;
            CREATE TRIGGER posts_title_key_on_update AFTER UPDATE OF description, shortcode, folder_name ON posts
                WHEN NEW.title_key IS NOT \(key)
                BEGIN UPDATE posts SET title_key = \(key) WHERE id = NEW.id; END;

            CREATE INDEX posts_ready_by_title ON posts(title_key, id) WHERE status = 'ready';
            CREATE INDEX posts_ready_by_added ON posts(date_added, id) WHERE status = 'ready';
            CREATE INDEX posts_ready_by_posted ON posts(coalesce(date_posted, ''), id) WHERE status = 'ready';
            CREATE INDEX posts_ready_by_duration ON posts(coalesce(duration, 0), id) WHERE status = 'ready';

            ALTER TABLE post_user_state ADD COLUMN position_at REAL;

            CREATE TABLE collections (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL
            );
            CREATE TABLE collection_items (
                collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
                post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                added_at REAL NOT NULL,
                PRIMARY KEY (collection_id, post_id)
            ) WITHOUT ROWID;
            CREATE INDEX collection_items_in_order ON collection_items(collection_id, position, post_id);
            CREATE INDEX collection_items_by_post ON collection_items(post_id);
            """)
    }
}

/// `reelhouse_title_key(description, shortcode, folder_name)`: the A–Z key of a post's title,
/// registered on every connection (the v9 triggers call it). Pure, so SQLite may reuse results.
enum TitleKeyFunction {
    static let name = "reelhouse_title_key"

    static func key(description: String?, shortcode: String?, folderName: String) -> String {
        TitleSortKey.key(for: PostTitle.title(description: description, shortcode: shortcode, folderName: folderName))
    }

    static let function = DatabaseFunction(name, argumentCount: 3, pure: true) { values in
        key(description: String.fromDatabaseValue(values[0]), shortcode: String.fromDatabaseValue(values[1]),
            folderName: String.fromDatabaseValue(values[2]) ?? "")
    }
}
