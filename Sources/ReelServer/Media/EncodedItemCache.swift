import Foundation
import NIOCore
import ReelCache
import ReelModels
import ReelStore

/// Each post's encoded `APIVideo.SharedPart` (everything but the viewer's fields), reused while
/// the post and its token window stay the same.
///
/// Profiling the feed showed encoding a page as its largest cost, and all of it but three fields
/// and the media token per item is the same for every viewer during a token window. The token
/// names its viewer (`MediaViewer`), so an entry is kept as a template: the encoded bytes split
/// where the media URLs carry the token (`VideoPresenter.tokenPlaceholder`), joined again with
/// each viewer's own token as the page is written. An entry remembers exactly what
/// it was made from (the store's revision of the post, or the post and its tag and flag refs
/// themselves; the URLs' expiry) and is used only when the item now being served matches, so
/// an edited, re-published or re-tagged post, or a new token window, simply misses: nothing
/// ever needs invalidating. Bounded (`BoundedCache`: when full, each new item evicts an old one).
final class EncodedItemCache: Sendable {
    /// What an entry was made from: the store's revision of the item when it has one (one
    /// comparison), else the item's values themselves; and the URLs' expiry.
    private struct Source: Equatable, Sendable {
        enum Version: Equatable, Sendable {
            case revision(Int64)
            case values(Post, tags: [TagCount]?, flags: [TagCount]?)
        }

        let version: Version
        let expiry: Int64

        init(_ item: FeedItem, expiry: Int64) {
            version = item.revision.map(Version.revision) ?? .values(item.post, tags: item.tagRefs, flags: item.flagRefs)
            self.expiry = expiry
        }
    }

    /// The encoded shared parts (without their closing brace) by post id, each checked against
    /// what it was made from.
    private let entries: BoundedCache<Int64, Template, Source>

    /// An encoded shared part without its closing `}`, in pieces that the viewer's media token
    /// joins.
    struct Template: Sendable, Equatable {
        let pieces: [[UInt8]]

        /// Splits `bytes` at every occurrence of `placeholder`.
        init(_ bytes: [UInt8], placeholder: [UInt8]) {
            var pieces: [[UInt8]] = []
            var start = 0, index = 0
            while index + placeholder.count <= bytes.count {
                if bytes[index] == placeholder[0] && bytes[index..<(index + placeholder.count)].elementsEqual(placeholder) {
                    pieces.append(Array(bytes[start..<index]))
                    index += placeholder.count
                    start = index
                } else {
                    index += 1
                }
            }
            pieces.append(Array(bytes[start...]))
            self.pieces = pieces
        }

        func write(token: String, into buffer: inout ByteBuffer) {
            for (index, piece) in pieces.enumerated() {
                if index > 0 { buffer.writeString(token) }
                buffer.writeBytes(piece)
            }
        }
    }

    init(capacity: Int = 4096) {
        entries = BoundedCache(capacity: capacity)
    }

    /// The item's shared part, encoded with `placeholder` for its media token and without its
    /// closing `}`, from memory when it was made from an equal item in the same token window,
    /// else from `encode`.
    func template(for item: FeedItem, expiry: Int64, placeholder: String, encode: () throws -> [UInt8]) rethrows -> Template {
        try entries.value(for: item.post.id, revision: Source(item, expiry: expiry)) {
            var bytes = try encode()
            if bytes.last == UInt8(ascii: "}") { bytes.removeLast() }
            return Template(bytes, placeholder: Array(placeholder.utf8))
        }
    }

    var count: Int { entries.count }
}
