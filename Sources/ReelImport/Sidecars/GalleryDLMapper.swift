import Foundation
import ReelModels

/// gallery-dl `--write-metadata` files. Every extractor names its fields differently, so each
/// value is taken from the first of several known names (Instagram, Twitter/X, TikTok, Reddit…).
enum GalleryDLMapper {
    static func map(_ fields: FieldReader) -> PostMetadata {
        var metadata = PostMetadata()
        metadata.description = fields.text("description", "content", "caption", "title")

        let person = author(fields)
        metadata.username = fields.text("username") ?? person.username
        metadata.uploader = person.displayName ?? fields.text("fullname") ?? metadata.username
        metadata.shortcode = fields.text("shortcode", "post_shortcode", "id", "tweet_id")
        metadata.datePosted = datePosted(fields)
        metadata.sourceURL = sourceURL(fields, username: metadata.username)

        let captionTags = metadata.description.map(Hashtags.find) ?? []
        metadata.tags = TagList.normalize(fields.tags("tags") + fields.tags("hashtags") + captionTags)
        return metadata
    }

    /// `author` / `user` / `owner` is an object on most sites and plain text on some. Twitter
    /// objects have the handle in `name` and the display name in `nick`; others use
    /// `username` and `name`/`full_name`.
    private static func author(_ fields: FieldReader) -> (username: String?, displayName: String?) {
        for key in ["author", "user", "owner"] {
            let (object, text) = fields.objectOrText(key)
            if let text { return (nil, text) }
            guard let object else { continue }
            let username = object.text("username") ?? (object.has("nick") ? object.text("name") : nil)
            let displayName = object.text("nick", "full_name", "fullname", "name") ?? username
            if username != nil || displayName != nil { return (username, displayName) }
        }
        return (nil, nil)
    }

    private static func datePosted(_ fields: FieldReader) -> String? {
        for key in ["date", "post_date"] {
            guard let text = fields.text(key) else { continue }
            if let date = PostDate.iso(fromDateTime: text) { return date }
            // Some extractors store a Unix time here.
            if let seconds = Double(text), let date = PostDate.iso(fromSeconds: seconds) { return date }
            fields.log.add("field \"\(key)\" (\(text)) is not a date; ignored")
        }
        return fields.seconds("timestamp").flatMap(PostDate.iso(fromSeconds:))
    }

    private static func sourceURL(_ fields: FieldReader, username: String?) -> String? {
        if let postURL = WebURL.first(of: ["post_url"], in: fields) { return postURL }
        if let url = fields.text("url"), WebURL.isPostPage(url) { return url }
        if let page = WebURL.first(of: ["webpage_url"], in: fields) { return page }
        // Twitter metadata has no link, but the tweet's address follows from its parts
        // (handles are ASCII letters, digits and `_`; anything else is not a handle).
        if fields.text("category") == "twitter", let username, let tweet = fields.text("tweet_id"),
           tweet.allSatisfy({ $0.isASCII && $0.isNumber }),
           username.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) {
            return "https://x.com/\(username)/status/\(tweet)"
        }
        return nil
    }
}
