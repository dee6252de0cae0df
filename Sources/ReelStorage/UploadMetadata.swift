import Foundation
import ReelModels

/// How the `Upload-Metadata` values an uploader sends turn into import options.
public enum UploadMetadata {
    /// Comma-separated tags; blanks dropped.
    public static func tags(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    public static let libraryKey = "library"

    /// The library id an upload goes to; missing means the default library. The server checks
    /// the uploader is granted it and records the id when the upload is created.
    public static func library(_ text: String?) throws -> Int64? {
        guard let text, !text.isEmpty else { return nil }
        guard let id = Int64(text), id > 0 else { throw PipelineError.rejected("library must be a library id (a positive integer)") }
        return id
    }

    public static let storyKey = "story"

    /// Whether the upload is posted as the uploader's story: `1` yes, `0` or missing no.
    /// Anything else is refused when the upload is created.
    public static func story(_ text: String?) throws -> Bool {
        switch text {
        case nil, "", "0": return false
        case "1": return true
        default: throw PipelineError.rejected("story must be 1 (post as your story) or 0")
        }
    }

    /// A look by name; missing means none. An unknown name is refused when the upload is created.
    public static func filter(_ text: String?) throws -> VideoFilter {
        guard let text, !text.isEmpty else { return .none }
        guard let filter = VideoFilter(rawValue: text) else {
            throw PipelineError.rejected("unknown filter \"\(text)\"; use one of \(VideoFilter.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return filter
    }
}
