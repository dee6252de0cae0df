import Foundation
import ReelModels

/// The sentences For You's items carry as `reason` (docs/recommendations-api.md).
public enum ReasonText {
    /// Longest anchor title quoted in a reason, "…" included.
    public static let maxTitleLength = 40

    /// `reason`: `anchorTitle` is the anchor post's title (`title(description:shortcode:folderName:)`),
    /// `uploaderName` the name the post shows; either is used only by its kind of reason.
    public static func sentence(_ reason: Reason, anchorTitle: String?, uploaderName: String?) -> String {
        switch reason {
        case .liked: "because you liked “\(anchorTitle ?? "")”"
        case .watched: "because you watched “\(anchorTitle ?? "")”"
        case .tag(let tag): "because you like #\(tag)"
        case .uploader(let key): "because you watch \(uploaderName ?? key)"
        case .popular: "popular"
        case .new: "new"
        case .explore: "explore"
        }
    }

    /// An anchor post's title as a reason quotes it (`PostTitle.shown`: its description's
    /// first line without hashtags, else its shortcode, else its folder name), cut to
    /// `maxTitleLength` characters with "…".
    public static func title(description: String?, shortcode: String?, folderName: String) -> String {
        let title = PostTitle.shown(description: description, shortcode: shortcode, folderName: folderName)
        guard title.count > maxTitleLength else { return title }
        return title.prefix(maxTitleLength - 1).trimmingCharacters(in: .whitespaces) + "…"
    }
}
