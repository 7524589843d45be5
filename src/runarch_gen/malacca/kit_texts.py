"""The words printed in Malacca's kit, in Czech and English: card texts, the reference card and
the rules booklet (a summary of ``docs/rules/malacca.md`` with its decisions)."""

from __future__ import annotations

from collections.abc import Mapping

from runarch_gen.malacca.rules import Card, Character, Equipment

__all__ = ["BOOKLET", "CARD_NAMES", "CHARACTER_TEXT", "EQUIPMENT_TEXT", "REFERENCE"]

CARD_NAMES: Mapping[Card, tuple[str, str, str]] = {
    # (Czech, English, the value printed large)
    Card.ATTACK: ("Útok", "Attack", "+1"),
    Card.DEFENCE: ("Obrana", "Defence", "+1"),
    Card.TRADE: ("Obchod", "Trade", "×1"),
    Card.ATTACK2: ("Útok", "Attack", "+2"),
    Card.DEFENCE2: ("Obrana", "Defence", "+2"),
    Card.TRADE2: ("Obchod", "Trade", "×2"),
    Card.WAIT_AD: ("Vyčkávání", "Wait", "útok / obrana\nattack / defence"),
    Card.WAIT_DT: ("Vyčkávání", "Wait", "obrana / obchod\ndefence / trade"),
}

SPECIAL_NOTE = (
    "Speciální akce: jen jednou, pak dospod balíčku.",
    "Special action: used once, then to the bottom of the deck.",
)

CHARACTER_TEXT: Mapping[Character, tuple[str, str]] = {
    Character.MORGAN: (
        "Úspěšná obrana (někdo útočil): +3 stříbrňáky z banku.",
        "Successful defence (someone attacked): +3 silver from the bank.",
    ),
    Character.PICARD: (
        "Na konci každého kola +1 stříbrňák z banku.",
        "At the end of every round: +1 silver from the bank.",
    ),
    Character.ORGONEZ: (
        "Žádná schopnost, ale hodně peněz do začátku.",
        "No ability, but plenty of money to start with.",
    ),
    Character.CAESAR: (
        "Začíná s tolika stříbrňáky, kolik je hráčů. Zahrají-li všichni stejnou akci"
        " (i speciální, i vyčkávání), dostane tolik stříbrňáků, kolik je hráčů.",
        "Starts with one silver per player. If every player's action is the same"
        " (special and wait cards count), gains one silver per player.",
    ),
    Character.ZHENG: (
        "Úspěšný obchod (loď ubráněna): +3 stříbrňáky z banku, i bez sázky.",
        "Successful trade (ship defended): +3 silver from the bank, even without a stake.",
    ),
    Character.SAYYIDA: (
        "Získá-li speciální kartu, lízne dvě, jednu si nechá a druhou dá dospod balíčku.",
        "When she gains a special card she draws two, keeps one, puts the other at the bottom.",
    ),
    Character.LASKARINA: (
        "Na začátku hry si lízne jednu kartu speciální akce.",
        "Draws one special action card at the start of the game.",
    ),
    Character.INGRID: (
        "Úspěšný útok (loď dobyta): +3 stříbrňáky z banku.",
        "Successful attack (ship captured): +3 silver from the bank.",
    ),
}

EQUIPMENT_TEXT: Mapping[Equipment, tuple[str, str, str, str]] = {
    Equipment.ATTACK: (
        "Lepší útok",
        "Better attack",
        "Loď dobyta a ty útočíš: +3 z banku.",
        "Ship captured and you attacked: +3 from the bank.",
    ),
    Equipment.DEFENCE: (
        "Lepší obrana",
        "Better defence",
        "Loď ubráněna, někdo útočil a ty bráníš: +4 z banku.",
        "Ship defended, someone attacked and you defended: +4 from the bank.",
    ),
    Equipment.TRADE: (
        "Lepší obchod",
        "Better trade",
        "Loď ubráněna a ty obchoduješ se sázkou: +5 z banku.",
        "Ship defended and you traded with a stake: +5 from the bank.",
    ),
}

