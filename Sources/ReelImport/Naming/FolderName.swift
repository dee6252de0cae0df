import Foundation
import ReelModels

/// The slug a post's folder and URLs are named with. The store appends `-2`, `-3`… when a
/// slug is taken, so this only has to be stable, readable and safe.
public enum FolderName {
    public static let maximumLength = 64
    /// Used when nothing readable is left (a stem of only emoji or punctuation).
    public static let fallback = "post"

    /// The shortcode when there is one (it is what the post is known by on its site), else
    /// the file stem. Lowercase ASCII letters, digits and single hyphens, at most 64
    /// characters, never empty, never `.` or `..`; other scripts are transliterated
    /// (`Привет` → `privet`, `Ünïcödé` → `unicode`). Deterministic: same input, same slug.
    public static func make(from metadata: PostMetadata?, fileStem: String) -> String {
        let shortcodeSlug = metadata?.shortcode.map(slug) ?? ""
        if !shortcodeSlug.isEmpty { return shortcodeSlug }
        let stemSlug = slug(fileStem)
        return stemSlug.isEmpty ? fallback : stemSlug
    }

    /// The slug of `text`, possibly empty.
    static func slug(_ text: String) -> String {
        let latin = text.applyingTransform(.toLatin, reverse: false) ?? text
        let plain = latin.applyingTransform(.stripDiacritics, reverse: false) ?? latin
        var result = ""
        var pendingHyphen = false
        for scalar in plain.lowercased().unicodeScalars {
            let isSlugCharacter = scalar.isASCII && (("a"..."z").contains(scalar) || ("0"..."9").contains(scalar))
            guard isSlugCharacter else {
                pendingHyphen = !result.isEmpty
                continue
            }
            if pendingHyphen {
                guard result.count + 2 <= maximumLength else { break }
                result.append("-")
                pendingHyphen = false
            }
            guard result.count < maximumLength else { break }
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}
