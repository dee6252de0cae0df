import Foundation
import PostgresNIO
import ReelStore

/// Turns a `SearchPlan` into one statement over `post_search_fields` (`Schema.search`), the
/// PostgreSQL twin of SQLite's `SearchStatement`: the same conditions on the same folded
/// strings, the same candidates, the same score. Every word reaches the server as a bound
/// value (a `LIKE` pattern with its wildcards escaped, or a `tsquery` of quoted lexemes), so no
/// input can become SQL, pattern or query syntax.
///
/// Each condition is an exact `LIKE` on the fields run together (`Schema.searchDocument`):
/// `%brul%` (inside a word), `% mr%` (a word's start), `% a %` (a whole word), `% mr rob%` (a
/// phrase), or on `people` alone for `@` words — SQLite's FTS5 strings, letter for letter. The
/// trigram index answers the first and last kinds; word starts and whole words are also asked
/// of the `tsvector` (`'mr':*`, `'a'`), whose index finds them without rechecking every post
/// holding an "m".
///
/// The newest `candidates` matches (by post id) are scored — per term, the weights of the
/// fields whose text holds it — and ordered by score, then newest first: SQLite's rank.
struct PostgresSearchStatement {
    private(set) var query: PostgresQuery

    /// `libraryIDs`: only posts in these libraries; nil: every library.
    init(userID: Int64, plan: SearchPlan, libraryIDs: [Int64]?, offset: Int, limit: Int, candidates: Int) {
        var sql = PostgresFeedSQL()
        let document = "(\(Schema.searchDocument("f")))"
        var conditions: [String] = []
        var lexemes: [String] = []
        for condition in plan.conditions {
            switch condition {
            case .inside(let word):
                conditions.append("\(document) LIKE \(sql.bind("%" + Self.escaped(word) + "%"))")
            case .phrase(let words):
                conditions.append("\(document) LIKE \(sql.bind("% " + Self.escaped(words.joined(separator: " ")) + "%"))")
            case .wordStart(let word, let peopleOnly):
                let field = peopleOnly ? "f.people" : document
                conditions.append("\(field) LIKE \(sql.bind("% " + Self.escaped(word) + "%"))")
                lexemes.append(Self.lexeme(word) + ":*")
            case .wholeWord(let word, let peopleOnly):
                let field = peopleOnly ? "f.people" : document
                conditions.append("\(field) LIKE \(sql.bind("% " + Self.escaped(word) + " %"))")
                lexemes.append(Self.lexeme(word))
            }
        }
        if !lexemes.isEmpty {
            conditions.append("f.lexemes @@ \(sql.bind(lexemes.joined(separator: " & ")))::tsquery")
        }

        let id: String
        var confirmedTags = plan.tags
        var driver: String
        if !conditions.isEmpty {
            id = "f.post_id"
            driver = "SELECT f.post_id AS id FROM post_search_fields f WHERE " + conditions.joined(separator: " AND ")
        } else if let first = confirmedTags.first {
            // Tags alone: the first tag's links, ready posts only.
            id = "l0.post_id"
            driver = """
                SELECT l0.post_id AS id FROM post_tag_ids l0
                WHERE l0.tag_id = (SELECT t.id FROM tags t WHERE t.name_key = \(sql.bind(TagName.key(first))))
                  AND EXISTS (SELECT 1 FROM posts rp WHERE rp.id = l0.post_id AND rp.status = 'ready')
                """
            confirmedTags.removeFirst()
        } else {
            // Only exclusions: every ready post is a candidate.
            id = "rp.id"
            driver = "SELECT rp.id FROM posts rp WHERE rp.status = 'ready'"
        }
        for tag in confirmedTags {
            driver += " AND EXISTS (SELECT 1 FROM post_tag_ids l JOIN tags t ON t.id = l.tag_id WHERE l.post_id = \(id) AND t.name_key = \(sql.bind(TagName.key(tag))))"
        }
        if let libraryIDs {
            // Before the candidate cut, so the best matches the viewer may see are the ones ranked.
            driver += " AND EXISTS (SELECT 1 FROM posts lp WHERE lp.id = \(id) AND lp.library_id = ANY(\(sql.bind(libraryIDs))))"
        }
        for tag in plan.excludedTags {
            driver += " AND NOT EXISTS (SELECT 1 FROM post_tag_ids l JOIN tags t ON t.id = l.tag_id WHERE l.post_id = \(id) AND t.name_key = \(sql.bind(TagName.key(tag))))"
        }
        sql.sql = "WITH candidates(id) AS MATERIALIZED (\(driver) ORDER BY \(id) DESC LIMIT \(sql.bind(candidates)))"

        var score: [String] = []
        for term in plan.terms {
            let bound = sql.bind(term)
            for field in SearchField.allCases {
                score.append("(strpos(f.\(field.rawValue), \(bound)) > 0)::int * \(field.weight)")
            }
        }
        sql.sql += """
            , scored(id, score) AS MATERIALIZED (
                SELECT c.id, \(score.isEmpty ? "0" : "coalesce(\(score.joined(separator: " + ")), 0)")
                FROM candidates c LEFT JOIN post_search_fields f ON f.post_id = c.id
            ), page(id, score) AS MATERIALIZED (
                SELECT id, score FROM scored ORDER BY score DESC, id DESC LIMIT \(sql.bind(limit)) OFFSET \(sql.bind(offset))
            )
            SELECT p.id, p.revision, 0::bigint AS feed_key, s.favorited_at, s.rating, s.position, s.seen_at
            FROM page g JOIN posts p ON p.id = g.id
            LEFT JOIN post_user_state s ON s.user_id = \(sql.bind(userID)) AND s.post_id = p.id
            WHERE p.status = 'ready'
            ORDER BY g.score DESC, g.id DESC
            """
        query = sql.query
    }

    /// `text` matched literally by `LIKE` (whose escape character is the backslash).
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if character == "\\" || character == "%" || character == "_" { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// A quoted `tsquery` lexeme, cut as the index cuts lexemes (`Schema.maxLexemeLength`).
    static func lexeme(_ word: String) -> String {
        let cut = String(word.prefix(Schema.maxLexemeLength))
        return "'" + cut.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }
}
