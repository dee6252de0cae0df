import Foundation

extension Schema {
    /// p7 cut words at every character ICU does not call a letter or digit, and lowercased
    /// without folding what `unaccent` leaves: Devanagari, Thai or Khmer words fell apart at
    /// their vowel signs ("किताब" became "क त ब"), Hebrew points and Arabic vowel marks split
    /// words, and a final sigma stayed apart from sigma — where SQLite's store, folding in
    /// Swift, keeps or folds them. This version redefines the folding to match and refolds the
    /// index; the table, triggers and queries stay as p7 made them.
    static let searchFolding = PostgresMigration(version: "p9_search_folding", statements: [
        // `unaccent`, then the diacritics it leaves, then final sigma as sigma.
        """
        CREATE OR REPLACE FUNCTION reelhouse_search_fold(text) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
            SELECT translate(regexp_replace(lower(unaccent($1) COLLATE "und-x-icu"), '[\(searchDiacritics)]', '', 'g'), 'ς', 'σ')
        $$
        """,
        // Runs of letters and digits with the marks that stay inside a Swift Character.
        """
        CREATE OR REPLACE FUNCTION reelhouse_search_words(text) RETURNS text[] LANGUAGE sql STABLE PARALLEL SAFE AS $$
            SELECT array_remove(regexp_split_to_array(reelhouse_search_fold($1) COLLATE "und-x-icu", '[^\(searchWordCharacters)]+'), '')
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION reelhouse_search_joined(text) RETURNS text[] LANGUAGE sql STABLE PARALLEL SAFE AS $$
            SELECT ARRAY(
                SELECT regexp_replace(token COLLATE "und-x-icu", '[^\(searchWordCharacters)]+', '', 'g')
                FROM unnest(regexp_split_to_array(reelhouse_search_fold($1) COLLATE "und-x-icu", '[[:space:]]+')) WITH ORDINALITY AS s(token, n)
                WHERE token COLLATE "und-x-icu" ~ '[\(searchWordCharacters)][^\(searchWordCharacters)]+[\(searchWordCharacters)]'
                ORDER BY n
            )
        $$
        """,
        "SELECT reelhouse_search_reindex(ARRAY(SELECT id FROM posts WHERE status = 'ready'))",
    ])

    /// What a word is made of, in a regular expression's brackets: ICU's letters and digits,
    /// and the combining marks of scripts that write vowels as marks (Devanagari to Sinhala,
    /// Thai, Lao, Tibetan, Myanmar, Khmer, kana voicing), which Swift keeps inside the letter's
    /// Character. The dandas (U+0964, U+0965, U+0970) end words.
    static let searchWordCharacters = #"[:alnum:]\u0900-\u0963\u0966-\u096F\u0971-\u0DFF\u0E31\u0E34-\u0E3A\u0E47-\u0E4E"#
        + #"\u0EB1\u0EB4-\u0EBC\u0EC8-\u0ECD\u0F18\u0F19\u0F35\u0F37\u0F39\u0F3E\u0F3F\u0F71-\u0F84\u0F86\u0F87"#
        + #"\u0F8D-\u0FBC\u0FC6\u102B-\u103E\u1056-\u1059\u105E-\u1060\u1062-\u1064\u1067-\u106D\u1071-\u1074"#
        + #"\u1082-\u108D\u108F\u109A-\u109D\u17B4-\u17D3\u17DD\u3099\u309A"#

    /// The combining diacritics folding removes besides `unaccent`'s letters: the general
    /// blocks, Cyrillic's, Hebrew points (not its punctuation), Arabic vowel marks.
    static let searchDiacritics = #"\u0300-\u036F\u0483-\u0489\u0591-\u05BD\u05BF\u05C1\u05C2\u05C4\u05C5\u05C7"#
        + #"\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06DC\u06DF-\u06E4\u06E7\u06E8\u06EA-\u06ED"#
        + #"\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F"#
}
