"""``skat serve``: the web application (Starlette, Jinja2 templates, vendored
htmx).  :func:`skatcore.web.app.create_app` builds it; docs/serve.md."""
