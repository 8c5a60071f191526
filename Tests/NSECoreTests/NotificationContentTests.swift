import NSECore
import Testing

@Suite("NotificationContent")
struct NotificationContentTests {
    func content(_ text: String) throws -> NotificationContent {
        NotificationContent(payload: try #require(JSON(parsing: text).objectValue))
    }

    @Test("reads every aps and alert key")
    func reads() throws {
        let content = try content(#"""
            {"aps":{"alert":{"title":"T","subtitle":"S","body":"B","launch-image":"L",
            "title-loc-key":"TK","title-loc-args":["a"],"subtitle-loc-key":"SK","subtitle-loc-args":["b"],
            "loc-key":"K","loc-args":["c","d"]},"badge":4,"sound":{"critical":1,"name":"alarm.caf","volume":0.5},
            "category":"C","thread-id":"th","target-content-id":"tc","interruption-level":"time-sensitive",
            "relevance-score":0.75,"filter-criteria":"work","mutable-content":1},"custom":{"k":1}}
            """#)
        #expect(content.title == "T")
        #expect(content.subtitle == "S")
        #expect(content.body == "B")
        #expect(content.launchImageName == "L")
        #expect(content.titleLocKey == "TK")
        #expect(content.titleLocArgs == ["a"])
        #expect(content.subtitleLocKey == "SK")
        #expect(content.subtitleLocArgs == ["b"])
        #expect(content.locKey == "K")
        #expect(content.locArgs == ["c", "d"])
        #expect(content.badge == 4)
        #expect(content.sound == .critical(name: "alarm.caf", volume: 0.5, critical: true))
        #expect(content.categoryIdentifier == "C")
        #expect(content.threadIdentifier == "th")
        #expect(content.targetContentIdentifier == "tc")
        #expect(content.interruptionLevel == .timeSensitive)
        #expect(content.relevanceScore == 0.75)
        #expect(content.filterCriteria == "work")
        #expect(content.isMutable)
        #expect(content.userInfo.keys == ["custom"])
    }

    @Test("a string alert is the body; setting a title turns it into a dictionary")
    func stringAlert() throws {
        var content = try content(#"{"aps":{"alert":"Hello","mutable-content":1},"id":9007199254740993}"#)
        #expect(content.body == "Hello")
        #expect(content.title == nil)
        content.title = "Greeting"
        #expect(JSON.object(content.payload).text() == #"{"aps":{"alert":{"body":"Hello","title":"Greeting"},"mutable-content":1},"id":9007199254740993}"#)
    }

    @Test("setting the body of a string alert keeps it a string; nil removes keys")
    func settingAndRemoving() throws {
        var content = try content(#"{"aps":{"alert":"Hello","badge":1,"sound":"default"}}"#)
        content.body = "Bye"
        content.badge = nil
        content.sound = .named("chime.caf")
        #expect(JSON.object(content.payload).text() == #"{"aps":{"alert":"Bye","sound":"chime.caf"}}"#)
    }

    @Test("userInfo can be replaced without touching aps")
    func userInfo() throws {
        var content = try content(#"{"a":1,"aps":{"alert":"x"},"b":2}"#)
        content.userInfo = ["c": 3]
        #expect(JSON.object(content.payload).text() == #"{"aps":{"alert":"x"},"c":3}"#)
    }

    @Test("alert text is what makes iOS run the extension")
    func alertText() throws {
        #expect(try content(#"{"aps":{"alert":{"title":"x"}}}"#).hasAlertText)
        #expect(try content(#"{"aps":{"alert":{"loc-key":"K"}}}"#).hasAlertText)
        #expect(try content(#"{"aps":{"alert":"x"}}"#).hasAlertText)
        #expect(try !content(#"{"aps":{"alert":""}}"#).hasAlertText)
        #expect(try !content(#"{"aps":{"alert":{"launch-image":"x"}}}"#).hasAlertText)
        #expect(try !content(#"{"aps":{"badge":1}}"#).hasAlertText)
    }
}
