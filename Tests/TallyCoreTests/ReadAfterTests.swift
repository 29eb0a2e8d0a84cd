import TallyCore
import Testing

@Suite("Tally-Read-After tokens")
struct ReadAfterTests {
    @Test func aPositionIsSixteenUppercaseHexDigitsAndBack() {
        for position: UInt64 in [0, 1, 0x16_B374_D848, UInt64.max] {
            let token = ReadAfter(position: position).token
            #expect(token.utf8.count == 16)
            #expect(ReadAfter(token: token)?.position == position)
        }
        #expect(ReadAfter(position: 0x16_B374_D848).token == "00000016B374D848")
        #expect(ReadAfter(position: 2) > ReadAfter(position: 1))
    }

    @Test(arguments: ["", "0", "16/B374D848", "00000016b374d848", "00000016B374D848 ", " 00000016B374D848",
                      "000000016B374D8480", "+0000016B374D848", "00000016B374D84G", "０000016B374D848",
                      "00000016B374D8\u{0}8"])
    func anythingElseIsNoToken(_ text: String) {
        #expect(ReadAfter(token: text) == nil)
    }
}
