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
        if let shortcode = metadata.shortcode, nodeType != "StoryItem",
           let encoded = shortcode.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) {
            let section = node.text("product_type") == "clips" ? "reel" : "p"
            metadata.sourceURL = "https://www.instagram.com/\(section)/\(encoded)/"
        }
        metadata.tags = TagList.normalize(metadata.description.map(Hashtags.find) ?? [])
        return metadata
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
