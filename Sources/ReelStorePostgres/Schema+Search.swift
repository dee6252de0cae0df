import Foundation
import ReelStore

extension Schema {
    /// The search index: SQLite's `post_search_fields` (v12) in PostgreSQL's idiom. One row per
    /// ready post holds its five fields (`SearchField`) as folded words with a space on either
    /// side (" creme brulee at home "), exactly the text SQLite's index holds, so the same
    /// `SearchPlan` conditions and ranking apply to the same strings:
    ///
    /// - folding is `reelhouse_search_words`: `unaccent`, then lowercase and split into runs of
    ///   letters and digits under the ICU root collation (`und-x-icu`), so neither depends on
    ///   the database's locale;
    /// - `pg_trgm`'s GIN index over the fields run together answers "inside a word" and
    ///   phrases (`LIKE '%brul%'`, `LIKE '% mr rob%'`), as SQLite's trigram tokenizer does;
    /// - `lexemes`, a `tsvector` of the words, answers word starts and whole words through its
    ///   own GIN index (`'mr':*`, `'a'`), which trigrams of one or two letters cannot do well;
    ///   the exact `LIKE` then confirms them (and that an `@` word is in `people`).
    ///
    /// Statement-level triggers with transition tables keep it right for every writer (a bulk
    /// copy reindexes once per statement, not once per row): a post's row is rewritten when
    /// its text or status changes, a tag link comes or goes, or a tag it carries is renamed; the
    /// row goes with its post (`ON DELETE CASCADE`). The extensions are trusted ones: a database
    /// owner may create them without being a superuser.
    static let search = PostgresMigration(version: "p7_search", statements: [
        "CREATE EXTENSION IF NOT EXISTS unaccent",
        "CREATE EXTENSION IF NOT EXISTS pg_trgm",
        // Lowercase without accents, by the ICU root locale whatever the database's own (a
        // `C` database would lowercase ASCII only). One expression each, so PostgreSQL inlines
        // them into the queries that call them.
        """
        CREATE FUNCTION reelhouse_search_fold(text) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
            SELECT lower(unaccent($1) COLLATE "und-x-icu")
        $$
        """,
        // Its folded words: runs of letters and digits, as SQLite's store cuts them in Swift.
        """
        CREATE FUNCTION reelhouse_search_words(text) RETURNS text[] LANGUAGE sql STABLE PARALLEL SAFE AS $$
            SELECT array_remove(regexp_split_to_array(reelhouse_search_fold($1) COLLATE "und-x-icu", '[^[:alnum:]]+'), '')
        $$
        """,
        // The words written with inner punctuation, run together ("spider-man's" → "spidermans");
        // words without inner punctuation are in the fields already.
        """
        CREATE FUNCTION reelhouse_search_joined(text) RETURNS text[] LANGUAGE sql STABLE PARALLEL SAFE AS $$
            SELECT ARRAY(
                SELECT regexp_replace(token COLLATE "und-x-icu", '[^[:alnum:]]+', '', 'g')
                FROM unnest(regexp_split_to_array(reelhouse_search_fold($1) COLLATE "und-x-icu", '[[:space:]]+')) WITH ORDINALITY AS s(token, n)
                WHERE token COLLATE "und-x-icu" ~ '[[:alnum:]][^[:alnum:]]+[[:alnum:]]'
                ORDER BY n
            )
        $$
        """,
        // " w1 w2 … ", or '' for no words: a word's start and end are searchable as spaces.
        """
        CREATE FUNCTION reelhouse_search_spaced(text[]) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT CASE WHEN cardinality($1) = 0 THEN '' ELSE ' ' || array_to_string($1, ' ') || ' ' END
        $$
        """,
        // Each distinct word once, cut to the longest word a query holds (a lexeme may not
        // exceed 2 KB), at most 3000 of them (a tsvector may not exceed 1 MB).
        """
        CREATE FUNCTION reelhouse_search_vector(text[]) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT array_to_tsvector(ARRAY(SELECT DISTINCT left(w, \(maxLexemeLength)) FROM unnest($1) AS u(w) LIMIT 3000))
        $$
        """,
        """
        CREATE TABLE post_search_fields (
            post_id bigint PRIMARY KEY REFERENCES posts(id) ON DELETE CASCADE,
            description text NOT NULL,
            tags text NOT NULL,
            people text NOT NULL,
            shortcode text NOT NULL,
            joined text NOT NULL,
            lexemes tsvector NOT NULL
        )
        """,
        "CREATE INDEX post_search_fields_trigrams ON post_search_fields USING gin ((\(searchDocument())) gin_trgm_ops)",
        "CREATE INDEX post_search_fields_lexemes ON post_search_fields USING gin (lexemes)",
        // Rewrites the rows of `ids`: removed, then written again for those (still) ready.
        // Tags in id order, as SQLite's group_concat reads them. The ids are joined, not
        // compared with `= ANY(ids)`, which scans the array once per row (quadratic in bulk).
        """
        CREATE FUNCTION reelhouse_search_reindex(ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM post_search_fields WHERE post_id IN (SELECT unnest(ids));
            INSERT INTO post_search_fields (post_id, description, tags, people, shortcode, joined, lexemes)
            SELECT id, reelhouse_search_spaced(d), reelhouse_search_spaced(t), reelhouse_search_spaced(u),
                   reelhouse_search_spaced(s), reelhouse_search_spaced(j),
                   reelhouse_search_vector(d || t || u || s || j)
            FROM (
                SELECT p.id,
                       reelhouse_search_words(coalesce(p.description, '')) AS d,
                       reelhouse_search_words(x.tags) AS t,
                       reelhouse_search_words(trim(coalesce(p.uploader, '') || ' ' || coalesce(p.username, ''))) AS u,
                       reelhouse_search_words(coalesce(p.shortcode, '')) AS s,
                       reelhouse_search_joined(coalesce(p.description, '') || ' ' || x.tags || ' '
                           || trim(coalesce(p.uploader, '') || ' ' || coalesce(p.username, '')) || ' ' || coalesce(p.shortcode, '')) AS j
                FROM (SELECT DISTINCT unnest(ids) AS id) wanted
                JOIN posts p ON p.id = wanted.id
                CROSS JOIN LATERAL (
                    SELECT coalesce(string_agg(t.name, ' ' ORDER BY t.id), '') AS tags
                    FROM post_tag_ids l JOIN tags t ON t.id = l.tag_id WHERE l.post_id = p.id
                ) x
                WHERE p.status = 'ready'
                OFFSET 0 -- computed once per post, not once per use below
            ) documents;
        END $$
        """,
        """
        CREATE FUNCTION reelhouse_search_posts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM reelhouse_search_reindex(ARRAY(SELECT id FROM inserted WHERE status = 'ready'));
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER posts_search_on_insert AFTER INSERT ON posts REFERENCING NEW TABLE AS inserted
            FOR EACH STATEMENT EXECUTE FUNCTION reelhouse_search_posts_inserted()
        """,
        // Any UPDATE of posts (revision bumps included) runs this; only rows whose indexed
        // columns changed are rewritten.
        """
        CREATE FUNCTION reelhouse_search_posts_updated() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM reelhouse_search_reindex(ARRAY(
                SELECT n.id FROM old_rows o JOIN new_rows n ON n.id = o.id
                WHERE (n.description, n.uploader, n.username, n.shortcode, n.status)
                      IS DISTINCT FROM (o.description, o.uploader, o.username, o.shortcode, o.status)
            ));
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER posts_search_on_update AFTER UPDATE ON posts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION reelhouse_search_posts_updated()
        """,
        """
        CREATE FUNCTION reelhouse_search_links_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM reelhouse_search_reindex(ARRAY(SELECT DISTINCT post_id FROM changed));
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER post_tag_ids_search_on_insert AFTER INSERT ON post_tag_ids REFERENCING NEW TABLE AS changed
            FOR EACH STATEMENT EXECUTE FUNCTION reelhouse_search_links_changed()
        """,
        """
        CREATE TRIGGER post_tag_ids_search_on_delete AFTER DELETE ON post_tag_ids REFERENCING OLD TABLE AS changed
            FOR EACH STATEMENT EXECUTE FUNCTION reelhouse_search_links_changed()
        """,
        """
        CREATE FUNCTION reelhouse_search_tags_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM reelhouse_search_reindex(ARRAY(
                SELECT DISTINCT l.post_id FROM old_rows o JOIN new_rows n ON n.id = o.id JOIN post_tag_ids l ON l.tag_id = n.id
                WHERE n.name IS DISTINCT FROM o.name
            ));
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER tags_search_on_rename AFTER UPDATE ON tags REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION reelhouse_search_tags_renamed()
        """,
        // A database migrated with posts in it: index them now.
        "SELECT reelhouse_search_reindex(ARRAY(SELECT id FROM posts WHERE status = 'ready'))",
    ])

    /// The five fields run together, as the trigram index and the queries spell it (`table`:
    /// the alias to qualify the columns with). Each non-empty field starts and ends with a space,
    /// so nothing a query looks for (no run of single-spaced words) can span two fields.
    static func searchDocument(_ table: String? = nil) -> String {
        searchColumns.map { (table.map { "\($0)." } ?? "") + $0 }.joined(separator: " || ")
    }

    /// Spelled out rather than taken from `SearchField`, so this version's index stays the
    /// expression it was created with whatever that enum becomes.
    static let searchColumns = ["description", "tags", "people", "shortcode", "joined"]

    /// Lexemes are cut to this many characters, as query words are (`SearchQuery.maxWordLength`):
    /// a word's start is still found, and the exact `LIKE` decides.
    static let maxLexemeLength = SearchQuery.maxWordLength
}
