import Foundation
import ReelModels

/// instaloader's post node (the `node` of `{"node": …, "instaloader": {"node_type": "Post"}}`,
/// or the node alone as older versions wrote it). Instagram's GraphQL field names.
enum InstaloaderMapper {
    static func map(_ node: FieldReader, nodeType: String?) -> PostMetadata {
        var metadata = PostMetadata()
        metadata.shortcode = node.text("shortcode", "code")
        if let owner = node.object("owner") {
            metadata.username = owner.text("username")
            metadata.uploader = owner.text("full_name") ?? metadata.username
        }
        metadata.description = caption(of: node)
        if let seconds = node.seconds("taken_at_timestamp") ?? node.seconds("taken_at") {
            metadata.datePosted = PostDate.iso(fromSeconds: seconds)
            if metadata.datePosted == nil { node.log.add("field \"\(node.path)taken_at_timestamp\" is not a plausible time; ignored") }
        }
        // Stories have no permanent page; posts and reels do, under different paths.
        if let shortcode = metadata.shortcode, !isStory(node, nodeType: nodeType),
           let encoded = shortcode.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) {
            let section = node.text("product_type") == "clips" ? "reel" : "p"
            metadata.sourceURL = "https://www.instagram.com/\(section)/\(encoded)/"
        }
        metadata.tags = TagList.normalize(metadata.description.map(Hashtags.find) ?? [])
        return metadata
    }

    /// The story facts of a story node (`StoryItem`, or a `GraphStory…` type), nil for posts.
    /// A `StoryItem`'s owner is the profile instaloader saved with it (`owner.username`);
    /// Instagram's mobile API names it `user`.
    static func story(_ node: FieldReader, nodeType: String?) -> StorySidecar? {
        guard isStory(node, nodeType: nodeType) else { return nil }
        let author = node.object("owner")?.text("username") ?? node.text("owner_username") ?? node.object("user")?.text("username")
        let posted = node.seconds("taken_at_timestamp") ?? node.seconds("taken_at")
        let expiring = node.seconds("expiring_at_timestamp") ?? node.seconds("expiring_at")
        return StorySidecar(
            author: author.flatMap { StorySidecar.isPlausibleUsername($0) ? $0 : nil },
            postedAt: posted.flatMap(plausibleDate), expiringAt: expiring.flatMap(plausibleDate)
        )
    }

    private static func isStory(_ node: FieldReader, nodeType: String?) -> Bool {
        StorySidecar.isStory(typeName: node.fields["__typename"]?.trimmedText, nodeType: nodeType)
    }

    /// The same sanity bounds as `PostDate` (after 1970, before 10000).
    private static func plausibleDate(_ seconds: Double) -> Date? {
        PostDate.iso(fromSeconds: seconds) == nil ? nil : Date(timeIntervalSince1970: seconds)
    }

    /// GraphQL nests the caption as `edge_media_to_caption.edges[0].node.text`; the newer
    /// mobile-API nodes have `caption` as text or as `{"text": …}`.
    private static func caption(of node: FieldReader) -> String? {
        if let edges = node.object("edge_media_to_caption")?.array("edges"),
           let text = edges.first?["node"]?["text"]?.trimmedText {
            return text
        }
        let (object, text) = node.objectOrText("caption")
        return text ?? object?.text("text")
    }
}