REFERENCE: Mapping[str, tuple[str, tuple[tuple[str, str, str], ...], str]] = {
    # language: (title, rows of (role, captured, defended), footnote)
    "cs": (
        "Vyhodnocení kola — útok > obrana: loď dobyta; jinak ubráněna",
        (
            ("", "Loď dobyta", "Loď ubráněna"),
            (
                "Obchodník",
                "ztrácí sázku (do kořisti)",
                "sázka zpět + tolik z banku (×2: dvakrát); bez peněz: +2 (drhnutí paluby)",
            ),
            (
                "Útočník",
                "sázka zpět + podíl z lodi a sázek obránců i obchodníků",
                "ztrácí sázku (obráncům) a platí bance polovinu zbytku (dolů)",
            ),
            (
                "Obránce",
                "ztrácí sázku (do kořisti); jediný obránce proti všem: 1 speciální karta",
                "sázka zpět + podíl sázek útočníků + 1 speciální karta;"
                " nikdo neútočil: jen sázka zpět",
            ),
        ),
        "Dělí se po jednom stříbrňáku od kapitána po směru hodin. Náklad ubráněné lodi jde do"
        " banku. Vyčkávání volí po odkrytí, od kapitána.",
    ),
    "en": (
        "Resolving a round — attack > defence: captured; otherwise defended",
        (
            ("", "Ship captured", "Ship defended"),
            (
                "Trader",
                "loses the stake (into the loot)",
                "stake back + as much from the bank (×2: twice); penniless: +2 (deck scrubbing)",
            ),
            (
                "Attacker",
                "stake back + a share of the cargo and of defenders' and traders' stakes",
                "loses the stake (to the defenders), pays half the rest (rounded down) to the bank",
            ),
            (
                "Defender",
                "loses the stake (into the loot); lone defender against all: 1 special card",
                "stake back + a share of the attackers' stakes + 1 special card;"
                " nobody attacked: only the stake back",
            ),
        ),
        "Shares are dealt one silver at a time clockwise from the captain. A defended ship's"
        " cargo returns to the bank. Wait cards choose after the reveal, captain first.",
    ),
}

Block = tuple[str, str]
"""(style: ``title``, ``heading`` or ``body``; text)."""

