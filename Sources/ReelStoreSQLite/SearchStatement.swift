import Foundation
import GRDB
import ReelStore

/// Turns a parsed `SearchQuery` into one SQL statement. Every word reaches FTS5 only as a
/// quoted string (`FTS5Term`), so no input can be FTS5 syntax.
///
/// Which posts match: each word as a word prefix in any field (`post_search`) or, from three
/// characters, as a substring of the folded text (`post_search_substrings`); each phrase in
/// order; each `@` word as a prefix of the uploader or username; the tag filters; ready posts
/// only. The set is the INTERSECT of one subquery per condition, so each is answered by its
/// own index.
///
/// In what order: bm25 over the word-prefix index, tags weighing most, then people, shortcode
/// and description; posts found only as substrings follow, newest first.
struct SearchStatement {
    /// bm25 weights by `post_search` column: description, tags, people, shortcode.
    static let weights = "1.0, 4.0, 3.0, 2.0"

    let sql: String
    let arguments: StatementArguments

    /// `libraryIDs`: only posts in these libraries; nil: every library.
    init(userID: Int64, query: SearchQuery, libraryIDs: [Int64]? = nil, offset: Int, limit: Int) {
        var sets: [String] = []
        var arguments: StatementArguments = []
        var ranking: [String] = []
        for word in query.words {
            let prefix = FTS5Term.prefix([word])
            ranking.append(prefix)
            let folded = SearchFolding.fold(word)
            if folded.unicodeScalars.count >= 3 {
                sets.append("""
                    SELECT id FROM (SELECT rowid AS id FROM post_search WHERE post_search MATCH ?
                                    UNION SELECT rowid AS id FROM post_search_substrings WHERE post_search_substrings MATCH ?)
                    """)
                arguments += [prefix, FTS5Term.quoted(folded)]
            } else {
                // The trigram index cannot match fewer than three characters.
                sets.append("SELECT rowid AS id FROM post_search WHERE post_search MATCH ?")
                arguments += [prefix]
            }
        }
        for phrase in query.phrases {
            ranking.append(FTS5Term.prefix(phrase))
        }
        if !query.people.isEmpty {
            ranking.append("people : (" + query.people.map { FTS5Term.prefix([$0]) }.joined(separator: " AND ") + ")")
        }
        // Phrases and people need no substring fallback: one statement on the word index covers them.
        let exact = ranking.dropFirst(query.words.count)
        if !exact.isEmpty {
            sets.append("SELECT rowid AS id FROM post_search WHERE post_search MATCH ?")
            arguments += [exact.joined(separator: " AND ")]
        }
        for tag in query.tags {
            // Joined with ready posts: the text indexes hold only ready posts, tag links hold every post.
            sets.append("""
                SELECT l.post_id AS id FROM post_tag_ids l JOIN tags t ON t.id = l.tag_id
                JOIN posts p ON p.id = l.post_id AND p.status = 'ready' WHERE t.name = ?
                """)
            arguments += [tag]
        }
        if sets.isEmpty {
            // Only exclusions: every ready post is a candidate.
            sets.append("SELECT id FROM posts WHERE status = 'ready'")
        }
        var matched = sets.joined(separator: " INTERSECT ")
        for tag in query.excludedTags {
            matched += " EXCEPT SELECT l.post_id AS id FROM post_tag_ids l JOIN tags t ON t.id = l.tag_id WHERE t.name = ?"
            arguments += [tag]
        }

        var sql = "WITH matched(id) AS (\(matched))"
        var score = "NULL"
        var joinRanked = ""
        if !ranking.isEmpty {
            // Materialized: computed once for the whole query, then joined by id.
            sql += ", ranked(id, score) AS MATERIALIZED (SELECT rowid, bm25(post_search, \(Self.weights)) FROM post_search WHERE post_search MATCH ?)"
            arguments += [ranking.joined(separator: " AND ")]
            score = "r.score"
            joinRanked = "LEFT JOIN ranked r ON r.id = m.id"
        }
        // The page is cut from the matched ids alone (every set above holds only ready posts),
        // so only its own rows are joined with posts and the viewer's state, not every match;
        // a library scope joins each match with its post's library before the cut.
        var joinLibrary = ""
        if let libraryIDs {
            joinLibrary = "JOIN posts l ON l.id = m.id AND l.library_id IN (\(SQLiteStore.placeholders(libraryIDs.count)))"
            arguments += StatementArguments(libraryIDs)
        }
        sql += """
            , page(id, score) AS MATERIALIZED (
                SELECT m.id, \(score) FROM matched m \(joinLibrary) \(joinRanked)
                ORDER BY \(score) IS NULL, \(score), m.id DESC LIMIT ? OFFSET ?
            )
            """
        arguments += [limit, offset]
        // The same columns as a feed page (`FeedQuery.Column`), so `FeedPostCache` makes the items.
        sql += """
             SELECT p.id, p.revision, 0 AS feed_key,
                    s.favorited_at AS viewer_favorited_at, s.rating AS viewer_rating,
                    s.position AS viewer_position, s.seen_at AS viewer_seen_at
             FROM page g CROSS JOIN posts p ON p.id = g.id
             LEFT JOIN post_user_state s ON s.user_id = ? AND s.post_id = p.id
             WHERE p.status = 'ready'
             ORDER BY g.score IS NULL, g.score, g.id DESC
            """
        arguments += [userID]
        self.sql = sql
        self.arguments = arguments
    }
}

/// Words as FTS5 strings: always double-quoted with inner quotes doubled, which FTS5 reads as
/// plain text to tokenize, never as an operator, column filter or NEAR group.
enum FTS5Term {
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The words as a phrase whose last word may be a prefix (`"spider ma"*`).
    static func prefix(_ words: [String]) -> String {
        quoted(words.joined(separator: " ")) + "*"
    }
}
