import MarketModel

/// What the demo market sells.
enum DemoItems {
    struct Item {
        var name: String
        var currency: Currency
        var price: Int64
        var description: String
    }

    static let editions = ["", "2nd edition", "Deluxe"]

    static let all: [Item] = [
        Item(
            name: "Apple Pencil", currency: .usd, price: 129,
            description: "Second generation.\nPairs and charges magnetically."),
        Item(name: "팥빙수", currency: .krw, price: 9000, description: "Shaved ice with sweet red beans.\nServes two."),
        Item(
            name: "Mechanical Keyboard", currency: .usd, price: 89,
            description: "Tenkeyless, brown switches, PBT keycaps."),
        Item(
            name: "Film Camera", currency: .krw, price: 240_000,
            description: "35 mm rangefinder, tested with a roll of film.\nLight seals replaced."),
        Item(
            name: "Road Bike", currency: .krw, price: 850_000,
            description: "Aluminium frame, 54 cm, 2x11 gears.\nRidden one summer."),
        Item(name: "Espresso Grinder", currency: .usd, price: 199, description: "Flat burrs, stepless adjustment."),
        Item(name: "Wool Scarf", currency: .krw, price: 35_000, description: "Hand-knitted merino, 180 cm."),
        Item(name: "Houseplant", currency: .krw, price: 18_000, description: "Monstera in a 20 cm pot.\nPick-up only."),
        Item(name: "Board Game", currency: .usd, price: 45, description: "Complete, cards sleeved, played twice."),
        Item(name: "Headphones", currency: .usd, price: 149, description: "Noise cancelling, 30 hours of battery."),
        Item(name: "Running Shoes", currency: .krw, price: 99_000, description: "Size 270, worn for one race."),
        Item(name: "Vinyl Record", currency: .usd, price: 25, description: "First pressing, sleeve in good shape."),
        Item(name: "Desk Lamp", currency: .krw, price: 42_000, description: "Warm to cool light, USB-C."),
        Item(
            name: "Guitar", currency: .krw, price: 320_000, description: "Acoustic, solid spruce top, with a soft case."
        ),
        Item(name: "Tea Set", currency: .krw, price: 56_000, description: "Celadon pot and four cups."),
        Item(name: "Backpack", currency: .usd, price: 79, description: "25 litres, laptop sleeve, water resistant."),
        Item(name: "Watch", currency: .usd, price: 210, description: "Automatic movement, sapphire glass."),
        Item(name: "Snowboard", currency: .krw, price: 380_000, description: "154 cm, bindings included."),
        Item(name: "Cookbook", currency: .krw, price: 22_000, description: "Korean home cooking, 120 recipes."),
        Item(name: "Tent", currency: .usd, price: 160, description: "Two people, three seasons, 2.1 kg."),
        Item(name: "Sunglasses", currency: .usd, price: 60, description: "Polarised, with a hard case."),
        Item(name: "Kimchi Pot", currency: .krw, price: 48_000, description: "Onggi earthenware, 5 litres."),
    ]
}
