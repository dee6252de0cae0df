import Foundation
import ReelModels

/// Which tool wrote the metadata a post was imported with.
public enum SidecarFormat: String, Sendable {
    /// yt-dlp or youtube-dl `.info.json`.
    case ytDLP
    /// instaloader `.json` / `.json.xz`, wrapped (`{"node", "instaloader"}`) or a bare node.
    case instaloader
    /// gallery-dl `--write-metadata` `.json`.
    case galleryDL
    /// Only an instaloader caption `.txt` was there (or the sidecar was unusable).
    case captionText
}

/// A parsed sidecar: the metadata, which tool wrote it, and the fields that had to be skipped.
public struct SidecarResult: Sendable, Equatable {
    public var metadata: PostMetadata
    public var format: SidecarFormat
    /// One line per skipped field (`field "timestamp" is an array, not a number; ignored`).
    public var warnings: [String]
    /// Set when the sidecar describes a story item (instaloader `StoryItem` / `GraphStory…`).
    public var story: StorySidecar?

    public init(metadata: PostMetadata, format: SidecarFormat, warnings: [String] = [], story: StorySidecar? = nil) {
        self.metadata = metadata
        self.format = format
        self.warnings = warnings
        self.story = story
    }
}

/// Turns sidecar bytes into `PostMetadata`. Pure: no files, no processes. Sidecars come from
/// many tool versions and from people's hands, so any field may be missing, `null` or of the
/// wrong type; such a field is skipped (with a warning), never the whole sidecar.
public enum SidecarParser {
    /// Detects the format from the JSON's shape (file names lie; `.json` is written by all
    /// three tools): instaloader's `{"node", "instaloader"}` wrapper; gallery-dl's `category`
    /// / `subcategory`; yt-dlp's `extractor`, `webpage_url`, `_type`, or `id` + `title` +
    /// `uploader`; finally a bare instaloader node (`shortcode` / `__typename`). gallery-dl
    /// is checked before the bare node because its Instagram files also carry `shortcode`.
    public static func parse(json: Data) -> Result<SidecarResult, ImportError> {
        let bytes = json.starts(with: [0xEF, 0xBB, 0xBF]) ? json.dropFirst(3) : json[...]
        guard bytes.contains(where: { !Self.jsonWhitespace.contains($0) }) else { return .failure(.emptySidecar) }
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            return .failure(.invalidJSON(Self.summary(of: error)))
        }
        guard let fields = root.object else {
            return .failure(.unrecognizedSidecar("the document is \(root.typeName), not an object"))
        }

        let log = WarningLog()
        let reader = FieldReader(fields, log: log)
        let metadata: PostMetadata
        let format: SidecarFormat
        var story: StorySidecar?
        if let node = fields["node"]?.object, let about = fields["instaloader"]?.object {
            let nodeType = about["node_type"]?.trimmedText
            let nodeReader = FieldReader(node, log: log, path: "node.")
            metadata = InstaloaderMapper.map(nodeReader, nodeType: nodeType)
            story = InstaloaderMapper.story(nodeReader, nodeType: nodeType)
            format = .instaloader
        } else if reader.has("category") || reader.has("subcategory") {
            metadata = GalleryDLMapper.map(reader)
            format = .galleryDL
        } else if ["extractor", "extractor_key", "webpage_url", "_type"].contains(where: reader.has)
            || ["id", "title", "uploader"].allSatisfy(reader.has) {
            metadata = YTDLPMapper.map(reader)
            format = .ytDLP
        } else if reader.has("shortcode") || reader.has("__typename") {
            metadata = InstaloaderMapper.map(reader, nodeType: nil)
            story = InstaloaderMapper.story(reader, nodeType: nil)
            format = .instaloader
        } else {
            let keys = fields.keys.sorted().prefix(5).joined(separator: ", ")
            return .failure(.unrecognizedSidecar(keys.isEmpty ? "an empty object" : "keys: \(keys)"))
        }
        return .success(SidecarResult(metadata: metadata, format: format, warnings: log.messages, story: story))
    }

    /// An instaloader caption file as text: UTF-8 (or UTF-16 with a byte-order mark, as some
    /// Windows editors save), BOM removed, line endings made `\n`, trimmed. Nil when empty.
    /// Invalid UTF-8 is repaired with U+FFFD rather than losing the whole caption.
    public static func parseCaption(text: Data) -> String? {
        let decoded: String
        if text.starts(with: [0xFF, 0xFE]) || text.starts(with: [0xFE, 0xFF]) {
            decoded = String(data: text, encoding: .utf16) ?? ""
        } else {
            let bytes = text.starts(with: [0xEF, 0xBB, 0xBF]) ? text.dropFirst(3) : text[...]
            decoded = String(decoding: bytes, as: UTF8.self)
        }
        let normalized = decoded
            .replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: "\r", with: "\n")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return normalized.isEmpty ? nil : normalized
    }

    private static let jsonWhitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]

    /// One line about why decoding failed, without the coding-path noise.
    private static func summary(of error: any Error) -> String {
        guard let decodingError = error as? DecodingError else { return "\(error)" }
        switch decodingError {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
             .keyNotFound(_, let context):
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return underlying ?? context.debugDescription
        @unknown default:
            return "\(decodingError)"
        }
    }
}
