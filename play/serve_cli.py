"""``sette serve``: the browser table's server on this machine (issue 15, "Browser").

    sette serve [--host 127.0.0.1] [--port 8000] [--history-dir sette-tables] [--seed N]

Starts the ASGI app (:mod:`play.server`) under uvicorn and prints the page's
address once it listens there (``--port 0``: a free port, the one printed):
open it, open a private table, send its link to friends. Every
table writes its hand history to ``HISTORY_DIR/CODE.jsonl`` (one JSON line
per hand, :mod:`play.history`), which ``play.history.replay`` plays back to
the same chips. It listens on the loopback address unless ``--host`` says
otherwise. A page seats the built-in agents and the trained models named by
``--model`` (read as plain weights, never unpickled); it can never make the
server read another file.
"""

from __future__ import annotations

import argparse
import errno
import socket

from evaluate.arguments import output_folder, seed


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Add ``sette serve``."""
    serve = subparsers.add_parser("serve", help="the browser table: private tables for friends "
                                                "and agents, in a web page")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default: 127.0.0.1, this machine only)")
    serve.add_argument("--port", type=int, default=8000,
                       help="port (default: 8000; 0: a free one, printed at the start)")
    serve.add_argument("--history-dir", type=output_folder, default="sette-tables",
                       help="folder for the tables' hand histories, CODE.jsonl "
                            "(default: sette-tables)")
    serve.add_argument("--max-tables", type=int, default=1000,
                       help="tables open at once before new ones are refused (default: 1000)")
    serve.add_argument("--model", action="append", default=[], metavar="SPEC",
                       help="a trained model the pages may seat (e.g. runs/RUN/player or "
                            "rllib:RUN/bank); repeat for more; default: built-in agents only")
    serve.add_argument("--seed", type=seed, default=None,
                       help="deal the k-th table opened with a seed drawn from this one (the "
                            "same tables on every run, for lessons); default: fresh random deals")
    serve.set_defaults(func=_serve)


def _offered(models: list[str]) -> tuple[str, ...]:
    """The ``--model`` specs, each checked (a ValueError names a bad one)."""
    from agents.registry import resolve_spec

    for model in models:
        resolve_spec(model)
    return tuple(models)


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port``, before anything says the server is open.

    Binding here, not in uvicorn, makes a port in use a one-line error naming
    ``--port`` (a ValueError), and lets ``--port 0`` print the port the system
    chose. An address with ``:`` is IPv6, as uvicorn reads ``--host``.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ValueError(f"--port {port}: another program listens on {host}:{port}; "
                             "choose another port, or --port 0 for a free one") from None
        raise ValueError(f"--host {host} --port {port}: cannot listen there "
                         f"({exc.strerror or exc}); choose an address of this machine "
                         "(127.0.0.1, 0.0.0.0 for every one) and a free port") from None
    return sock


def _serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from play.server import create_app
        from play.tables import TableRegistry
    except ImportError as exc:
        raise ValueError(f"sette serve needs the play extra ({exc.name} is missing): "
                         "pip install 'sette-e-mezzo[play]'") from None
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port {args.port}: choose 0..65535")
    if args.max_tables < 1:
        raise ValueError(f"--max-tables {args.max_tables}: at least 1")
    args.history_dir.mkdir(parents=True, exist_ok=True)
    app = create_app(TableRegistry(history_dir=args.history_dir, max_tables=args.max_tables,
                                   seed=args.seed, models=_offered(args.model)))
    sock = _listen(args.host, args.port)
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"sette serve: open http://{host}:{sock.getsockname()[1]}/ to open a private table "
          f"(hand histories in {args.history_dir}/); Ctrl-C stops", flush=True)
    try:
        uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
    except KeyboardInterrupt:  # Ctrl-C: uvicorn shut down (closing the tables), then re-raised it
        pass
    finally:
        sock.close()
    return 0
