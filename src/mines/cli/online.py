"""`mines play --server URL`: sign in, start or go on with a game on the server, and play it."""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from mines.datadir import data_dir
from mines.errors import InvalidBoardError
from mines.extras import require_extra
from mines.placement import FirstClick, PlacementRule
from mines.presets import board_size
from mines.status import GameStatus
from mines.tui.language import _
from mines.tui.remote import RemoteGame, ServerError
from mines.tui.sessions import Kept, Sessions

if TYPE_CHECKING:
    from mines.tui.client import ServerClient

SERVER_VARIABLE = "MINES_SERVER"
SIGN_IN_TRIES = 3
SERVER_RULES = {rule.value for rule in FirstClick} | {PlacementRule.NOGUESS.value}
"""The first-click rules a server plays (`noguess` is its `"no_guess": true`)."""


def add_server_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("playing on a server")
    group.add_argument(
        "--server",
        metavar="URL",
        default=os.environ.get(SERVER_VARIABLE) or None,
        help=f"play on a mines server (also ${SERVER_VARIABLE}): the game counts in your "
        "account's stats there; it goes on with your unfinished game there unless a board "
        "option is given",
    )
    group.add_argument(
        "--sign-up", action="store_true", help="make an account on the server, then play"
    )
    group.add_argument(
        "--anonymous",
        action="store_true",
        help="play on the server without signing in (the game does not rank)",
    )
    group.add_argument(
        "--sign-out", action="store_true", help="sign out of the server and forget the session"
    )
    group.add_argument(
        "--export",
        metavar="FILE",
        help="save everything the server keeps about your account to FILE (JSON; - for stdout)",
    )
    group.add_argument(
        "--change-password",
        action="store_true",
        help="change your password on the server (your other sessions are signed out)",
    )
    group.add_argument(
        "--delete-account",
        action="store_true",
        help="delete your account on the server (asks for the password; your games stay, "
        "anonymous and unranked)",
    )
    group.add_argument(
        "--daily",
        action="store_true",
        help="today's daily board of the preset (beginner unless --preset), with --server",
    )


def play_online(args: argparse.Namespace, *, lines: bool) -> int:
    """Sign in (or not), then play a game on the server in the app, or in line mode."""
    require_extra("remote", "mines play --server")
    from mines.tui.client import ServerClient, server_url

    url = server_url(args.server)
    sessions = Sessions(data_dir())
    kept = sessions.get(url)
    client = ServerClient(url, session=kept.session)
    try:
        if args.sign_out:
            return sign_out(client, sessions, kept)
        if args.export or args.change_password or args.delete_account:
            return manage(args, client, sessions, kept)
        spec = game_spec(args)
        name = client.me()
        if name is None and kept.session is not None:
            say(_("Your session on {host} has ended.").format(host=client.host))
        if name is None and not args.anonymous:
            name = sign_in(client, sign_up=args.sign_up)
        kept = replace(kept, session=client.session, name=name)
        sessions.put(url, kept)
        game = go_on(client, kept, name) if spec is None else None
        if game is None:
            game = new_game(client, sessions, spec or {"preset": "beginner"}, name)
        return play(args, client, sessions, game, spec or {}, lines=lines)
    finally:
        client.close()


def say(text: str) -> None:
    print(f"mines: {text}", file=sys.stderr)


def sign_out(client: ServerClient, sessions: Sessions, kept: Kept) -> int:
    """End the session on the server and forget it here, even when the server is away."""
    try:
        client.sign_out()
    except ServerError as error:
        say(
            _(
                "the server did not hear the sign-out ({error}); the session is forgotten here"
            ).format(error=error)
        )
    sessions.put(client.url, replace(kept, session=None, name=None))
    print(_("Signed out of {host}.").format(host=client.host))
    return 0


