/// The one table of media types, by a published file's extension: what the media routes and
/// the nginx edge answer with, and what a bucket stores each object with (so S3 or a CDN in
/// front of it serves the same). Anything unexpected is an opaque download.
public enum MediaType {
    public static let octetStream = "application/octet-stream"
    public static let playlist = "application/vnd.apple.mpegurl"

    /// The type of a listed name (`720p/seg_00000.m4s`, `poster.jpg`; `key` is the AES key).
    public static func of(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), !name[dot...].contains("/") else { return octetStream }
        switch name[name.index(after: dot)...].lowercased() {
        case "m3u8": return playlist
        case "m4s": return "video/iso.segment"
        case "mp4": return "video/mp4"
        case "m4a": return "audio/mp4"
        case "ts": return "video/mp2t"
        case "aac": return "audio/aac"
        case "vtt": return "text/vtt; charset=utf-8"
        case "jpg", "jpeg": return "image/jpeg"
        case "webp": return "image/webp"
        case "png": return "image/png"
        case "avif": return "image/avif"
        case "json": return "application/json"
        default: return octetStream
        }
    }

    public static func isPlaylist(_ name: String) -> Bool { name.lowercased().hasSuffix(".m3u8") }
}
