import GRDB

extension Schema {
    /// v12: one search index, `post_search_fields`, in place of v8's two (`post_search`, words
    /// by field for bm25, and `post_search_substrings`, one folded text per post).
    ///
    /// Each field (description, tags, people = uploader and username, shortcode) is stored as
    /// its folded words with a space on either side (`SearchFolding.words`: " creme brulee at
    /// home "), under the `trigram` tokenizer. So one index answers every kind of match, and
    /// FTS5 can AND them while walking its lists in id order: a word of three letters or more
    /// anywhere in a word ("brul"), a word's start (" mr"), a whole word (" a "), a phrase
    /// (" mr robot"), a field (`people : " zoe"`). `joined` holds the words written with inner
    /// punctuation run together ("spiderman" for "Spider-Man"). The ranking no longer needs
    /// bm25 over every match: it scores the newest matches by field (`SearchStatement`).
    /// The triggers are rewritten to keep the new table, on the same events as v8's.
    static func addSearchFields(_ db: Database) throws {
        for trigger in SearchIndexSQL.triggerNames {
            try db.execute(sql: "DROP TRIGGER IF EXISTS \(trigger)")
        }
        try db.execute(sql: """
            DROP TABLE post_search;
            DROP TABLE post_search_substrings;
            CREATE VIRTUAL TABLE post_search_fields USING fts5(
                description, tags, people, shortcode, joined, tokenize = 'trigram'
            );
            \(SearchIndexSQL.triggers(.fields))
            """)
        try db.execute(sql: SearchIndexSQL.rebuild(.fields))
    }
}
