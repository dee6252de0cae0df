/// Fills a route template (`/api/v1/videos/{id}/tags/{tag}`) with concrete values, for tests
/// that call every registered route. `folder` names a seed-000 folder (one that exists in the
/// test's library, or a harmless one that does not).
func samplePath(_ template: String, folder: String) -> String {
    template.split(separator: "/", omittingEmptySubsequences: false).map { part -> String in
        switch part {
        case "{id}", "{post_id}": "1"
        case "{folder}": folder
        case "{tag}": "cats"
        case "{flag}": "broken"
        case "{token}", "{sig}": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
        case "{hash}": "0123456789abcdef"
        default: part.hasPrefix("{") ? "x" : String(part)
        }
    }.joined(separator: "/")
}
