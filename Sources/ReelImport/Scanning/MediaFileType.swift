import Foundation

/// What a file is, judged by its extension alone. Deciding by content is the pipeline's job
/// (ffprobe); the scanner only needs to know which files are worth probing.
public enum MediaFileType: String, Sendable {
    case video
    case image

    /// GIF counts as video: an animated GIF is a clip. The pipeline may still decide that a
    /// one-frame GIF is an image once it has probed it.
    static let videoExtensions: Set<String> = ["mp4", "mov", "m4v", "webm", "mkv", "gif"]
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "webp", "heic", "heif"]

    /// Case-insensitive: cameras and phones write `.JPG` and `.MOV`.
    public init?(pathExtension: String) {
        let lowered = pathExtension.lowercased()
        if Self.videoExtensions.contains(lowered) {
            self = .video
        } else if Self.imageExtensions.contains(lowered) {
            self = .image
        } else {
            return nil
        }
    }
}

/// How the scanner treats a file that is not media.
enum CompanionKind: Equatable {
    /// `.json` / `.json.xz`: metadata that may belong to a post.
    case sidecar
    /// `.txt`: an instaloader caption that may belong to a post.
    case caption
    /// `.vtt` / `.srt`: subtitles (yt-dlp `--write-subs`) that may belong to a video.
    case subtitles
    /// Operating-system clutter nobody wants to hear about.
    case junk
    /// A download tool's leftover of an interrupted transfer.
    case partialDownload
    case unsupported

    init(fileName: String) {
        let lowered = fileName.lowercased()
        if Self.junkNames.contains(lowered) {
            self = .junk
        } else if lowered.hasSuffix(".json") || lowered.hasSuffix(".json.xz") {
            self = .sidecar
        } else if lowered.hasSuffix(".txt") {
            self = .caption
        } else if lowered.hasSuffix(".vtt") || lowered.hasSuffix(".srt") {
            self = .subtitles
        } else if Self.partialExtensions.contains((lowered as NSString).pathExtension) {
            self = .partialDownload
        } else {
            self = .unsupported
        }
    }

    /// Dot-files such as `.DS_Store` are already skipped as hidden; these are the rest.
    private static let junkNames: Set<String> = ["thumbs.db", "ehthumbs.db", "desktop.ini", "icon\r"]
    /// yt-dlp (`.part`, `.ytdl`) and browsers (`.crdownload`) leave these while downloading.
    private static let partialExtensions: Set<String> = ["part", "ytdl", "crdownload"]
}
