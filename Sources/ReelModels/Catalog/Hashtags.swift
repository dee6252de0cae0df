import Foundation

/// Tag rules shared by every sidecar format and by the owner's edits, so tags look the same
/// whichever tool downloaded the post or whoever typed them.
public enum TagList {
    public static let maximumCount = 50
    public static let maximumLength = 64

    /// Trimmed, without a leading `#`, empties dropped, duplicates dropped case-insensitively
    /// (the first spelling wins), at most 50. A "tag" longer than 64 characters is dropped
    /// rather than cut: it is nearly always a sentence in the wrong field, and half a
    /// sentence is not a tag anyone would search for.
    public static func normalize(_ tags: [String]) -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for raw in tags {
            var tag = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            while tag.hasPrefix("#") { tag.removeFirst() }
            tag = tag.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !tag.isEmpty, tag.count <= maximumLength, seen.insert(tag.lowercased()).inserted else { continue }
            result.append(tag)
            if result.count == maximumCount { break }
        }
        return result
    }
}

/// Finds `#hashtags` in captions the way Instagram and TikTok link them: a `#` not glued to a
/// preceding word, followed by letters, digits (of any script) and underscores, not digits
/// alone.
public enum Hashtags {
    public static func find(in text: String) -> [String] {
        var found: [String] = []
        var current: String?
        var previous: Character?
        for character in text {
            let isWordCharacter = character.isLetter || character.isNumber || character == "_"
            if current != nil, isWordCharacter {
                current?.append(character)
            } else {
                // `#one#two` is two hashtags; `word#tag` and `##tag` are none.
                let endsHashtag = current.map { !$0.isEmpty } ?? false
                if let tag = current { finish(tag, into: &found) }
                current = nil
                let gluedToWord = previous.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "#" } ?? false
                if character == "#", endsHashtag || !gluedToWord { current = "" }
            }
            previous = character
        }
        if let tag = current { finish(tag, into: &found) }
        return found
    }

    private static func finish(_ tag: String, into found: inout [String]) {
        guard tag.contains(where: \.isLetter) else { return }
        found.append(tag.lowercased())
    }
}