def manage(args: argparse.Namespace, client: ServerClient, sessions: Sessions, kept: Kept) -> int:
    """Export the account's data, change its password or delete it (signing in first)."""
    name = client.me() or sign_in(client, sign_up=False)
    if name is None:
        raise ServerError(_("that needs an account: sign in to {host}").format(host=client.host))
    sessions.put(client.url, replace(kept, session=client.session, name=name))
    if args.export:
        text = json.dumps(client.export(), indent=2, ensure_ascii=False)
        if args.export == "-":
            print(text)
        else:
            descriptor = os.open(args.export, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w", encoding="utf-8") as out:
                out.write(text + "\n")
            print(
                _("Saved what {host} keeps about {name} to {export}.").format(
                    host=client.host, name=name, export=args.export
                )
            )
    if args.change_password:
        password = getpass.getpass(_("Current password: "))
        new = getpass.getpass(_("New password: "))
        if getpass.getpass(_("New password again: ")) != new:
            raise ServerError(_("the two new passwords differ; nothing was changed"))
        ended = client.change_password(password, new)
        print(
            _("Password changed on {host}; {ended} other session(s) signed out.").format(
                host=client.host, ended=ended
            )
        )
    if args.delete_account:
        print(
            _("Deleting {name} on {host}: your games stay there, anonymous and unranked.").format(
                name=name, host=client.host
            )
        )
        password = getpass.getpass(_("Password (to confirm): "))
        client.delete_account(password)
        sessions.put(client.url, replace(kept, session=None, name=None))
        print(_("Deleted {name} on {host}.").format(name=name, host=client.host))
    return 0


def sign_in(client: ServerClient, *, sign_up: bool) -> str | None:
    """Ask for a name and password on the terminal (the password never echoed, kept or
    logged); None when the player declines (an empty name) or no terminal can ask."""
    if not sys.stdin.isatty():
        if sign_up:
            raise InvalidBoardError(_("--sign-up asks for a password: run it on a terminal"))
        say(
            _("not signed in to {host} (no terminal to ask on): this game does not rank").format(
                host=client.host
            )
        )
        return None
    verb = _("Make an account on") if sign_up else _("Sign in to")
    print(
        _("{verb} {host} (an empty name plays without an account, unranked).").format(
            verb=verb, host=client.host
        )
    )
    from mines.tui.client import SignInError

    for _attempt in range(SIGN_IN_TRIES):
        try:
            name = input(_("Name: ")).strip()
            password = getpass.getpass(_("Password: ")) if name else ""
            again = getpass.getpass(_("Password again: ")) if name and sign_up else password
        except EOFError:  # the end of input (Ctrl-D) declines, as an empty name does
            name = ""
        if not name:
            print(_("\nPlaying without an account: this game does not rank."))
            return None
        if again != password:
            print(_("The two passwords differ; try again."))
            continue
        try:
            signed = client.sign_up(name, password) if sign_up else client.sign_in(name, password)
        except SignInError as error:
            print(_("Not signed in: {error}.").format(error=error))
            continue
        print(_("Signed in to {host} as {signed}.").format(host=client.host, signed=signed))
        return signed
    raise ServerError(
        _("not signed in to {host} after {sign_in_tries} tries").format(
            host=client.host, sign_in_tries=SIGN_IN_TRIES
        )
    )


def game_spec(args: argparse.Namespace) -> dict[str, Any] | None:
    """The new game the board options ask for, as `POST /api/games` takes it; None when
    none is given (then the game left unfinished on the server goes on, if there is one)."""
    if args.game_id:
        raise InvalidBoardError(_("--game-id is for games played here; a server deals its own"))
    if args.practice:
        raise InvalidBoardError(_("--practice (undo) is for games played here, not on a server"))
    rule = str(args.first_click)
    if rule not in SERVER_RULES:
        raise InvalidBoardError(
            _("a server plays the first-click rules {server_rules}; got {rule!r}").format(
                server_rules=", ".join(sorted(SERVER_RULES)), rule=rule
            )
        )
    no_guess = rule == PlacementRule.NOGUESS.value
    sized = (args.rows, args.cols, args.mines) != (None, None, None)
    if args.daily:
        if sized or args.seed is not None:
            raise InvalidBoardError(_("--daily is a preset's board of the day: no size or seed"))
        return {"daily": args.preset or "beginner", "no_guess": no_guess}
    if args.preset is None and not sized and args.seed is None and rule == FirstClick.OPENING.value:
        return None
    rows, cols, mines = board_size(
        preset=args.preset, rows=args.rows, cols=args.cols, mines=args.mines, default="beginner"
    )
    spec: dict[str, Any] = {"rows": rows, "cols": cols, "mines": mines, "no_guess": no_guess}
    if rule not in (FirstClick.OPENING.value, PlacementRule.NOGUESS.value):
        spec["first_click"] = rule
    if args.seed is not None:
        spec["seed"] = args.seed
    return spec


def go_on(client: ServerClient, kept: Kept, name: str | None) -> RemoteGame | None:
    """The game left unfinished on the server, if it still goes on."""
    if kept.game_id is None or kept.token is None:
        return None
    try:
        answer = client.game(kept.game_id, kept.token)  # a daily game is its player's
    except ServerError as error:
        if error.status == 404:
            return None
        raise
    if answer["view"]["status"] != GameStatus.IN_PROGRESS.value:
        return None
    print(_("Going on with your unfinished game on {host}.").format(host=client.host))
    return RemoteGame(client, answer, kept.token, player=name)


def new_game(
    client: ServerClient, sessions: Sessions, spec: dict[str, Any], name: str | None
) -> RemoteGame:
    """A new game on the server, noted in the sessions file at once (a crash keeps it)."""
    answer = client.create(spec)
    game = RemoteGame(client, answer, answer["token"], player=name)
    sessions.put(client.url, replace(sessions.get(client.url), game_id=game.id, token=game.token))
    return game


def play(
    args: argparse.Namespace,
    client: ServerClient,
    sessions: Sessions,
    game: RemoteGame,
    spec: dict[str, Any],
    *,
    lines: bool,
) -> int:
    """The app (or line mode), then where the game stands: kept on the server, or over."""
    if lines:
        from mines.cli.lines import play_lines

        play_lines(game, sys.stdin, sys.stdout)
        last = game
    else:
        last = play_app(args, client, sessions, game, spec)
    if last.status.is_over:
        sessions.put(client.url, replace(sessions.get(client.url), game_id=None, token=None))
    else:
        print(
            _("The game goes on on {host}: mines play --server {url} comes back to it.").format(
                host=client.host, url=client.url
            )
        )
    return 0


def play_app(
    args: argparse.Namespace,
    client: ServerClient,
    sessions: Sessions,
    game: RemoteGame,
    spec: dict[str, Any],
) -> RemoteGame:
    """The Textual game on the server's game; `n` and the preset keys start new ones there."""
    from mines.tui.app import MinesApp
    from mines.tui.clock import PausableClock
    from mines.tui.themes import THEMES

    def make_game(rows: int, cols: int, mines: int) -> RemoteGame:
        # The same rule on a board of this size; a new game draws its own seed, as here.
        same: dict[str, Any] = {k: spec[k] for k in ("no_guess", "first_click") if k in spec}
        size = {"rows": rows, "cols": cols, "mines": mines}
        return new_game(client, sessions, {**same, **size}, game.player)

    app = MinesApp(
        game,
        make_game=make_game,
        clock=PausableClock(),
        theme=THEMES[args.theme],
        marks=args.marks,
    )
    app.run()
    last = app.game
    assert isinstance(last, RemoteGame)  # every game of this app is the server's
    return last