BOOKLET: Mapping[str, tuple[Block, ...]] = {
    "cs": (
        ("title", "Malacca — pravidla hry (verze 2.0, jak je hraje runarch-gen)"),
        (
            "body",
            "Hra pro 2–8 pirátů na 12 kol. Kdo má po posledním kole nejvíc peněz, vyhrává;"
            " při rovnosti vyhrávají všichni nejbohatší. Rozhodnutí, která pravidla neuvádějí,"
            " nesou značku [M-nn] jako v dokumentu docs/rules/malacca.md.",
        ),
        ("heading", "Příprava"),
        (
            "body",
            "Zamíchejte 12 lodí (náklad 3 až 14 stříbrňáků) a 16 speciálních akcí, obojí lícem"
            " dolů. Každý dostane útok, obranu a obchod a 5 stříbrňáků. Kapitána určí los."
            " Mince a truhly (10/20) jsou jen drobné: lze je kdykoli rozměnit;"
            " bank nedojde [M-04].",
        ),
        ("heading", "Kolo"),
        (
            "body",
            "1. Vybavení (rozšíření): od kapitána si každý smí koupit jednu kartu za 5.\n"
            "2. Otočte loď a položte na ni její náklad z banku.\n"
            "3. Od kapitána po směru hodin položí každý lícem dolů jednu kartu akce a na ni"
            " otevřeně sázku 0 až vše, co má [M-07]. Pak se karty otočí naráz; vyčkávání"
            " volí od kapitána [M-08].\n"
            "4. Útok větší než obrana: loď je dobyta, jinak ubráněna (i když nikdo neútočil).\n"
            "5. Výplata podle karty přehledu. Kořist i sázky útočníků se dělí po jednom"
            " stříbrňáku od kapitána, resp. od prvního příjemce po směru hodin [M-09, M-15];"
            " náklad ubráněné lodi se vrací do banku [M-14].\n"
            "6. Speciální karty se lížou od kapitána; zahrané speciální karty jdou potom dospod"
            " balíčku [M-16, M-17]. Prázdný balíček nedává nic. Limit karet v ruce není [M-18].\n"
            "7. Kapitán se posune po směru hodin.",
        ),
        ("heading", "Zvláštní pravidla"),
        (
            "body",
            "Drhnutí paluby: hráč bez peněz smí obchodovat; je-li loď ubráněna, dostane 2"
            " (×2 je nezdvojí) [M-11]. Tragický hrdina: jediný obránce, všichni ostatní útočí a"
            " loď je dobyta — ztratí sázku, ale lízne speciální kartu [M-12]. Zbytečná obrana:"
            " nikdo neútočil — obránci dostanou jen sázku zpět, žádnou kartu ani bonus [M-13].",
        ),
        ("heading", "Postavy a vybavení"),
        (
            "body",
            "Postavy jsou veřejné; jejich schopnosti a počáteční peníze jsou na kartách."
            " Úspěšná akce se posuzuje podle role po odkrytí, takže platí i pro speciální karty"
            " a vyčkávání. Black Caesar počítá i sebe [M-22]. Vybavení stojí 5, od každého druhu"
            " jsou 4 karty, bonusy se sčítají [M-26].",
        ),
    ),
    "en": (
        ("title", "Malacca — rules of play (version 2.0, as runarch-gen plays it)"),
        (
            "body",
            "A game for 2–8 pirates over 12 rounds. Whoever has the most money after the last"
            " round wins; all players tied for the most win. Decisions the rule book leaves open"
            " carry a tag [M-nn] as in docs/rules/malacca.md.",
        ),
        ("heading", "Setup"),
        (
            "body",
            "Shuffle the 12 ships (cargo 3 to 14 silver) and the 16 special actions, both face"
            " down. Everyone takes attack, defence and trade and 5 silver. Draw the captain by lot."
            " Coins and chests (10/20) are change: swap them any time; the bank never runs out"
            " [M-04].",
        ),
        ("heading", "A round"),
        (
            "body",
            "1. Equipment (expansion): from the captain, each may buy one card for 5.\n"
            "2. Turn up a ship and put its cargo on it from the bank.\n"
            "3. From the captain, clockwise, each lays one action card face down with an open"
            " stake of 0 to all they have [M-07]. All cards are revealed together; wait cards"
            " choose, captain first [M-08].\n"
            "4. Attack greater than defence: the ship is captured; otherwise it is defended (also"
            " when nobody attacked).\n"
            "5. Pay out by the reference card. Loot and attackers' stakes are dealt one silver at"
            " a time from the captain, or the first receiver clockwise of the captain"
            " [M-09, M-15]; a defended ship's cargo goes back to the bank [M-14].\n"
            "6. Special cards are drawn captain first; then the special cards played go to the"
            " bottom of the deck [M-16, M-17]. An empty deck gives nothing. No hand limit [M-18].\n"
            "7. The captain card moves one seat clockwise.",
        ),
        ("heading", "Special rules"),
        (
            "body",
            "Deck scrubbing: a penniless player may trade; if the ship is defended they take 2"
            " (not doubled by ×2) [M-11]. Tragic hero: the only defender, everyone else attacks"
            " and the ship is captured — the stake is lost but a special card is drawn [M-12]."
            " Useless defence: nobody attacked — defenders only take their stakes back, no card"
            " and no bonus [M-13].",
        ),
        ("heading", "Characters and equipment"),
        (
            "body",
            "Characters are public; abilities and starting money are on the cards. Success is"
            " judged by the role after the reveal, so special and wait cards count. Black Caesar"
            " counts himself [M-22]. Equipment costs 5, there are 4 of each kind, and bonuses add"
            " up [M-26].",
        ),
    ),
}
