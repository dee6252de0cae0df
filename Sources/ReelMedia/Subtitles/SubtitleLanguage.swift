import Foundation

/// What a subtitle file's language tag (from its name, `clip.pt-BR.vtt`) becomes in HLS:
/// the `LANGUAGE` (an RFC 5646 tag) and a `NAME` a person can pick from a menu.
///
/// yt-dlp writes `en-orig` for the untranslated automatic captions of an English video;
/// `orig` is not a subtag, so the language is `en` and the name says "(original)".
public enum SubtitleLanguage {
    /// `pt-BR` → `pt-BR`, `en-orig` → `en`.
    public static func hlsLanguage(_ tag: String) -> String {
        isOriginal(tag) ? String(tag.dropLast(5)) : tag
    }

    /// English names from the system's locale data (`pt-BR` → "Portuguese (Brazil)"); the tag
    /// itself when the data does not know it.
    public static func displayName(_ tag: String) -> String {
        let language = hlsLanguage(tag)
        // `clip.vtt` has no tag: "Subtitles" reads better in a menu than "Unknown language".
        if language.lowercased() == "und" { return isOriginal(tag) ? "Subtitles (original)" : "Subtitles" }
        let english = Locale(identifier: "en")
        var name = english.localizedString(forIdentifier: language.replacingOccurrences(of: "-", with: "_")) ?? language
        if name.isEmpty || name.caseInsensitiveCompare(language) == .orderedSame { name = language }
        return isOriginal(tag) ? name + " (original)" : name
    }

    /// Names made unique within one post (a NAME must be unique in its group): a clash gets
    /// its tag appended, `English [en-US]`.
    public static func uniqueNames(_ tags: [String]) -> [String] {
        let names = tags.map(displayName)
        return zip(tags, names).map { tag, name in
            names.filter { $0 == name }.count > 1 ? "\(name) [\(tag)]" : name
        }
    }

    private static func isOriginal(_ tag: String) -> Bool {
        tag.count > 5 && tag.lowercased().hasSuffix("-orig")
    }
}
