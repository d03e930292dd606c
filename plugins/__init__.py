"""Built-in rule plugins of skatcore (installed as the package ``skatcore_plugins``).

``BUILTIN`` maps the name a ruleset uses to the plugin's ``module:attr``.
"""

BUILTIN = {
    "official": "skatcore_plugins.official:Official",
    "announcements": "skatcore_plugins.announcements:Announcements",
    "grand_ouvert": "skatcore_plugins.grand_ouvert:GrandOuvert",
    "lost_factor": "skatcore_plugins.lost_factor:LostFactor",
    "settlement": "skatcore_plugins.settlement:Settlement",
    "spitze": "skatcore_plugins.spitze:Spitze",
    "ramsch": "skatcore_plugins.ramsch:Ramsch",
    "schieberamsch": "skatcore_plugins.ramsch:Schieberamsch",
    "tournee": "skatcore_plugins.tournee:Tournee",
    # table and session rules (docs/rules/official.md#a9, B1, B2, B5, B6, B8)
    "kontra": "skatcore_plugins.kontra:Kontra",
    "schenken": "skatcore_plugins.schenken:Schenken",
    "bock": "skatcore_plugins.bock:Bock",
    "seeger_fabian": "skatcore_plugins.seeger_fabian:SeegerFabian",
    "money": "skatcore_plugins.money:Money",
    "bierlachs": "skatcore_plugins.bierlachs:Bierlachs",
    "pot": "skatcore_plugins.pot:Pot",
    "rum": "skatcore_plugins.variants:Rum",
    "open_contract": "skatcore_plugins.variants:OpenContract",
    "revolution": "skatcore_plugins.variants:Revolution",
    # trick play (docs/rules/house-rules.md#b14), card points (B15)
    "trump_seven": "skatcore_plugins.trump_seven:TrumpSeven",
    "card_points": "skatcore_plugins.card_points:CardPoints",
    # Skat for two (docs/rules/house-rules.md#b13)
    "skat_en_deux": "skatcore_plugins.twohand:SkatEnDeux",
    "strohmann": "skatcore_plugins.twohand:Strohmann",
    "piloten_skat": "skatcore_plugins.twohand:PilotenSkat",
    "oma_skat": "skatcore_plugins.twohand:OmaSkat",
    "offiziersskat": "skatcore_plugins.twohand:Offiziersskat",
    "schmegegge": "skatcore_plugins.twohand:Schmegegge",
}
