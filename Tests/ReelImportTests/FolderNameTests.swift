import Foundation
import ReelModels
import Testing
@testable import ReelImport

@Suite("Folder names")
struct FolderNameTests {
    @Test func shortcodeWinsOverTheFileStem() {
        #expect(FolderName.make(from: PostMetadata(shortcode: "CuXyZ12_AbCd"), fileStem: "whatever") == "cuxyz12-abcd")
        #expect(FolderName.make(from: PostMetadata(shortcode: "  "), fileStem: "My Clip") == "my-clip", "a blank shortcode is no shortcode")
        #expect(FolderName.make(from: PostMetadata(shortcode: "🙂"), fileStem: "My Clip") == "my-clip")
        #expect(FolderName.make(from: nil, fileStem: "Cat video [7216549873]") == "cat-video-7216549873")
    }

    @Test func otherScriptsAreTransliterated() {
        #expect(FolderName.make(from: nil, fileStem: "Ünïcödé Café") == "unicode-cafe")
        #expect(FolderName.make(from: nil, fileStem: "Привет мир") == "privet-mir")
        #expect(FolderName.make(from: nil, fileStem: "東京") == "dong-jing")
    }

    @Test func neverEmptyNeverDots() {
        for stem in ["", ".", "..", "🙂🙂", "---", "...", "/"] {
            #expect(FolderName.make(from: nil, fileStem: stem) == "post", "\(stem.debugDescription)")
        }
    }

    @Test func onlyLowercaseLettersDigitsAndSingleInnerHyphens() {
        let name = FolderName.make(from: nil, fileStem: "  --Hello__World!!  2023..07.22 -- ")
        #expect(name == "hello-world-2023-07-22")
        let slugCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        for stem in ["A/B\\C", "x\u{0}y", "../../etc/passwd", "a\nb", "%2e%2e"] {
            let made = FolderName.make(from: nil, fileStem: stem)
            #expect(made.allSatisfy(slugCharacters.contains) && !made.hasPrefix("-") && !made.hasSuffix("-"), "\(made)")
        }
    }

    @Test func atMostSixtyFourCharactersWithoutATrailingHyphen() {
        let long = FolderName.make(from: nil, fileStem: String(repeating: "abc ", count: 40))
        #expect(long.count <= 64)
        #expect(!long.hasSuffix("-"))
        #expect(long == String(String(repeating: "abc-", count: 16).dropLast()))
        #expect(FolderName.make(from: nil, fileStem: String(repeating: "x", count: 100)).count == 64)
    }

    @Test func deterministic() {
        let metadata = PostMetadata(shortcode: "Cv1ReelXyZ0")
        #expect(FolderName.make(from: metadata, fileStem: "a") == FolderName.make(from: metadata, fileStem: "b"))
        #expect(FolderName.make(from: nil, fileStem: "Straße") == FolderName.make(from: nil, fileStem: "Straße"))
    }
}
