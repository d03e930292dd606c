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
}
