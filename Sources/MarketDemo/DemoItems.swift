import MarketModel

/// What the demo market sells.
enum DemoItems {
    struct Item {
        var name: String
        var currency: Currency
        var price: Int64
        var description: String
    }

    /// What the same item is called again further down the catalogue.
    static let editions = ["", "새상품", "한정판"]

    /// A Korean market: Korean names and descriptions, with a few items listed in English as
    /// Korean sellers list imported goods; prices in won, and some in dollars. A Korean listing
    /// ends with the words in English too, so that a search in either language finds it.
    static let all: [Item] = [
        Item(
            name: "Apple Pencil", currency: .usd, price: 129,
            description: "Second generation.\nPairs and charges magnetically."),
        Item(
            name: "팥빙수", currency: .krw, price: 9000,
            description: "팥을 듬뿍 올린 빙수.\n두 사람이 먹기 좋아요.\nPatbingsu: shaved ice with sweet red beans."),
        Item(
            name: "기계식 키보드", currency: .usd, price: 89,
            description: "텐키리스, 갈축, PBT 키캡.\nMechanical keyboard, tenkeyless."),
        Item(
            name: "필름 카메라", currency: .krw, price: 240_000,
            description: "35mm 레인지파인더, 필름 한 롤로 테스트했어요.\n차광 스펀지 교체했어요.\nFilm camera, 35 mm rangefinder."),
        Item(
            name: "로드 자전거", currency: .krw, price: 850_000,
            description: "알루미늄 프레임 54cm, 2x11단.\n한 여름만 탔어요.\nRoad bike, aluminium frame."),
        Item(name: "Espresso Grinder", currency: .usd, price: 199, description: "Flat burrs, stepless adjustment."),
        Item(name: "울 목도리", currency: .krw, price: 35_000, description: "메리노 울 손뜨개, 180cm.\nWool scarf, hand-knitted."),
        Item(
            name: "몬스테라 화분", currency: .krw, price: 18_000,
            description: "20cm 화분에 심은 몬스테라.\n직거래만 해요.\nMonstera plant in a pot."),
        Item(
            name: "보드게임", currency: .usd, price: 45,
            description: "구성품 모두 있고 카드 슬리브 씌웠어요. 두 번 했어요.\nBoard game, complete."),
        Item(name: "헤드폰", currency: .usd, price: 149, description: "노이즈 캔슬링, 배터리 30시간.\nNoise-cancelling headphones."),
        Item(
            name: "러닝화", currency: .krw, price: 99_000, description: "270 사이즈, 대회에서 한 번 신었어요.\nRunning shoes, size 270."
        ),
        Item(name: "Vinyl Record", currency: .usd, price: 25, description: "First pressing, sleeve in good shape."),
        Item(name: "책상 스탠드", currency: .krw, price: 42_000, description: "주광색부터 전구색까지, USB-C 전원.\nTable lamp, USB-C."),
        Item(
            name: "통기타", currency: .krw, price: 320_000,
            description: "어쿠스틱, 솔리드 스프루스 상판, 소프트 케이스 포함.\nAcoustic guitar with a soft case."),
        Item(
            name: "다기 세트", currency: .krw, price: 56_000,
            description: "청자 다관과 찻잔 네 개.\nTea set: a teapot and four cups."),
        Item(name: "백팩", currency: .usd, price: 79, description: "25리터, 노트북 수납, 생활 방수.\nBackpack, 25 litres."),
        Item(name: "손목시계", currency: .usd, price: 210, description: "오토매틱 무브먼트, 사파이어 글라스.\nAutomatic wristwatch."),
        Item(name: "스노보드", currency: .krw, price: 380_000, description: "154cm, 바인딩 포함.\nSnowboard with bindings."),
        Item(
            name: "요리책", currency: .krw, price: 22_000,
            description: "한국 가정식 레시피 120가지.\nCookbook of Korean home cooking."),
        Item(name: "텐트", currency: .usd, price: 160, description: "2인용, 3계절용, 2.1kg.\nTent for two."),
        Item(name: "선글라스", currency: .usd, price: 60, description: "편광 렌즈, 하드 케이스 포함.\nPolarised sunglasses."),
        Item(name: "김치 항아리", currency: .krw, price: 48_000, description: "옹기, 5리터.\nKimchi jar, 5 litres."),
    ]
}
