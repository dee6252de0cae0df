import Foundation
import ReelModels

/// How the `Upload-Metadata` values an uploader sends turn into import options.
public enum UploadMetadata {
    /// Comma-separated tags; blanks dropped.
    public static func tags(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
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
