"""A griffe extension for the docs site (mkdocs.yml): the docstrings are
written with reST roles for the terminal and docs/api.md
(``:class:`~skatcore.model.Contract```); mkdocstrings renders Markdown, so a
role becomes inline code of the name as the role shows it, and a literal
block's ``Example::`` a plain ``Example:`` before its indented code."""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension, Object

_ROLE = re.compile(r":(?:class|func|meth|attr|mod|data|exc|obj):`(~?)([^`]+)`")
_LITERAL = re.compile(r"::$", re.M)


def markdown(text: str) -> str:
    text = _ROLE.sub(lambda m: f"`{m.group(2).rsplit('.', 1)[-1] if m.group(1) else m.group(2)}`", text)
    return _LITERAL.sub(":", text)


class RestRoles(Extension):
    def on_instance(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
