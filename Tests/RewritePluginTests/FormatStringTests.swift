import Testing
@testable import RewritePlugin

@Suite struct FormatStringTests {
    func fill(_ format: String, _ arguments: [String]) -> String {
        FormatString.fill(format, arguments: arguments).text
    }

    @Test func sequentialObjects() {
        #expect(fill("%@ and %@ have invited you to play Monopoly", ["Jenna", "Frank"])
            == "Jenna and Frank have invited you to play Monopoly")
    }

    @Test func positionalOutOfOrder() {
        #expect(fill("%2$@ a invité %1$@", ["Jenna", "Frank"]) == "Frank a invité Jenna")
        #expect(fill("%2$@ 和 %1$@ 邀请你 🎲", ["小明", "小红"]) == "小红 和 小明 邀请你 🎲")
    }

    @Test func numbersFromStringArguments() {
        #expect(fill("%d new", ["3"]) == "3 new")
        #expect(fill("%i/%u", ["-4", "7"]) == "-4/7")
        #expect(fill("%ld %lu %lld %1$ld", ["12", "13", "14"]) == "12 13 14 12")
        #expect(fill("%.1f km", ["2.25"]) == "2.2 km" || fill("%.1f km", ["2.25"]) == "2.3 km")
        #expect(fill("%f", ["1.5"]) == "1.500000")
        #expect(fill("%03d", ["7"]) == "007")
        #expect(fill("%d", ["abc"]) == "0")
        #expect(fill("%d", ["12abc"]) == "12")
    }

    @Test func percentSigns() {
        #expect(fill("100%% sure, %@", ["Bob"]) == "100% sure, Bob")
        #expect(fill("50%!", []) == "50%!")  // not a specifier: kept as written
        // As in printf, "% o" is a specifier (octal, space flag): write "50%% off".
        #expect(fill("50% off", ["8"]) == "5010ff")
        #expect(fill("ends with %", []) == "ends with %")
    }

    @Test func missingArgumentsShowNullAndAreCounted() {
        let filled = FormatString.fill("%@ and %@ have invited you", arguments: ["Jenna"])
        #expect(filled.text == "Jenna and (null) have invited you")
        #expect(filled.argumentsNeeded == 2)
        #expect(FormatString.fill("%3$@", arguments: []).argumentsNeeded == 3)
    }

    @Test func extraArgumentsAreIgnored() {
        let filled = FormatString.fill("Hi %@", arguments: ["A", "B", "C"])
        #expect(filled.text == "Hi A")
        #expect(filled.argumentsNeeded == 1)
    }

    @Test func widthOnObjects() {
        #expect(fill("[%5@]", ["ab"]) == "[   ab]")
        #expect(fill("[%-5@]", ["ab"]) == "[ab   ]")
    }
}

@Suite struct FormatStringBoundsTests {
    @Test func hugeWidthsAndPrecisionsAreCapped() {
        let filled = FormatString.fill("%999999@|%.999999f", arguments: ["x", "1"])
        let parts = filled.text.split(separator: "|")
        #expect(parts[0].count == FormatString.maxFieldWidth)
        #expect(parts[1].count <= FormatString.maxFieldWidth + 2)
    }

    @Test func aHostileFormatCannotGrowTheTextWithoutEnd() {
        let format = String(repeating: "%256@", count: 100_000)
        let filled = FormatString.fill(format, arguments: [])
        #expect(filled.text.unicodeScalars.count == FormatString.maxOutputScalars)
    }
}
