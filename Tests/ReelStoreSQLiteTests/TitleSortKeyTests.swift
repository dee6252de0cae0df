import Foundation
import ReelModels
import Testing

@Suite("Title sort key")
struct TitleSortKeyTests {
    func key(_ title: String) -> String { TitleSortKey.key(for: title) }

    @Test func aLeadingArticleIsDropped() {
        #expect(key("The Matrix") == "matrix")
        #expect(key("A Quiet Place") == "quiet place")
        #expect(key("An Apple") == "apple")
        // Only as a word of its own, and never the whole title.
        #expect(key("Theory") == "theory")
        #expect(key("Anchor") == "anchor")
        #expect(key("The") == "the")
        #expect(key("The Matrix") > key("Alien") && key("The Matrix") < key("Nope"))
    }

    @Test func punctuationAndCaseAreIgnored() {
        #expect(key("Mr. Robot") == "mr robot")
        #expect(key("  MR ROBOT!! ") == key("mr robot"))
        #expect(key("Spider-Man") == key("spider man"))
        #expect(key("Don't Look Up") == "dont look up")
        #expect(key("¡Hola!") == "hola")
    }

    @Test func diacriticsAreFolded() {
        #expect(key("Élan") == key("elan"))
        #expect(key("Crème brûlée") == "creme brulee")
        let sorted = ["Fox", "Élan", "Dog"].sorted { key($0) < key($1) }
        #expect(sorted == ["Dog", "Élan", "Fox"])
    }

    @Test func numbersOrderByValue() {
        #expect(key("Video 2") < key("Video 10"))
        #expect(key("Video 9") < key("Video 10"))
        #expect(key("Video 10") < key("Video 100"))
        #expect(key("Video 010") == key("Video 10"))
        #expect(key("Part 0") < key("Part 1"))
        #expect(key("2 Fast") < key("10 Things"))
        let titles = ["Clip 10", "Clip 1", "Clip 2", "Clip 21", "Clip 3"]
        #expect(titles.sorted { key($0) < key($1) } == ["Clip 1", "Clip 2", "Clip 3", "Clip 10", "Clip 21"])
    }

    @Test func keysAreBounded() {
        #expect(key(String(repeating: "word ", count: 200)).count == TitleSortKey.maxLength)
        #expect(key("") == "")
        #expect(key("?!…") == "")
    }

    @Test func theTitleIsTheFirstDescriptionLineElseShortcodeElseFolder() {
        #expect(PostTitle.title(description: "\n  First line  \nsecond", shortcode: "abc", folderName: "f") == "First line")
        #expect(PostTitle.title(description: " \n ", shortcode: " abc ", folderName: "f") == "abc")
        #expect(PostTitle.title(description: nil, shortcode: nil, folderName: "folder-name") == "folder-name")
        #expect(PostTitle.title(description: nil, shortcode: "", folderName: "folder-name") == "folder-name")
    }
}
