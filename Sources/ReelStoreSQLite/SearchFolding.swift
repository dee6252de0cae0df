import Foundation
import GRDB

/// Text as the search index stores it and queries compare it: lowercased, without diacritics,
/// composed, and cut into words (runs of letters and digits, as `SearchQuery.words` cuts a
/// query). So "rûl", "RUL" and "rul" all find "brûlée".
enum SearchFolding {
    static let wordsSQLFunction = "reelhouse_search_words"
    static let joinedSQLFunction = "reelhouse_search_joined"
    /// v8's folding (its triggers still name it until v12 replaces them).
    static let sqlFunction = "reelhouse_search_fold"

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).precomposedStringWithCanonicalMapping
    }

    /// The folded words of `text`, each with a space on either side (" mr robot season one "),
    /// or "" when it has none. The spaces make a word's start and end searchable in a trigram
    /// index: " mr" is a word starting with "mr", " a " the word "a".
    static func words(_ text: String) -> String {
        spaced(fold(text).split { !($0.isLetter || $0.isNumber) }.map(String.init))
    }

    /// The folded words of `text` that are written with inner punctuation, run together
    /// ("Spider-Man's web" → " spidermans "), so "spiderman" finds "Spider-Man". Words without
    /// inner punctuation are left out: the fields hold them already.
    static func joined(_ text: String) -> String {
        var result: [String] = []
        for token in fold(text).split(whereSeparator: \.isWhitespace) {
            let parts = token.split { !($0.isLetter || $0.isNumber) }
            if parts.count > 1 { result.append(parts.joined()) }
        }
        return spaced(result)
    }

    private static func spaced(_ words: [String]) -> String {
        words.isEmpty ? "" : " " + words.joined(separator: " ") + " "
    }

    /// Registered on every connection (the search triggers call them). Pure, so SQLite may reuse results.
    static let functions = [
        DatabaseFunction(sqlFunction, argumentCount: 1, pure: true) { values in String.fromDatabaseValue(values[0]).map(fold) },
        DatabaseFunction(wordsSQLFunction, argumentCount: 1, pure: true) { values in String.fromDatabaseValue(values[0]).map(words) },
        DatabaseFunction(joinedSQLFunction, argumentCount: 1, pure: true) { values in String.fromDatabaseValue(values[0]).map(joined) },
    ]
}
