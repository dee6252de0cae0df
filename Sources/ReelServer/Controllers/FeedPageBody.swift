import Foundation
import NIOCore
import ReelModels
import ReelStore

/// Writes a feed page's JSON (`APIFeedPage`: `{"items":[…],"next_cursor":"…"}`) from cached
/// item parts: each item is its post's encoded shared part (see `EncodedItemCache`) followed by
/// this viewer's fields (with For You's `reason` and `reason_kind`, which are this viewer's
/// too). Decodes to exactly the `APIFeedPage` that encoding the presented items would give
/// (`FeedPageBodyTests`).
struct FeedPageBody {
    let presenter: VideoPresenter
    let cache: EncodedItemCache

    /// An item's For You reason: the sentence and its kind.
    struct Reason: Sendable, Equatable {
        var text: String
        var kind: ReasonKind
    }

    /// `items` must have their refs loaded (`VideoPresenter.withRefs`). `terms`, when given,
    /// follow as a top-level array (a search page, `APISearchPage`). `reasons`, when given, are
    /// the items' For You reasons by post id; `mode`, when given, is the page's feed mode.
    func encode(
        _ items: [FeedItem], nextCursor: String?, terms: [String]? = nil, reasons: [Int64: Reason]? = nil, mode: FeedMode? = nil,
        now: Date
    ) throws -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(2048 * max(1, items.count))
        buffer.writeStaticString("{")
        try writeMembers(items, nextCursor: nextCursor, reasons: reasons, now: now, into: &buffer)
        if let mode { buffer.writeString(APIFeedPage.modeMember(mode)) }
        if let terms {
            buffer.writeStaticString(",\"terms\":")
            var json = JSONBytes()
            json.array(terms) { $0.string($1) }
            buffer.writeBytes(json.bytes)
        }
        buffer.writeStaticString("}")
        return buffer
    }

    /// The page's members (`"items":[…]` and `,"next_cursor":"…"` when there is one) without
    /// the braces, for objects that hold a page among other members (a shelf).
    func writeMembers(
        _ items: [FeedItem], nextCursor: String?, reasons: [Int64: Reason]? = nil, now: Date, into buffer: inout ByteBuffer
    ) throws {
        let expiry = presenter.tokens.expiry(now: now)
        let viewer = MediaViewer.current
        let templating = presenter.templating()
        buffer.writeStaticString("\"items\":[")
        for (index, item) in items.enumerated() {
            if index > 0 { buffer.writeStaticString(",") }
            let template = try cache.template(for: item, expiry: expiry, placeholder: VideoPresenter.tokenPlaceholder) {
                var json = JSONBytes(capacity: 1536)
                try APIVideo.SharedPart(templating.present(item, now: now)).write(into: &json)
                return json.bytes
            }
            template.write(token: presenter.tokens.token(postID: item.post.id, viewer: viewer, expiry: expiry), into: &buffer)
            APIVideo.writeViewerMembers(
                isFavorited: item.viewer.isFavorited, rating: item.viewer.rating, position: item.viewer.position
            ) { buffer.writeString($0) }
            if let reason = reasons?[item.post.id] {
                APIVideo.writeReasonMembers(reason: reason.text, kind: reason.kind) { buffer.writeString($0) }
            }
            buffer.writeStaticString("}")
        }
        buffer.writeStaticString("]")
        if let nextCursor {
            buffer.writeStaticString(",\"next_cursor\":")
            buffer.writeBytes(Self.jsonString(nextCursor))
        }
    }

    /// A JSON string literal, escaped as the responses' encoder escapes it.
    static func jsonString(_ text: String) -> [UInt8] {
        var json = JSONBytes(capacity: text.utf8.count + 2)
        json.string(text)
        return json.bytes
    }
}
