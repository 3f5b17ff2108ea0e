import Testing

@testable import MarketPages

/// Korean phrases choose each particle for the word before it, as a Korean person writes it, never
/// "을(를)": by a Hangul syllable's final consonant, by how a number or a Latin letter is read
/// (a model name's one digit in English: M3 엠쓰리를, A7 에이세븐을).
@Suite struct KoreanParticleTests {
    let words = Localization(
        language: .ko,
        phrases: [
            "deleted": "“{name}”{name~을} 삭제했습니다.", "signedIn": "{name}{name~으로} 로그인했습니다.",
            "topic": "{name}{name~은} {name~이} {name~과}",
        ])

    @Test(arguments: [
        ("카메라", "“카메라”를 삭제했습니다."), ("가방", "“가방”을 삭제했습니다."), ("Film camera", "“Film camera”를 삭제했습니다."),
        ("Apple Pencil", "“Apple Pencil”을 삭제했습니다."), ("아이폰 13", "“아이폰 13”을 삭제했습니다."),
        ("의자 2개", "“의자 2개”를 삭제했습니다."), ("맥북 M3", "“맥북 M3”를 삭제했습니다."),
        ("맥북 M1", "“맥북 M1”을 삭제했습니다."), ("소니 A7", "“소니 A7”을 삭제했습니다."), ("PS5", "“PS5”를 삭제했습니다."),
        ("iPhone 15", "“iPhone 15”를 삭제했습니다."), ("USB-C", "“USB-C”를 삭제했습니다."), ("4K", "“4K”를 삭제했습니다."),
        ("갤럭시 S24 Ultra", "“갤럭시 S24 Ultra”를 삭제했습니다."), ("갤럭시 S23", "“갤럭시 S23”을 삭제했습니다."),
        ("모니터 10", "“모니터 10”을 삭제했습니다."),
    ])
    func theObjectParticleFollowsTheWord(name: String, said: String) {
        #expect(words("deleted", ["name": name]) == said)
    }

    @Test(arguments: [
        ("민준", "민준으로 로그인했습니다."), ("지민", "지민으로 로그인했습니다."), ("서울", "서울로 로그인했습니다."),
        ("papri", "papri로 로그인했습니다."), ("teacher 7", "teacher 7로 로그인했습니다."), ("500", "500으로 로그인했습니다."),
    ])
    func towardFollowsAVowelAndRieulAlike(name: String, said: String) {
        #expect(words("signedIn", ["name": name]) == said)
    }

    @Test func topicSubjectAndWithChooseToo() {
        #expect(words("topic", ["name": "가방"]) == "가방은 이 과")
        #expect(words("topic", ["name": "의자"]) == "의자는 가 와")
    }
}
