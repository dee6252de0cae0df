import Foundation

/// What a post is called where it is listed (grids, A–Z): the first line of its description,
/// else its shortcode, else its folder name. One definition, so the server's A–Z order, the
/// grids and clients agree on it.
public enum PostTitle {
    public static func title(description: String?, shortcode: String?, folderName: String) -> String {
        if let line = description?.split(whereSeparator: \.isNewline).lazy
            .map({ $0.trimmingCharacters(in: .whitespaces) }).first(where: { !$0.isEmpty }) {
            return line
        }
        if let shortcode = shortcode?.trimmingCharacters(in: .whitespacesAndNewlines), !shortcode.isEmpty {
            return shortcode
        }
        return folderName
    }

    /// What a post is called where a person reads it (the detail sheet, a grid, "because you
    /// liked …"): `title` without the hashtags a caption ends with ("Colour bars at sunrise
    /// #retro #broadcast" is "Colour bars at sunrise"; the tags are shown as tags). A line of
    /// hashtags alone gives way to the next line, the shortcode, then itself. The A–Z key stays
    /// `title`'s: trailing words barely move a title in that order, and stored keys stay valid.
    public static func shown(description: String?, shortcode: String?, folderName: String) -> String {
        let lines = description?.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } ?? []
        if let line = lines.lazy.map(withoutTrailingHashtags).first(where: { !$0.isEmpty }) { return line }
        if let shortcode = shortcode?.trimmingCharacters(in: .whitespacesAndNewlines), !shortcode.isEmpty { return shortcode }
        return lines.first ?? folderName
    }

    /// `line` without the run of `#tag` words at its end (and the spaces and punctuation before it).
    static func withoutTrailingHashtags(_ line: String) -> String {
        var words = line.split(separator: " ", omittingEmptySubsequences: true)
        while let last = words.last, last.hasPrefix("#"), !Hashtags.find(in: String(last)).isEmpty { words.removeLast() }
        return words.joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: " ·-–—|:,"))
    }
}

/// The key the A–Z order sorts titles by, compared byte for byte (SQLite's BINARY collation):
///
/// - case and diacritics are folded ("Élan" sorts with "elan");
/// - punctuation and spacing only separate words ("Mr. Robot" is "mr robot"); apostrophes
///   vanish inside a word ("Don't" is "dont");
/// - a leading "the", "a" or "an" is dropped when something follows it ("The Matrix" sorts
///   under M);
/// - each run of digits becomes its length (two digits) followed by the digits without leading
///   zeros, so numbers compare by value: "Video 2" ("video 012") before "Video 10" ("video 0210").
public enum TitleSortKey {
    /// Longer keys are cut: they only need to order titles, and the index stays small.
    public static let maxLength = 200
    static let articles: Set<String> = ["the", "a", "an"]

    public static func key(for title: String) -> String {
        let folded = title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var words: [String] = []
        var current = ""
        for character in folded {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if character == "'" || character == "\u{2019}" {
                continue
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        if words.count > 1, articles.contains(words[0]) { words.removeFirst() }
        let key = words.map(numbersByValue).joined(separator: " ")
        return String(key.prefix(maxLength))
    }

    /// Rewrites each run of ASCII digits as its length and its value's digits.
    static func numbersByValue(_ word: String) -> String {
        var result = ""
        var digits = ""
        func flush() {
            guard !digits.isEmpty else { return }
            var significant = Substring(digits).drop { $0 == "0" }
            if significant.isEmpty { significant = "0" }
            let length = min(significant.count, 99)
            result += (length < 10 ? "0" : "") + String(length) + significant.prefix(99)
            digits = ""
        }
        for character in word {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }
}
