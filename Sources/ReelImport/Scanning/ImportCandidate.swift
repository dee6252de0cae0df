import Foundation
import ReelModels

/// One future post: the media files that belong together and the metadata files that
/// describe them. Nothing here has been opened yet; the pipeline probes and parses.
public struct ImportCandidate: Sendable, Equatable {
    /// `.video`, `.image`, or `.carousel` (two or more images of one post).
    public var kind: PostKind
    /// In post order; a carousel is ordered by its `_1`, `_2`, … index.
    public var mediaFiles: [URL]
    /// yt-dlp `.info.json`, instaloader `.json` / `.json.xz`, or gallery-dl `.json`.
    public var sidecar: URL?
    /// instaloader's caption `.txt`.
    public var captionFile: URL?
    /// The first media file's path relative to the scanned root, for reports.
    public var displayPath: String
    /// Videos only: subtitle sidecars (`clip.en.vtt`, `clip.pt-BR.srt`), one per language tag,
    /// sorted by tag. Not opened yet: the pipeline reads and validates them.
    public var subtitles: [SubtitleSidecar]

    public init(
        kind: PostKind, mediaFiles: [URL], sidecar: URL? = nil, captionFile: URL? = nil, displayPath: String,
        subtitles: [SubtitleSidecar] = []
    ) {
        self.subtitles = subtitles
        self.kind = kind
        self.mediaFiles = mediaFiles
        self.sidecar = sidecar
        self.captionFile = captionFile
        self.displayPath = displayPath
    }
}

/// A subtitle file next to a video, with the language tag its name carries.
public struct SubtitleSidecar: Sendable, Equatable {
    public var url: URL
    /// `en`, `pt-BR`, `en-orig` (yt-dlp's names); `und` (undetermined) for `clip.vtt`.
    public var tag: String

    public init(url: URL, tag: String) {
        self.url = url
        self.tag = tag
    }

    /// `srt` or `vtt`, lowercased.
    public var format: String { url.pathExtension.lowercased() }

    /// A language tag as it may appear in a file name and, later, a media folder: a letter,
    /// then letters, digits and hyphens, at most 35 characters (RFC 5646's longest tags).
    /// yt-dlp's `en_US` spelling becomes `en-US`.
    public static func normalizedTag(_ text: Substring) -> String? {
        let tag = text.replacingOccurrences(of: "_", with: "-")
        guard (1...35).contains(tag.count), tag.first?.isLetter == true, tag.first?.isASCII == true,
              tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }),
              !tag.hasSuffix("-"), !tag.contains("--")
        else { return nil }
        return tag
    }
}

/// A file the scanner saw and will not import, with the reason in words a person understands.
public struct IgnoredFile: Sendable, Equatable {
    /// Relative to the scanned root, like `ImportCandidate.displayPath`.
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// Everything found under the scanned roots: in root order, and sorted by path within a root,
/// so two scans of the same tree report the same thing.
public struct ScanResult: Sendable, Equatable {
    public var candidates: [ImportCandidate]
    public var ignored: [IgnoredFile]

    public init(candidates: [ImportCandidate] = [], ignored: [IgnoredFile] = []) {
        self.candidates = candidates
        self.ignored = ignored
    }
}
