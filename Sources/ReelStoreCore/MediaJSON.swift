import Foundation
import ReelCache
import ReelModels
import ReelStore

/// Posts' `media_json` decoded, remembered by its exact text.
///
/// Every listing decodes each post's media JSON (renditions, segment lists, images), and
/// profiling the feed showed that decode as the largest single cost of a page. The key is the
/// JSON text itself, so an entry can never be stale (a re-published post has different text and
/// simply misses), and one memory serves every store in the process.
public enum MediaJSON {
    static let decoded = BoundedCache<String, PublishedMedia, NoRevision>(capacity: 4096)

    /// `postID` names the post in the error when the text is not readable media.
    public static func decode(_ json: String, postID: Int64) throws -> PublishedMedia {
        do {
            return try decoded.value(for: json) { try JSONDecoder().decode(PublishedMedia.self, from: Data(json.utf8)) }
        } catch {
            throw StoreError.corrupt("post \(postID) media_json: \(error)")
        }
    }

    /// The text a store keeps for `media`.
    public static func encode(_ media: PublishedMedia) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(media), as: UTF8.self)
    }

    /// Entries held (for the tests of the bound).
    public static var count: Int { decoded.count }
}
