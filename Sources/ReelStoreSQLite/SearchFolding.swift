import Foundation
import GRDB

/// Text as the substring index stores it: lowercased, without diacritics, composed. The same
/// folding is applied to what is searched for, so "rûl", "RUL" and "rul" all find "brûlée".
enum SearchFolding {
    static let sqlFunction = "reelhouse_search_fold"

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).precomposedStringWithCanonicalMapping
    }

    /// Registered on every connection (the v8 triggers call it). Pure, so SQLite may reuse results.
    static let function = DatabaseFunction(sqlFunction, argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(fold)
    }
}
