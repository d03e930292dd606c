"""Built-in rule plugins of skatcore (installed as the package ``skatcore_plugins``).

``BUILTIN`` maps the name a ruleset uses to the plugin's ``module:attr``.
"""

BUILTIN = {
    "official": "skatcore_plugins.official:Official",
    "ramsch": "skatcore_plugins.ramsch:Ramsch",
    "schieberamsch": "skatcore_plugins.ramsch:Schieberamsch",
}
