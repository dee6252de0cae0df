import Foundation

extension APIVideo {
    /// For You's per-viewer members after `writeViewerMembers`:
    /// `,"reason":"because you liked “…”","reason_kind":"liked"`, for a writer that appends an
    /// item's parts straight into a response body (encoded as `APIVideo` encodes them).
    public static func writeReasonMembers(reason: String, kind: ReasonKind, _ write: (String) -> Void) {
        var json = JSONBytes(capacity: reason.utf8.count + 8)
        json.string(reason)
        write(",\"\(CodingKeys.reason.rawValue)\":")
        write(String(decoding: json.bytes, as: UTF8.self))
        write(",\"\(CodingKeys.reasonKind.rawValue)\":\"\(kind.rawValue)\"")
    }
}

extension APIFeedPage {
    /// The page-level member `,"mode":"for_you"` as `APIFeedPage` encodes it.
    public static func modeMember(_ mode: FeedMode) -> String {
        ",\"\(CodingKeys.mode.rawValue)\":\"\(mode.rawValue)\""
    }
}
