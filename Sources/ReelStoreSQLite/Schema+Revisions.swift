import GRDB
import ReelStoreCore

extension Schema {
    /// v7: `posts.revision`, a number that changes whenever anything a post is read from
    /// changes: its own row, its tag and flag links, or the name of one of its tags or flags.
    ///
    /// The feed reads only ids, revisions and the viewer's state per page and takes the rest
    /// from posts it already decoded at that revision (`FeedPostCache`): decoding every row of
    /// every page was the largest cost of a feed request. Triggers keep the number right for
    /// every writer, present and future, instead of each write remembering to bump it. Ids are
    /// never reused (AUTOINCREMENT), so (id, revision) names one version of one post.
    static func addPostRevisions(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE posts ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
            CREATE TRIGGER posts_revision_on_update AFTER UPDATE ON posts
                WHEN NEW.revision = OLD.revision
                BEGIN UPDATE posts SET revision = OLD.revision + 1 WHERE id = NEW.id; END;
            """)
        for (vocabulary, link, column) in [("tags", "post_tag_ids", "tag_id"), ("flags", "post_flag_ids", "flag_id")] {
            try db.execute(sql: """
                CREATE TRIGGER \(link)_revision_on_insert AFTER INSERT ON \(link)
                    BEGIN UPDATE posts SET revision = revision + 1 WHERE id = NEW.post_id; END;
                CREATE TRIGGER \(link)_revision_on_delete AFTER DELETE ON \(link)
                    BEGIN UPDATE posts SET revision = revision + 1 WHERE id = OLD.post_id; END;
                CREATE TRIGGER \(vocabulary)_revision_on_rename AFTER UPDATE OF name ON \(vocabulary)
                    BEGIN
                        UPDATE posts SET revision = revision + 1
                        WHERE id IN (SELECT post_id FROM \(link) WHERE \(column) = NEW.id);
                    END;
                """)
        }
    }
}
