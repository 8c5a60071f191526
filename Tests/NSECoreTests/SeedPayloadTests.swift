import NSECore
import Testing

/// Payloads as they appear in Apple's documentation and in the push SDKs' docs, not written
/// for nse: the gate decision, the lint, and that every untouched byte survives.
@Suite("Seed payloads")
struct SeedPayloadTests {
    struct Seed: Sendable, CustomStringConvertible {
        var name: String
        var text: String
        var gate: String?  // nil: the extension runs
        var warnings: [String] = []
        var description: String { name }
    }

    static let seeds: [Seed] = [
        Seed(
            name: "Apple: game invitation (no mutable-content)",
            text: #"{"aps":{"alert":{"title":"Game Request","subtitle":"Five Card Draw","body":"Bob wants to play poker"},"category":"GAME_INVITATION"},"gameID":"12345678"}"#,
            gate: "not-mutable"),
        Seed(
            name: "Apple: localized title",
            text: #"{"aps":{"alert":{"title-loc-key":"GAME_PLAY_REQUEST_FORMAT","title-loc-args":["Shelly","Rick"]},"mutable-content":1}}"#,
            gate: nil),
        Seed(
            name: "Apple: encrypted secret message",
            text: #"{"aps":{"category":"SECRET","mutable-content":1,"alert":{"title":"Secret Message!","body":"(Encrypted)"}},"ENCRYPTED_DATA":"Salted__\u00b7\u00f6\u00eeQ\u00ca$UD\u00ec_\u00b6\u00d9\u221e\u00e8"}"#,
            gate: nil),
        Seed(
            name: "Apple: silent background update",
            text: #"{"aps":{"content-available":1},"acme1":"bar","acme2":42}"#,
            gate: "not-mutable"),
        Seed(
            name: "Apple: critical alert",
            text: #"{"aps":{"alert":"Smoke detected in the kitchen","sound":{"critical":1,"name":"alarm.caf","volume":1.0},"interruption-level":"critical"}}"#,
            gate: "not-mutable"),
        Seed(
            name: "Firebase: image notification",
            text: #"{"aps":{"alert":{"title":"Sale","body":"50% off today"},"mutable-content":1},"fcm_options":{"image":"https://example.com/sale.png"},"gcm.message_id":"1647295380945785","google.c.a.e":"1","google.c.sender.id":"449451107265"}"#,
            gate: nil),
        Seed(
            name: "OneSignal: attachment",
            text: #"{"aps":{"alert":{"title":"Hi","body":"Look at this"},"mutable-content":1,"sound":"default"},"att":{"id":"https://img.onesignal.com/n/abc.jpg"},"custom":{"i":"b2f7f966-d8cc-11e4-bed1-df8f05be55ba","a":{"deep":"link"}}}"#,
            gate: nil),
        Seed(
            name: "Airship: media attachment with crop and time",
            text: #"{"aps":{"alert":"New video","mutable-content":1},"com.urbanairship.media_attachment":{"url":["https://example.com/v.mp4"],"options":{"crop":{"x":0.25,"y":0.25,"width":0.5,"height":0.5},"time":15.5},"content":{"title":"Watch","body":"A new video"}},"_":"4d7ab1c2-3c55-4f5a-8bd2-2d0c9e6f1a77"}"#,
            gate: nil),
        Seed(
            name: "Braze: attachment",
            text: #"{"aps":{"alert":{"title":"Braze","body":"Rich push"},"mutable-content":1},"ab":{"att":{"url":"https://example.com/a.gif","type":"gif"},"c":"dGVzdA=="},"ab_uri":"myapp://home"}"#,
            gate: nil),
        Seed(
            name: "JPush: message id beyond a Double",
            text: #"{"_j_business":1,"_j_uid":60239493383,"_j_msgid":29273432613945685,"aps":{"alert":"Hello","badge":1,"sound":"default","mutable-content":1}}"#,
            gate: nil),
        Seed(
            name: "PHP json_encode escapes",
            text: #"{"aps":{"alert":{"title":"Caf\u00e9","body":"http:\/\/example.com\/a"},"mutable-content":1},"url":"https:\/\/example.com\/caf\u00e9.jpg"}"#,
            gate: nil),
        Seed(
            name: "string mutable-content, a common mistake",
            text: #"{"aps":{"alert":{"title":"Oops","body":"string flag"},"mutable-content":"1"}}"#,
            gate: "not-mutable",
            warnings: ["aps.mutable-content is the string \"1\"; APNs expects the number 1, and iOS will not run the extension"]),
        Seed(
            name: "mutable-content without alert (background only)",
            text: #"{"aps":{"content-available":1,"mutable-content":1},"sync":"full"}"#,
            gate: "no-alert",
            warnings: ["aps has mutable-content but no alert; iOS runs the extension only for notifications that show an alert"]),
        Seed(
            name: "Live Activity update",
            text: #"{"aps":{"timestamp":1685952000,"event":"update","content-state":{"currentHealthLevel":0.941,"eventDescription":"Power Panda found a sword!"},"alert":{"title":{"loc-key":"%@ is on an adventure!","loc-args":["Power Panda"]},"body":{"loc-key":"%@ found a sword!","loc-args":["Power Panda"]},"sound":"chime.aiff"}}}"#,
            gate: "not-mutable",
            warnings: [
                "aps.alert.sound is not a key APNs defines for an alert",
                "aps.alert.title is an object; it must be a string",
                "aps.alert.body is an object; it must be a string",
            ]),
        Seed(
            name: "badge sent as a string",
            text: #"{"aps":{"alert":"You have mail","badge":"5","mutable-content":1}}"#,
            gate: nil,
            warnings: ["aps.badge is the string \"5\"; it must be a whole number"]),
    ]

    struct Noop: Modifier {
        let name = "noop"
        func modify(_ content: inout NotificationContent, context: ModifierContext) async throws {}
    }

    @Test("gate, lint, and untouched bytes", arguments: seeds)
    func seed(_ seed: Seed) async throws {
        let pipeline = Pipeline(steps: [.init(Noop())])
        let result = await pipeline.process(try NotificationRequest(id: "seed", json: Array(seed.text.utf8)))
        #expect(result.outcome == (seed.gate == nil ? .unchanged : .skipped))
        #expect(result.reason == seed.gate)
        #expect(result.warnings == seed.warnings)
        #expect(result.contentJSON() == Array(seed.text.utf8))
        let line = String(decoding: result.serialized(), as: UTF8.self)
        #expect(line.contains(#""content":\#(seed.text),"attachments""#))
    }

    @Test("a step's edit leaves every other key and number as written")
    func editKeepsTheRest() async throws {
        struct Retitle: Modifier {
            let name = "retitle"
            func modify(_ content: inout NotificationContent, context: ModifierContext) async throws {
                content.title = "Edited"
            }
        }
        let text = #"{"_j_business":1,"_j_uid":60239493383,"_j_msgid":29273432613945685,"aps":{"alert":{"body":"Hello"},"badge":1,"relevance-score":0.10,"mutable-content":1},"big":1.0e+400}"#
        let result = await Pipeline(steps: [.init(Retitle())]).process(try NotificationRequest(id: "s", json: Array(text.utf8)))
        #expect(result.outcome == .modified)
        #expect(result.contentJSON() == Array(#"{"_j_business":1,"_j_uid":60239493383,"_j_msgid":29273432613945685,"aps":{"alert":{"body":"Hello","title":"Edited"},"badge":1,"relevance-score":0.10,"mutable-content":1},"big":1.0e+400}"#.utf8))
    }
}
