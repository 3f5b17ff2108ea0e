import MarketModel

/// What the demo market sells.
enum DemoItems {
    typealias Item = (name: String, currency: Currency, price: Int64, description: String)

    /// What the same item is called again further down the catalogue.
    static let editions = ["", "새상품", "한정판"]

    /// A Korean market: Korean names and descriptions, a few imported goods listed in English; prices in won, some in
    /// dollars. Korean listings end with the words in English too, so that a search in either language finds them.
    static let all: [Item] = [
        ("Apple Pencil", .usd, 129, "Second generation.\nPairs and charges magnetically."),
        ("팥빙수", .krw, 9000, "팥을 듬뿍 올린 빙수.\n두 사람이 먹기 좋아요.\nPatbingsu: shaved ice with sweet red beans."),
        ("기계식 키보드", .usd, 89, "텐키리스, 갈축, PBT 키캡.\nMechanical keyboard, tenkeyless."),
        ("필름 카메라", .krw, 240_000, "35mm 레인지파인더, 필름 한 롤로 테스트했어요.\n차광 스펀지 교체했어요.\nFilm camera, 35 mm rangefinder."),
        ("로드 자전거", .krw, 850_000, "알루미늄 프레임 54cm, 2x11단.\n한 여름만 탔어요.\nRoad bike, aluminium frame."),
        ("Espresso Grinder", .usd, 199, "Flat burrs, stepless adjustment."),
        ("울 목도리", .krw, 35_000, "메리노 울 손뜨개, 180cm.\nWool scarf, hand-knitted."),
        ("몬스테라 화분", .krw, 18_000, "20cm 화분에 심은 몬스테라.\n직거래만 해요.\nMonstera plant in a pot."),
        ("보드게임", .usd, 45, "구성품 모두 있고 카드 슬리브 씌웠어요. 두 번 했어요.\nBoard game, complete."),
        ("헤드폰", .usd, 149, "노이즈 캔슬링, 배터리 30시간.\nNoise-cancelling headphones."),
        ("러닝화", .krw, 99_000, "270 사이즈, 대회에서 한 번 신었어요.\nRunning shoes, size 270."),
        ("Vinyl Record", .usd, 25, "First pressing, sleeve in good shape."),
        ("책상 스탠드", .krw, 42_000, "주광색부터 전구색까지, USB-C 전원.\nTable lamp, USB-C."),
        ("통기타", .krw, 320_000, "어쿠스틱, 솔리드 스프루스 상판, 소프트 케이스 포함.\nAcoustic guitar with a soft case."),
        ("다기 세트", .krw, 56_000, "청자 다관과 찻잔 네 개.\nTea set: a teapot and four cups."),
        ("백팩", .usd, 79, "25리터, 노트북 수납, 생활 방수.\nBackpack, 25 litres."),
        ("손목시계", .usd, 210, "오토매틱 무브먼트, 사파이어 글라스.\nAutomatic wristwatch."),
        ("스노보드", .krw, 380_000, "154cm, 바인딩 포함.\nSnowboard with bindings."),
        ("요리책", .krw, 22_000, "한국 가정식 레시피 120가지.\nCookbook of Korean home cooking."),
        ("텐트", .usd, 160, "2인용, 3계절용, 2.1kg.\nTent for two."),
        ("선글라스", .usd, 60, "편광 렌즈, 하드 케이스 포함.\nPolarised sunglasses."),
        ("김치 항아리", .krw, 48_000, "옹기, 5리터.\nKimchi jar, 5 litres."),
    ]
}
