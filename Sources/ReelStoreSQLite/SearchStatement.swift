import Foundation
import GRDB
import ReelStore
import ReelStoreCore

/// Turns a `SearchPlan` into one SQL statement over `post_search_fields` (folded words by
/// field with a space on either side, trigram-indexed: see `Schema.addSearchFields`). Every
/// piece reaches FTS5 only as a quoted string (`FTS5Term`), so no input can be FTS5 syntax.
///
/// Which posts match (the plan's rules), all as one FTS5 AND: a word of three letters or more
/// anywhere inside a word or a joined word (`"brul"`); a word's start (`" mr"`); a whole word
/// (`" a "`); a phrase as consecutive words, the last one a prefix (`" mr rob"`); `@` words
/// the same in the `people` column (`people : " zoe"`). With
/// text to match, a tag filter narrows the FTS5 walk to posts whose tags hold the tag's words,
/// then the tag links confirm the exact name; tags alone walk the first tag's links in id
/// order instead. Excluded tags are checked on the tag links. Ready posts only (the
/// index holds nothing else).
///
/// Bounded work, whatever the query: the newest `candidates` matches are found by walking the
/// index in id order and stopping there (FTS5 answers `ORDER BY rowid DESC LIMIT n` without
/// visiting every match), and only they are ranked. A query matching fewer posts is ranked in
/// full; a broad one ranks its newest `candidates`, which is as deep as results go
/// (`SQLiteStore.maxSearchResults`). The rank: for each searched word, the fields it occurs in —
/// tags weigh most, then people, shortcode, and description or joined words — then newest
/// first (`SearchField`). The order depends only on the posts, so offsets into it (the cursors) stay put.
struct SearchStatement {
    let sql: String
    let arguments: StatementArguments
    /// The folded words the ranking looked for, for clients to highlight.
    let terms: [String]

    /// `libraryIDs`: only posts in these libraries; nil: every library.
    init(userID: Int64, plan: SearchPlan, libraryIDs: [Int64]? = nil, offset: Int, limit: Int, candidates: Int) {
        var match: [String] = []
        for condition in plan.conditions {
            switch condition {
            case .inside(let word): match.append(FTS5Term.quoted(word))
            case .wordStart(let word, let peopleOnly): match.append(Self.field(peopleOnly) + FTS5Term.quoted(" \(word)"))
            case .wholeWord(let word, let peopleOnly): match.append(Self.field(peopleOnly) + FTS5Term.quoted(" \(word) "))
            case .phrase(let words): match.append(FTS5Term.quoted(" " + words.joined(separator: " ")))
            }
        }
        if !match.isEmpty {
            for tag in plan.tags {
                // The tag's words, whole: a superset of the posts with that tag, confirmed below.
                let words = SearchFolding.words(tag)
                if !words.isEmpty { match.append("tags : " + FTS5Term.quoted(words)) }
            }
        }

        var arguments: StatementArguments = []
        let driver: String
        let id: String
        var confirmedTags = plan.tags
        if !match.isEmpty {
            id = "post_search_fields.rowid"
            driver = "SELECT rowid AS id FROM post_search_fields WHERE post_search_fields MATCH ?"
            arguments += [match.joined(separator: " AND ")]
        } else if let first = plan.tags.first {
            // Tags alone: the first tag's links in id order (an index walk), ready posts only.
            id = "l0.post_id"
            driver = """
                SELECT l0.post_id AS id FROM post_tag_ids l0
                WHERE l0.tag_id = (SELECT t.id FROM tags t WHERE t.name = ?)
                  AND EXISTS (SELECT 1 FROM posts p WHERE p.id = l0.post_id AND p.status = 'ready')
                """
            arguments += [first]
            confirmedTags.removeFirst()
        } else {
            // Only exclusions: every ready post is a candidate.
            id = "posts.id"
            driver = "SELECT id FROM posts WHERE status = 'ready'"
        }
        var filters: [String] = []
        for tag in confirmedTags {
            filters.append("EXISTS (SELECT 1 FROM post_tag_ids l JOIN tags t ON t.id = l.tag_id WHERE l.post_id = \(id) AND t.name = ?)")
            arguments += [tag]
        }
        if let libraryIDs {
            // Before the candidate cut, so the best matches the viewer may see are the ones ranked.
            filters.append("EXISTS (SELECT 1 FROM posts lp WHERE lp.id = \(id) AND lp.library_id IN (\(SQLiteStore.placeholders(libraryIDs.count))))")
            arguments += StatementArguments(libraryIDs)
        }
        for tag in plan.excludedTags {
            filters.append("NOT EXISTS (SELECT 1 FROM post_tag_ids l JOIN tags t ON t.id = l.tag_id WHERE l.post_id = \(id) AND t.name = ?)")
            arguments += [tag]
        }
        var sql = "WITH candidates(id) AS MATERIALIZED (\(driver)\(filters.map { " AND " + $0 }.joined()) ORDER BY \(id) DESC LIMIT ?)"
        arguments += [candidates]

        let terms = plan.terms
        if terms.isEmpty {
            sql += ", scored(id, score) AS (SELECT id, 0 FROM candidates)"
        } else {
            var parts: [String] = []
            for term in terms {
                for field in SearchField.allCases {
                    parts.append("(instr(f.\(field.rawValue), ?) > 0) * \(field.weight)")
                    arguments += [term]
                }
            }
            sql += """
                , scored(id, score) AS MATERIALIZED (
                    SELECT c.id, coalesce(\(parts.joined(separator: " + ")), 0)
                    FROM candidates c LEFT JOIN post_search_fields f ON f.rowid = c.id
                )
                """
        }
        // The page is cut from the scored ids alone, so only its own rows are joined with
        // posts and the viewer's state.
        sql += """
            , page(id, score) AS MATERIALIZED (
                SELECT id, score FROM scored ORDER BY score DESC, id DESC LIMIT ? OFFSET ?
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
             ORDER BY g.score DESC, g.id DESC
            """
        arguments += [userID]
        self.sql = sql
        self.arguments = arguments
        self.terms = terms
    }

    /// An FTS5 column filter: `people` for `@` words, none otherwise.
    private static func field(_ peopleOnly: Bool) -> String {
        peopleOnly ? "people : " : ""
    }
}

/// Text as an FTS5 string: always double-quoted with inner quotes doubled, which FTS5 reads as
/// plain text to tokenize, never as an operator, column filter or NEAR group.
enum FTS5Term {
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
