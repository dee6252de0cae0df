import Foundation
import ReelModels

/// The name a post's download is saved under: its title (`PostTitle.shown`), not the
/// `download.mp4` every post's file is called in its folder. Sent as `Content-Disposition`
/// (RFC 6266: an ASCII `filename` for old clients and the exact UTF-8 one in `filename*`).
enum DownloadName {
    static let maxLength = 80

    /// "Colour bars at sunrise.mp4": characters no file system takes become spaces, the rest
    /// is kept; a title with nothing left is "reelhouse-<id>".
    static func fileName(for post: Post) -> String {
        let title = PostTitle.shown(description: post.metadata.description, shortcode: post.metadata.shortcode, folderName: post.folderName)
        let unsafe = CharacterSet(charactersIn: "/\\:*?\"<>|").union(.controlCharacters).union(.newlines)
        let cleaned = String(String.UnicodeScalarView(title.unicodeScalars.map { unsafe.contains($0) ? " " : $0 }))
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
            .trimmingCharacters(in: CharacterSet(charactersIn: " ."))
        let stem = cleaned.isEmpty ? "reelhouse-\(post.id)" : String(cleaned.prefix(maxLength)).trimmingCharacters(in: .whitespaces)
        return stem + ".mp4"
    }

    /// The header for `name` when it is `entry`'s download; nil for every other file. What the
    /// media route sends and what the edge's check hands nginx.
    static func contentDisposition(serving name: String, of entry: ReadyPostCache<Int64>.Entry) -> String? {
        name == entry.media.download ? contentDisposition(for: entry.post) : nil
    }

    static func contentDisposition(for post: Post) -> String {
        let name = fileName(for: post)
        let ascii = String(String.UnicodeScalarView(
            name.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil).unicodeScalars.map { $0.isASCII && $0 != "%" ? $0 : "_" }
        ))
        let allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
            .union(CharacterSet(charactersIn: "-._~"))
        let encoded = name.addingPercentEncoding(withAllowedCharacters: allowed) ?? ascii
        return "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }
}
