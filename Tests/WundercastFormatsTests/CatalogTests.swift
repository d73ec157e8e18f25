import Foundation
import Testing
@testable import WundercastFormats
import WundercastModel
import WundercastTestSupport

/// The message catalogue's files: `po/wundercast.pot` holds every marked string of the sources
/// (as `po/extract.py` finds them today), every table of English texts is marked, and every
/// `po/<lang>.po` translates every message completely (no fuzzy or empty entry, the same
/// `{placeholders}`, its language's number of plural forms).
@Suite struct CatalogTests {
    static let root = MessageCatalogs.root
    static func template() throws -> PO { try PO(path: root.appendingPathComponent("po/wundercast.pot").path) }

    @Test func theTemplateHoldsEveryMarkedStringOfTheSources() async throws {
        let result = try await runProcess(
            "/usr/bin/env", ["python3", Self.root.appendingPathComponent("po/extract.py").path], timeout: .seconds(120))
        #expect(result.status == 0, "\(result.stderr)")
        let written = try String(contentsOf: Self.root.appendingPathComponent("po/wundercast.pot"), encoding: .utf8)
        #expect(result.stdout == written, "po/wundercast.pot is not what the sources mark: run make po-update")
        #expect(try Self.template().entries.count >= 150)
    }

    /// The English texts kept in tables are marked (`N_`): each is a message of the template.
    @Test func everyTableOfEnglishTextsIsInTheTemplate() throws {
        let ids = Set(try Self.template().entries.map(\.key))
        var texts = WeatherCondition.Kind.allCases.map(\.name)
        texts += (0...99).compactMap(WMOWeatherCode.description(of:))
        texts += HumanError.sentences.values
        for text in texts { #expect(ids.contains(text), "\(text) is not marked") }
        for point in PlaceText.points { #expect(ids.contains("compass point\u{4}" + point)) }
        for force in Beaufort.allCases {
            #expect(ids.contains(Beaufort.messageContext + "\u{4}" + force.name), "\(force) is not marked")
        }
        for phase in MoonPhase.allCases {
            #expect(ids.contains(MoonPhase.messageContext + "\u{4}" + phase.name), "\(phase) is not marked")
        }
        for status in WeatherState.Status.allCases {
            #expect(ids.contains(HumanFormat.statusName(status)), "\(status)")
        }
    }

    @Test(arguments: MessageCatalogs.languages)
    func everyLanguageTranslatesEveryMessage(_ language: String) throws {
        let po = try PO(path: Self.root.appendingPathComponent("po/\(language).po").path)
        let template = try Self.template()
        let forms = language == "pl" ? 3 : 2
        #expect(po.header.contains("Plural-Forms: nplurals=\(forms);"), "\(po.header)")
        #expect(po.header.contains("charset=UTF-8"))
        #expect(po.entries.map(\.key) == template.entries.map(\.key), "po/\(language).po: run make po-update")
        for entry in po.entries {
            #expect(!entry.isFuzzy, "\(language): fuzzy \(entry.id)")
            let english = PO.placeholders(entry.id).union(PO.placeholders(entry.plural ?? ""))
            #expect(entry.strings.count == (entry.plural == nil ? 1 : forms), "\(language): \(entry.id)")
            for string in entry.strings {
                #expect(!string.isEmpty, "\(language): \(entry.id) untranslated")
                #expect(PO.placeholders(string) == english, "\(language): \(entry.id) → \(string)")
            }
        }
    }
}
