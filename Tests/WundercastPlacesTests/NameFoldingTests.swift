import Testing
import WundercastPlaces

@Suite struct NameFoldingTests {
    @Test(arguments: [
        ("Tromsø", "tromso"), ("TROMSØ", "tromso"), ("São Paulo", "sao paulo"), ("Ærøskøbing", "aeroskobing"),
        ("Straße", "strasse"), ("Łódź", "lodz"), ("Đà Nẵng", "da nang"), ("İstanbul", "istanbul"),
        ("Diyarbakır", "diyarbakir"), ("Þórshöfn", "thorshofn"), ("Œuvre", "oeuvre"),
        ("Winston-Salem", "winston salem"),
        ("St. John's", "st johns"), ("Hawaiʻi", "hawaii"), ("  Los   Angeles ", "los angeles"),
        ("Sa\u{0303}o Paulo", "sao paulo"), ("Gəncə", "gence"), ("Москва", "москва"), ("Los Ángeles", "los angeles"),
    ])
    func folds(_ name: String, _ folded: String) {
        #expect(NameFolding.folded(name) == folded)
    }

    @Test func controlCharactersSeparateWords() {
        #expect(NameFolding.folded("Los\tAngeles\n") == "los angeles")
    }
}
