import Foundation
import ReelModels

/// yt-dlp / youtube-dl `.info.json` (the same fields; youtube-dl files simply lack newer ones
/// such as `tags`, `timestamp` or `channel`). Duration and formats are ignored: the pipeline
/// probes the file itself and trusts that over any sidecar.
enum YTDLPMapper {
    static func map(_ info: FieldReader) -> PostMetadata {
        var metadata = PostMetadata()
        // Shorts and TikToks often have no description but a meaningful title.
        metadata.description = info.text("description") ?? info.text("title")
        metadata.uploader = info.text("uploader", "channel")
        metadata.username = info.text("uploader_id").flatMap(Self.withoutAtSign)
        metadata.shortcode = info.text("id")
        metadata.datePosted = Self.datePosted(info)
        metadata.sourceURL = WebURL.first(of: ["webpage_url", "original_url"], in: info)
        metadata.tags = TagList.normalize(info.tags("tags") + info.tags("categories"))
        return metadata
    }

    /// `timestamp` is exact; `upload_date` (all youtube-dl has) is only the day.
    private static func datePosted(_ info: FieldReader) -> String? {
        if let seconds = info.seconds("timestamp") {
            if let date = PostDate.iso(fromSeconds: seconds) { return date }
            info.log.add("field \"timestamp\" (\(seconds)) is not a plausible time; ignored")
        }
        if let day = info.text("upload_date") {
            if let date = PostDate.iso(fromCompactDate: day) { return date }
            info.log.add("field \"upload_date\" (\(day)) is not a YYYYMMDD date; ignored")
        }
        return nil
    }

    /// TikTok and YouTube handles are written `@name`; the username is `name`.
    private static func withoutAtSign(_ handle: String) -> String? {
        let name = handle.hasPrefix("@") ? String(handle.dropFirst()) : handle
        return name.isEmpty ? nil : name
    }
}
