"""``skat serve``: the score sheet, rules and comparisons in a browser
(skatcore/web/, docs/serve.md).  Starlette and uvicorn are imported only
when the command runs: ``skat --help`` stays light."""

from __future__ import annotations

import ipaddress
from pathlib import Path

from skatcore.cli import numbers
from skatcore.errors import InputError, printable


def register(sub) -> None:
    s = sub.add_parser("serve", help="the score sheet on every phone at the table, rules and comparisons in a browser")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only; "
                   "0.0.0.0 opens it to the table's network, where players join with the sheet's code)")
    s.add_argument("--port", type=numbers.port, default=8000, help="port to listen on (default 8000)")
    s.add_argument("--sheets", default="sheets", help="folder of the sheets (created if missing; default ./sheets)")
    s.add_argument("--new-key", action="store_true", help="a new organiser key (kept in the sheets folder, "
                   "file .skat-serve-key): the old organiser link and cookie stop working")
    s.set_defaults(func=cmd_serve)


def cmd_serve(args) -> int:
    try:
        import uvicorn

        from skatcore.web.app import Config, create_app
        from skatcore.web.security import stored_key
    except ImportError as exc:
        raise InputError(f"skat serve needs the web extra (pip install 'skatcore[web]'): {exc.name} is missing") from None
    if not 0 < args.port < 65536:
        raise InputError(f"expected a port 1..65535, got {args.port}", path="--port")
    folder = Path(args.sheets)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create the sheets folder ({exc.strerror})", source=str(folder)) from None
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    if args.host in ("0.0.0.0", "::"):
        import socket

        try:  # the address the phones at the table use
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
                shown = s.getsockname()[0]
        except OSError:
            pass
    host = f"[{shown}]" if _is_v6(shown) else shown
    try:
        key = stored_key(folder, renew=args.new_key)  # the same key after a restart: the organiser stays in
    except OSError as exc:
        raise InputError(str(exc), source=str(folder)) from None
    config = Config(folder.resolve(), key=key, trust=args.trust, base_url=f"http://{host}:{args.port}")
    print(printable(f"skat serve: sheets in {folder.resolve()}"), flush=True)
    print(printable(f"organiser: open {config.base_url}/?key={config.key}  (keep this link to yourself)"), flush=True)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(printable(f"players: open {config.base_url}/join and type the code shown on the sheet"), flush=True)
    uvicorn.run(create_app(config), host=args.host, port=args.port, log_level="warning", server_header=False,
                limit_concurrency=200, timeout_keep_alive=30)
    return 0


def _is_v6(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).version == 6
    except ValueError:
        return False
