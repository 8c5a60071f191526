import Testing
@testable import RewritePlugin

@Suite struct LocaleFallbackTests {
    @Test func scriptAndRegionFallBackToLanguageThenDevelopmentLanguageThenBase() {
        #expect(LocaleFallback.chain(locale: "zh-Hant-TW", developmentLanguage: "en")
            == ["zh-Hant-TW", "zh-Hant", "zh", "en", "Base"])
        #expect(LocaleFallback.chain(locale: "fr-CA", developmentLanguage: "en") == ["fr-CA", "fr", "en", "Base"])
        #expect(LocaleFallback.chain(locale: "en-GB", developmentLanguage: "en") == ["en-GB", "en", "Base"])
        #expect(LocaleFallback.chain(locale: "de", developmentLanguage: nil) == ["de", "Base"])
    }

    @Test func regionImpliesScript() {
        #expect(LocaleFallback.chain(locale: "zh-TW", developmentLanguage: "en") == ["zh-TW", "zh-Hant", "zh", "en", "Base"])
        #expect(LocaleFallback.chain(locale: "zh_CN", developmentLanguage: nil) == ["zh-CN", "zh-Hans", "zh", "Base"])
    }

    @Test func normalizesSpellings() {
        #expect(LocaleFallback.normalize("pt_br") == "pt-BR")
        #expect(LocaleFallback.normalize("ZH-hant-tw") == "zh-Hant-TW")
        #expect(LocaleFallback.normalize("en_US@calendar=gregorian") == "en-US")
        #expect(LocaleFallback.normalize("de-DE-u-co-phonebk") == "de-DE")
        #expect(LocaleFallback.same("English", "en"))
        #expect(LocaleFallback.same("pt_BR", "pt-br"))
    }
}
