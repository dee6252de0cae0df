import Foundation

/// What a parsed `SearchQuery` asks of the search index, once its words are folded: the
/// matching and ranking rules, shared by every store so they find the same posts in the same
/// order. Each store folds words its own way (how its index folds them) and turns the
/// conditions into its own index's terms.
///
/// The index holds, per ready post, five fields of folded words (`SearchField`): what a
/// condition matches is a run of those words. A post matches when every condition, every tag
/// filter and no excluded tag holds. Matches are ranked among the newest
/// `SearchPlan.maxResults` of them (by post id), by `score`, then newest first.
public struct SearchPlan: Sendable, Equatable {
    public enum Condition: Sendable, Equatable {
        /// A word of three letters or more: inside any word of any field ("brul" → "brûlée",
        /// "ession" → "professional"), or a word written without its inner punctuation
        /// ("spiderman" → "Spider-Man", through the `joined` field).
        case inside(String)
        /// A word of two letters (or an `@` word of two letters or more): a word's start, in
        /// any field or in `people` only ("mr" → "Mr.", "@zo" → "Zoë").
        case wordStart(String, peopleOnly: Bool)
        /// A word of one letter: that whole word, in any field or in `people` only.
        case wholeWord(String, peopleOnly: Bool)
        /// Consecutive words of one field, all whole but the last, which is a word's start
        /// ("mr rob" → "Mr. Robot").
        case phrase([String])
    }

    /// How deep results go: a search ranks at most this many matches (the newest), so its
    /// cost is bounded however many posts match, and `offset + limit` may not exceed it.
    public static let maxResults = 1000

    public var conditions: [Condition]
    /// Tag names the post must carry (as typed; stores compare them as they compare tags).
    public var tags: [String]
    /// Tag names the post must not carry.
    public var excludedTags: [String]
    /// The folded words the ranking scores (each once, in query order): also what clients
    /// highlight.
    public var terms: [String]
    /// The query had words to match, but none survived folding (a store whose folding drops a
    /// character the query parser kept): it matches no post, rather than every post.
    public var matchesNothing: Bool

    /// `fold` turns one parsed word into the words the index holds for it: usually one,
    /// lowercased and without accents; none if the index keeps nothing of it.
    public init(_ query: SearchQuery, fold: (String) -> [String]) {
        var conditions: [Condition] = []
        for word in query.words.flatMap(fold) where !word.isEmpty {
            switch word.count {
            case 1: conditions.append(.wholeWord(word, peopleOnly: false))
            case 2: conditions.append(.wordStart(word, peopleOnly: false))
            default: conditions.append(.inside(word))
            }
        }
        for phrase in query.phrases {
            let words = phrase.flatMap(fold).filter { !$0.isEmpty }
            if !words.isEmpty { conditions.append(.phrase(words)) }
        }
        for word in query.people.flatMap(fold) where !word.isEmpty {
            conditions.append(word.count == 1 ? .wholeWord(word, peopleOnly: true) : .wordStart(word, peopleOnly: true))
        }
        self.conditions = conditions
        tags = query.tags
        excludedTags = query.excludedTags
        var seen = Set<String>()
        terms = (query.words.flatMap(fold) + query.phrases.flatMap { $0.flatMap(fold) } + query.people.flatMap(fold))
            .filter { !$0.isEmpty && seen.insert($0).inserted }
        matchesNothing = query.hasText && conditions.isEmpty
    }

    /// Rejects a page outside `1...maxPage` posts or beyond `maxResults`.
    public static func checkPage(offset: Int, limit: Int, maxPage: Int) throws {
        guard (1...maxPage).contains(limit), offset >= 0, offset + limit <= maxResults else {
            throw StoreError.invalid("search pages hold 1 to \(maxPage) posts within the first \(maxResults) results")
        }
    }

    /// Whether a page read one row past `limit` (`fetched` rows) has more after it.
    public static func hasMore(fetched: Int, offset: Int, limit: Int) -> Bool {
        fetched > limit && offset + limit < maxResults
    }
}

/// The fields of the search index, as folded words: the score of a match adds, for each
/// term, the weight of every field it occurs in (anywhere in the field's text), so a tag or
/// person match outranks one in the description alone.
public enum SearchField: String, CaseIterable, Sendable {
    case tags, people, shortcode, description
    /// The words written with inner punctuation, run together ("spiderman").
    case joined

    public var weight: Int {
        switch self {
        case .tags: 4
        case .people: 3
        case .shortcode: 2
        case .description, .joined: 1
        }
    }
}
