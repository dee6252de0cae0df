import Foundation
import GRDB
import ReelModels
import ReelStore

extension SQLiteStore: StoryFilingStore {
    public func fileStory(postID: Int64, _ filing: StoryFiling) async throws {
        try await write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM posts WHERE id = ?", arguments: [postID]) != nil else {
                throw StoreError.notFound("post \(postID)")
            }
            try Self.fileStory(db, postID: postID, filing)
            // A post filed after it was published moves out of the listings into the tray.
            try db.execute(
                sql: "UPDATE posts SET status = ? WHERE id = ? AND status = ?",
                arguments: [PostStatus.story.rawValue, postID, PostStatus.ready.rawValue]
            )
        }
    }

    /// The filing row itself, shared by `fileStory` and `insertPost` (which files a new post in
    /// the transaction that creates it).
    static func fileStory(_ db: Database, postID: Int64, _ filing: StoryFiling) throws {
        let author = filing.author.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !author.isEmpty else { throw StoreError.invalid("a story needs an author") }
        guard filing.parts >= 1, (0..<filing.parts).contains(filing.part) else {
            throw StoreError.invalid("story part \(filing.part) of \(filing.parts) is out of range")
        }
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO story_items
                    (post_id, author, author_key, user_id, posted_at, expires_at, archived, kept, expired, part, parts)
                VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?)
                """,
            arguments: [
                postID, author, author.lowercased(), filing.userID, filing.postedAt.timeIntervalSince1970,
                filing.expiresAt?.timeIntervalSince1970, filing.archived, filing.part, filing.parts,
            ]
        )
    }
}
