import Foundation

/// Which URLs may become `PostMetadata.sourceURL`: absolute http(s) links only, so that a
/// client rendering the link can never be handed `javascript:` or a local path.
enum WebURL {
    static func accept(_ text: String) -> String? {
        guard let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty else { return nil }
        return text
    }

    /// The first of `keys` holding an acceptable link; a present but unusable one is warned about.
    static func first(of keys: [String], in reader: FieldReader) -> String? {
        for key in keys {
            guard let text = reader.text(key) else { continue }
            if let url = accept(text) { return url }
            reader.log.add("field \"\(reader.path)\(key)\" is not an http(s) link; ignored")
        }
        return nil
    }

    /// Whether a gallery-dl `url` is the post's page rather than the media file it downloaded
    /// (which is what that field usually holds, and which expires or leaks a CDN token).
    static func isPostPage(_ text: String) -> Bool {
        guard accept(text) != nil, let components = URLComponents(string: text), let host = components.host?.lowercased() else {
            return false
        }
        let mediaHosts = ["cdn", "scontent", "twimg.com", "googlevideo", "fbsbx", "akamai", "i.redd.it", "v.redd.it"]
        if mediaHosts.contains(where: host.contains) { return false }
        let fileExtension = (components.path as NSString).pathExtension.lowercased()
        if MediaFileType(pathExtension: fileExtension) != nil || ["m3u8", "mpd", "ts", "m4s", "mp3", "m4a"].contains(fileExtension) {
            return false
        }
        return components.path.count > 1
    }
}
