import Foundation

/// A search as a person typed it, taken apart into what to look for. Parsing never fails: any
/// text is a query, possibly one that asks for nothing (`isEmpty`). The store never sees the
/// raw text, only these words, so nothing typed can become search-engine syntax.
///
/// The language: plain words (each must match, in any field: from three letters anywhere in
/// a word, or in a word written without its inner punctuation; shorter ones as a word's start),
/// `"a quoted phrase"` (those words, in that order), `tag:name` (the post has that tag),
/// `-tag:name` (it does not), `@name` (the words of `name` match the uploader or username).
/// `tag:"two words"` names a tag with a space.
public struct SearchQuery: Sendable, Equatable, Hashable {
    /// Words that must each match somewhere: letters and digits only, lowercased.
    public var words: [String]
    /// Quoted phrases, each as its words.
    public var phrases: [[String]]
    /// Words that must match the uploader or username.
    public var people: [String]
    public var tags: [String]
    public var excludedTags: [String]

    public init(words: [String] = [], phrases: [[String]] = [], people: [String] = [], tags: [String] = [], excludedTags: [String] = []) {
        self.words = words
        self.phrases = phrases
        self.people = people
        self.tags = tags
        self.excludedTags = excludedTags
    }

    /// Bounds that keep a pasted essay from becoming an expensive query: the first
    /// `maxTerms` words (and filters) count, the rest are ignored, and a word longer than
    /// `maxWordLength` is cut (its prefix still finds what it names).
    public static let maxTerms = 16
    public static let maxWordLength = 64
    public static let maxTagLength = 100

    /// True when the query names nothing to match or filter on (blank, or only punctuation).
    public var isEmpty: Bool { words.isEmpty && phrases.isEmpty && people.isEmpty && tags.isEmpty && excludedTags.isEmpty }

    /// Whether anything must match the text of a post (as opposed to tag filters only).
    public var hasText: Bool { !words.isEmpty || !phrases.isEmpty || !people.isEmpty }

    public static func parse(_ text: String) -> SearchQuery {
        var query = SearchQuery()
        var terms = 0
        for token in lex(text) {
            guard terms < maxTerms else { break }
            let lowered = token.text.lowercased()
            if !token.quotedFromStart, let name = Self.suffix(of: token.text, lowered: lowered, after: "tag:") {
                if let tag = tagName(name) { query.tags.append(tag); terms += 1 }
            } else if !token.quotedFromStart, let name = Self.suffix(of: token.text, lowered: lowered, after: "-tag:") {
                if let tag = tagName(name) { query.excludedTags.append(tag); terms += 1 }
            } else if !token.quotedFromStart, token.text.hasPrefix("@") {
                let found = words(in: token.text.dropFirst()).prefix(maxTerms - terms)
                query.people += found
                terms += found.count
            } else if token.quoted {
                let found = Array(words(in: token.text).prefix(maxTerms - terms))
                if found.count == 1 { query.words += found } else if !found.isEmpty { query.phrases.append(found) }
                terms += found.count
            } else {
                let found = words(in: token.text).prefix(maxTerms - terms)
                query.words += found
                terms += found.count
            }
        }
        return query
    }

    /// The words of `text` the way SQLite's unicode61 tokenizer cuts them: runs of letters and
    /// digits (so "Spider-Man" and "spider man" are the same two words, "Mr." is "mr").
    public static func words(in text: some StringProtocol) -> [String] {
        var result: [String] = []
        var current = ""
        func flush() {
            // Composed, so a decomposed "é" typed on some keyboards is the letter the index holds.
            if !current.isEmpty { result.append(String(current.lowercased().precomposedStringWithCanonicalMapping.prefix(maxWordLength))) }
            current = ""
        }
        for character in text {
            if character.isLetter || character.isNumber { current.append(character) } else { flush() }
        }
        flush()
        return result
    }

    private static func suffix(of text: String, lowered: String, after prefix: String) -> String? {
        lowered.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : nil
    }

    private static func tagName(_ text: String) -> String? {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty ? nil : String(name.prefix(maxTagLength))
    }

    /// Whitespace-separated tokens; double quotes group words (an unclosed quote runs to the end).
    private static func lex(_ text: String) -> [(text: String, quoted: Bool, quotedFromStart: Bool)] {
        var tokens: [(text: String, quoted: Bool, quotedFromStart: Bool)] = []
        var current = ""
        var inQuotes = false
        var quoted = false
        var quotedFromStart = false
        func flush() {
            if !current.isEmpty || quoted { tokens.append((current, quoted, quotedFromStart)) }
            current = ""
            quoted = false
            quotedFromStart = false
        }
        for character in text {
            if character == "\"" {
                if !inQuotes, current.isEmpty { quotedFromStart = true }
                inQuotes.toggle()
                quoted = true
            } else if character.isWhitespace, !inQuotes {
                flush()
            } else {
                current.append(character)
            }
        }
        flush()
        return tokens
    }
}

/// A page of search results.
public struct SearchResults: Sendable {
    public var items: [FeedItem]
    /// Whether more results follow this page.
    public var hasMore: Bool
    /// The words the search looked for, folded as the index compares them (lowercase, no
    /// accents): what a client highlights in the results.
    public var terms: [String]

    public init(items: [FeedItem], hasMore: Bool, terms: [String]) {
        self.items = items
        self.hasMore = hasMore
        self.terms = terms
    }
}

/// Full-text search over ready posts, answered as feed items with the viewer's state, and
/// what each user searched for lately.
public protocol SearchStore: RecentSearchStore {
    /// Up to `limit` matches after the first `offset`, best first (tag and people matches
    /// outrank description-only ones), and whether more follow. Only ready posts in the
    /// libraries the user may see (only `library`, when given) match; a library not granted
    /// is `StoreError.notFound`.
    func search(userID: Int64, library: Int64?, query: SearchQuery, offset: Int, limit: Int) async throws -> SearchResults

    /// How deep results go: `offset + limit` may not exceed it.
    var maxSearchResults: Int { get }

    /// Rebuilds the search index from the posts themselves; returns how many posts it holds.
    func rebuildSearchIndex() async throws -> Int
}

extension SearchStore {
    /// Over every library the user may see.
    public func search(userID: Int64, query: SearchQuery, offset: Int, limit: Int) async throws -> SearchResults {
        try await search(userID: userID, library: nil, query: query, offset: offset, limit: limit)
    }
}
