"""Races: scoring each cell once, mines that put one player out, private flags, the ends, duels."""

from __future__ import annotations

import contextlib
import random
import threading

import pytest

from mines import (
    Cell,
    FixedPlacer,
    Game,
    GameStatus,
    IllegalMoveError,
    InvalidBoardError,
    InvalidSettingsError,
    JoinRefusedError,
    LobbyRefusedError,
    OffBoardError,
    register_rule,
)
from mines.race import (
    EventKind,
    OnMine,
    Race,
    RaceAction,
    RaceMode,
    RaceMove,
    RaceSettings,
    RaceState,
)


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def racing(
    players: int = 3,
    *,
    rows: int = 9,
    cols: int = 9,
    mines: int = 10,
    seed: int = 7,
    settings: RaceSettings | None = None,
) -> tuple[Race, FakeClock]:
    clock = FakeClock()
    settings = settings or RaceSettings(countdown=3)
    race = Race(rows, cols, mines, seed=seed, settings=settings, clock=clock)
    for i in range(players):
        race.join(f"p{i}")
    race.start(0)
    clock.now = 3.0
    return race, clock


def layout_of(race: Race) -> frozenset[tuple[int, int]]:
    return race._boards[0].mines()


def hidden_safe(race: Race, player: int = 0) -> list[tuple[int, int]]:
    mines = layout_of(race)
    view = race.view(player)
    return [
        (r, c)
        for r, c, cell in view.cells()
        if cell in (Cell.HIDDEN, Cell.FLAG) and (r, c) not in mines
    ]


def test_moves_wait_for_the_start_and_the_countdown() -> None:
    clock = FakeClock()
    race = Race(9, 9, 10, seed=1, clock=clock)
    race.join("ann")
    with pytest.raises(IllegalMoveError, match="has not started"):
        race.reveal(0, 4, 4)
    with pytest.raises(LobbyRefusedError, match="at least 2 players"):
        race.start(0)
    race.join("bob")
    with pytest.raises(LobbyRefusedError, match="only the host") as refused:
        race.start(1)
    assert not isinstance(refused.value, IllegalMoveError)  # the lobby's, not a move's
    race.start(0)
    with pytest.raises(LobbyRefusedError, match="already racing"):
        race.start(0)
    with pytest.raises(IllegalMoveError, match=r"starts in 3\.0 s"):
        race.reveal(1, 4, 4)
    with pytest.raises(JoinRefusedError, match="has started"):
        race.join("cat")
    clock.now = 3.0
    assert race.reveal(1, 4, 4) is not None


def test_joining_is_refused_when_full_or_the_name_is_taken() -> None:
    race = Race(9, 9, 10, seed=1, settings=RaceSettings(max_players=2))
    race.join("Ann")
    with pytest.raises(JoinRefusedError, match="taken"):
        race.join("ann")
    race.join("bob")
    with pytest.raises(JoinRefusedError, match="full"):
        race.join("cat")
    with pytest.raises(InvalidSettingsError, match="2 to 8 players") as refused:
        RaceSettings(max_players=9)
    assert not isinstance(refused.value, InvalidBoardError)  # settings, not a board
    with pytest.raises(InvalidBoardError, match="safe first click"):
        Race(9, 9, 10, seed=1, rule="any")


def test_the_first_reveal_obeys_the_rule_and_scores_what_it_opened() -> None:
    race, _ = racing()
    event = race.reveal(2, 4, 4)
    assert event is not None
    assert event.kind is EventKind.OPENED
    opened = [(r, c) for r, c, symbol, who in event.cells]
    assert len(opened) > 1  # the opening rule: the first click opens an area
    assert all(who == 2 for *_, who in event.cells)
    assert race.players[2].score == len(opened)
    assert event.scores == (0, 0, len(opened))
    assert not set(opened) & layout_of(race)


def test_a_cell_is_scored_once_and_the_scores_add_up_to_the_opened_cells() -> None:
    race, _ = racing()
    race.reveal(0, 4, 4)
    seen: set[tuple[int, int]] = set()
    for event in race.events:
        for r, c, _, _ in event.cells:
            assert (r, c) not in seen
            seen.add((r, c))
    # every player reveals the same safe cells in turn: only the first opens and scores
    for cell in hidden_safe(race)[:12]:
        for player in (1, 2, 0):
            race.reveal(player, *cell)
    opened = sum(1 for _, _, cell in race.view(None).cells() if cell.number is not None)
    assert sum(p.score for p in race.players) == opened


def test_simultaneous_reveals_of_overlapping_cells_score_each_cell_once() -> None:
    race, _ = racing(rows=16, cols=16, mines=20, seed=3)
    race.reveal(0, 8, 8)
    targets = hidden_safe(race)
    barrier = threading.Barrier(3)

    refusals: list[str] = []

    def play(player: int) -> None:
        barrier.wait()
        for cell in targets:
            try:
                race.reveal(player, *cell)
            except IllegalMoveError as error:  # another player opened the last cell
                refusals.append(str(error))
                return

    threads = [threading.Thread(target=play, args=(p,)) for p in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert race.state is RaceState.OVER
    assert all("race is over" in refusal for refusal in refusals)
    safe = 16 * 16 - 20
    assert sum(p.score for p in race.players) == safe
    assert [e.seq for e in race.events] == list(range(1, len(race.events) + 1))
    owners = [who for e in race.events for *_, who in e.cells]
    assert len(owners) == safe


def test_a_mine_puts_its_player_out_and_the_others_go_on() -> None:
    race, _ = racing()
    race.reveal(0, 4, 4)
    mine = sorted(layout_of(race))[0]
    event = race.reveal(1, *mine)
    assert event is not None
    assert event.kind is EventKind.MINE
    assert event.cells == ((*mine, Cell.EXPLODED.value, 1),)
    assert race.players[1].out
    assert race.view(2)[mine] is Cell.EXPLODED  # shown to everyone
    with pytest.raises(IllegalMoveError, match="out of this race"):
        race.reveal(1, *hidden_safe(race)[0])
    race.reveal(2, *hidden_safe(race)[0])  # the others go on
    assert race.state is RaceState.RACING


def test_a_frozen_player_loses_points_and_waits() -> None:
    race, clock = racing(
        settings=RaceSettings(on_mine=OnMine.FREEZE, freeze_seconds=5, freeze_penalty=4)
    )
    race.reveal(0, 4, 4)
    before = race.players[0].score
    race.reveal(0, *sorted(layout_of(race))[0])
    assert race.players[0].score == max(0, before - 4)
    assert not race.players[0].out
    with pytest.raises(IllegalMoveError, match=r"frozen for 5\.0 s"):
        race.reveal(0, *hidden_safe(race)[0])
    clock.now += 5
    assert race.reveal(0, *hidden_safe(race)[0]) is not None


def test_the_race_ends_when_every_safe_cell_is_open_and_the_best_score_wins() -> None:
    race, _ = racing(players=2)
    race.reveal(0, 4, 4)
    for turn, cell in enumerate(hidden_safe(race)):
        if race.state is RaceState.OVER:
            break
        race.reveal(1 if turn % 3 else 0, *cell)
    assert race.state is RaceState.OVER
    assert race.events[-1].kind is EventKind.OVER
    scores = [p.score for p in race.players]
    assert race.winner == max(range(2), key=lambda i: (scores[i], -race.players[i].reached_at))
    winner = race.winner
    assert winner is not None
    assert race.view(winner).status is GameStatus.WON
    assert race.view(1 - winner).status is GameStatus.LOST
    with pytest.raises(IllegalMoveError, match="race is over"):
        race.toggle_flag(0, 0, 0)
    # Drawn by `cell_symbols`: a cleared board shows a flag on every mine, to the winner and
    # to watchers, and its counter agrees; the loser's board shows the mines.
    for seen in (race.view(None), race.view(winner)):
        assert all(seen[cell] is Cell.FLAG for cell in layout_of(race))
        assert seen.mines_left == 0
    lost = race.view(1 - winner)
    assert all(lost[cell] in (Cell.MINE, Cell.EXPLODED) for cell in layout_of(race))


def test_a_tie_goes_to_whoever_reached_the_score_first() -> None:
    race, _ = racing(players=2)
    first = race.players[0]
    second = race.players[1]
    first.score, first.reached_at = 10, 5
    second.score, second.reached_at = 10, 4
    assert race.winner == 1


def test_the_race_ends_when_every_player_is_out() -> None:
    race, _ = racing(players=2)
    race.reveal(0, 4, 4)
    mines = sorted(layout_of(race))
    race.reveal(0, *mines[0])
    race.reveal(1, *mines[1])
    assert race.state is RaceState.OVER
    assert race.events[-1].kind is EventKind.OVER


def test_flags_are_private_and_chords_use_only_your_own() -> None:
    race, _ = racing()
    race.reveal(0, 4, 4)
    mines = layout_of(race)
    view = race.view(0)
    number = next(
        (r, c)
        for r, c, cell in view.cells()
        if cell.number
        and any(race.view(0)[n] is Cell.HIDDEN and n not in mines for n in neighbours(r, c))
    )
    around_mines = [n for n in neighbours(*number) if n in mines]
    for mine in around_mines:
        assert race.toggle_flag(1, *mine) is True
    assert race.view(0)[around_mines[0]] is Cell.HIDDEN  # player 1's flag is theirs alone
    assert race.view(1)[around_mines[0]] is Cell.FLAG
    assert race.chord(0, *number) is None  # player 0 has no flags there
    event = race.chord(1, *number)
    assert event is not None
    assert event.kind is EventKind.OPENED
    assert all(cell[2] != "F" for e in race.events for cell in e.cells)
    assert race.view(1).mines_left == 10 - len(around_mines)


def neighbours(row: int, col: int) -> list[tuple[int, int]]:
    return [
        (r, c)
        for r in range(row - 1, row + 2)
        for c in range(col - 1, col + 2)
        if (r, c) != (row, col) and 0 <= r < 9 and 0 <= c < 9
    ]


def test_no_view_or_event_shows_a_hidden_mine_before_the_end() -> None:
    race, _ = racing()
    race.reveal(0, 4, 4)
    race.reveal(1, *sorted(layout_of(race))[0])
    for target in hidden_safe(race)[:5]:
        race.reveal(2, *target)
    exploded = {(r, c) for e in race.events for r, c, s, _ in e.cells if s == "X"}
    for who in (None, 0, 1, 2):
        view = race.view(who)
        for r, c, cell in view.cells():
            if (r, c) in layout_of(race) and (r, c) not in exploded:
                assert cell in (Cell.HIDDEN, Cell.FLAG)
    assert all(s in "012345678X" for e in race.events for _, _, s, _ in e.cells)


def test_a_duel_gives_everyone_the_same_layout_and_the_first_to_clear_wins() -> None:
    race, _ = racing(players=2, settings=RaceSettings(mode=RaceMode.DUEL))
    assert race.view(0).to_strings() == race.view(1).to_strings()
    assert race.progress()[0] == race.progress()[1] > 0
    race.reveal(1, *hidden_safe(race, 1)[0])
    assert race.view(0).to_strings() != race.view(1).to_strings()  # boards are private
    assert race.events[-1].cells == ()
    assert race.progress()[1] > race.progress()[0]
    for cell in hidden_safe(race, 0):
        if race.state is RaceState.OVER:
            break
        race.reveal(0, *cell)
    assert race.state is RaceState.OVER
    assert race.winner == 0


def test_a_race_replays_exactly_from_its_moves() -> None:
    settings = RaceSettings(on_mine=OnMine.FREEZE, freeze_seconds=2, countdown=1)
    race, clock = racing(players=3, settings=settings)
    rng = random.Random(5)
    race.reveal(0, 4, 4)
    while race.state is RaceState.RACING:
        clock.now += rng.choice([0.1, 0.5, 1.5])
        verb = rng.choice(["reveal", "reveal", "reveal", "flag", "chord"])
        # Frozen players, flags on open cells: refused moves are not in the log.
        with contextlib.suppress(IllegalMoveError):
            getattr(race, "toggle_flag" if verb == "flag" else verb)(
                rng.randrange(3), rng.randrange(9), rng.randrange(9)
            )
    assert any(p.mines_hit for p in race.players)
    again = Race.replay(9, 9, 10, race.moves, seed=7, settings=settings, clock=clock)
    assert again.events == race.events
    assert again.moves == race.moves
    assert again.players == race.players
    for who in (None, 0, 1, 2):
        assert again.view(who) == race.view(who)


def test_openers_say_who_opened_each_cell() -> None:
    race, _ = racing(players=2)
    first = race.reveal(1, 4, 4)
    assert first is not None
    openers = race.openers(None)
    for r, c, _, who in first.cells:
        assert openers[r][c] == str(who) == "1"
    hidden = sum(line.count(".") for line in openers)
    assert hidden == 81 - len(first.cells)
    duel, _ = racing(players=2, settings=RaceSettings(mode=RaceMode.DUEL))
    assert set("".join(duel.openers(0))) == {"*", "."}


def test_a_rematch_deals_a_new_board_to_the_same_players() -> None:
    race, clock = racing(players=2)
    race.reveal(0, 4, 4)
    race.toggle_flag(1, *hidden_safe(race)[0])
    with pytest.raises(LobbyRefusedError, match="once the race is over"):
        race.rematch(0, 99)
    for cell in hidden_safe(race):
        if race.state is RaceState.OVER:
            break
        race.reveal(1, *cell)
    with pytest.raises(LobbyRefusedError, match="only the host"):
        race.rematch(1, 99)
    finished = race.finished
    assert finished == (len(race.moves), len(race.events))
    race.rematch(0, 99)
    assert race.state is RaceState.LOBBY
    assert race.events[-1].kind is EventKind.REMATCH
    assert [(p.name, p.score, p.flags) for p in race.players] == [
        ("p0", 0, set()),
        ("p1", 0, set()),
    ]
    assert set("".join(race.view(0).to_strings())) == {"H"}
    race.join("p2")  # a new round's lobby is open again
    race.start(0)
    clock.now += 3
    race.reveal(2, 4, 4)
    assert race.finished == finished  # the new round is not over
    again = Race.replay(9, 9, 10, race.moves, seed=7, clock=clock, settings=race.settings)
    assert again.events == race.events
    assert again.view(None) == race.view(None)


def test_a_races_footprint_counts_its_boards_and_grows_with_its_log() -> None:
    race, _ = racing(players=2)
    shared = race.footprint
    assert shared >= Game(9, 9, 10).footprint
    race.reveal(0, 4, 4)
    opened = race.events[-1].cells
    assert race.footprint >= shared + len(opened) * 100  # the event's cells are counted
    duel = Race(9, 9, 10, seed=7, settings=RaceSettings(mode=RaceMode.DUEL, countdown=0))
    for name in ("a", "b", "c"):
        duel.join(name)
    duel.start(0)
    assert duel.footprint >= 3 * Game(9, 9, 10).footprint  # a board each


SMALL = "test-race-2x3"
"""A 2x3 board with one mine in its corner, so a race's every cell is known:

    * 1 0
    1 1 0
"""
register_rule(SMALL, lambda seed: FixedPlacer([(0, 0)]))


def small_race(settings: RaceSettings) -> Race:
    race = Race(2, 3, 1, seed=0, rule=SMALL, settings=settings)
    for name in ("p0", "p1", "p2"):
        race.join(name)
    race.start(0)
    return race


def test_a_chord_that_hits_a_mine_scores_only_the_safe_cells_it_opened() -> None:
    race = small_race(RaceSettings(countdown=0))
    race.reveal(0, 1, 1)  # a 1
    race.toggle_flag(0, 0, 2)  # a wrong flag: the chord opens the mine and the safe cells
    event = race.chord(0, 1, 1)
    assert event is not None
    assert event.kind is EventKind.MINE
    openers = "".join(race.openers(None))
    assert race.players[0].score == openers.count("0") == 5
    assert race.state is RaceState.OVER


def test_a_freeze_penalty_never_takes_a_score_below_zero() -> None:
    race = small_race(RaceSettings(countdown=0, on_mine=OnMine.FREEZE, freeze_penalty=10))
    race.reveal(0, 1, 1)
    race.reveal(1, 0, 0)  # player 1 has no points yet
    assert [p.score for p in race.players] == [1, 0, 0]
    assert race.players[1].mines_hit == 1


def test_a_shown_mine_counts_as_marked_for_every_players_chord() -> None:
    race = small_race(RaceSettings(countdown=0))
    race.reveal(0, 1, 1)  # a 1, whose one mine is (0, 0)
    race.reveal(1, 0, 0)  # player 1 shows the mine (and is out)
    event = race.chord(2, 1, 1)  # player 2 has no flag: the shown mine is the 1's mine
    assert event is not None
    assert event.kind is EventKind.OPENED
    assert race.state is RaceState.OVER
    assert race.players[2].score == 4


def test_a_duel_opens_the_centre_for_everyone() -> None:
    race = Race(7, 11, 5, seed=3, settings=RaceSettings(mode=RaceMode.DUEL, countdown=0))
    race.join("a")
    race.join("b")
    race.start(0)
    assert str(race._shared.record().moves[0].move) == "O3,5"  # (rows // 2, cols // 2)
    assert race.openers(0)[3][5] == "*"


def test_refusals_name_the_move_and_the_lobby_shows_no_opener() -> None:
    race = Race(9, 9, 10, seed=1)
    race.join("a")
    race.join("b")
    assert race.openers(None) == ["." * 9] * 9
    for verb, move in (("reveal", race.reveal), ("flag", race.toggle_flag), ("chord", race.chord)):
        with pytest.raises(IllegalMoveError, match=f"^cannot {verb}: the race has not started$"):
            move(0, 4, 4)
    clock_free = Race(9, 9, 10, seed=1, settings=RaceSettings(countdown=0))
    for name in ("a", "b"):
        clock_free.join(name)
    clock_free.start(0)
    clock_free.reveal(0, 4, 4)
    with pytest.raises(IllegalMoveError, match=r"^cannot flag \(4, 4\): it is not hidden$"):
        clock_free.toggle_flag(1, 4, 4)
    hidden = hidden_safe(clock_free)[0]
    assert clock_free.toggle_flag(1, *hidden) is True
    assert clock_free.moves[-1].action is RaceAction.FLAG


def test_a_rematch_says_why_it_is_refused_and_starts_a_clean_lobby() -> None:
    race, _ = racing(players=2)
    with pytest.raises(LobbyRefusedError, match=r"^a rematch starts once the race is over$"):
        race.rematch(0, 99)
    race.reveal(0, 4, 4)
    for cell in hidden_safe(race):
        if race.state is RaceState.OVER:
            break
        race.reveal(1, *cell)
    with pytest.raises(
        LobbyRefusedError, match=r"^only the host \(who created the room\) asks for a rematch$"
    ):
        race.rematch(1, 99)
    race.rematch(0, 99)
    assert race.seed == 99
    assert race.starts_at == 0.0  # no start time until the host starts the new round
    assert [p.id for p in race.players] == [0, 1]
    assert race.events[-1].player == 0
    assert race.footprint > 0  # the new lobby has no boards yet, and counts none


def test_a_replay_keeps_the_rule_and_goes_on_on_the_real_clock() -> None:
    race = small_race(RaceSettings(countdown=0))
    race.reveal(0, 1, 1)
    again = Race.replay(2, 3, 1, race.moves, seed=0, rule=SMALL, settings=race.settings)
    assert again.rule == SMALL
    assert again.events == race.events
    assert again.reveal(1, 1, 2) is not None  # after the log, moves are timed by the real clock


def test_a_players_own_flag_keeps_their_reveal_off_and_a_second_toggle_lifts_it() -> None:
    race = small_race(RaceSettings(countdown=0))
    assert race.toggle_flag(0, 1, 2) is True
    assert race.reveal(0, 1, 2) is None  # their own flag: nothing opens
    assert race.view(0)[1, 2] is Cell.FLAG
    assert race.toggle_flag(0, 1, 2) is False
    assert race.reveal(0, 1, 2) is not None


def test_a_view_during_the_race_counts_shown_mines_as_found() -> None:
    race = small_race(RaceSettings(countdown=0, on_mine=OnMine.FREEZE))
    lobby = Race(2, 3, 1, seed=0, rule=SMALL)
    assert lobby.view(None).mines_left == 1
    race.reveal(0, 1, 1)
    view = race.view(0)
    assert (view.rows, view.cols, view.status, view.mines_left) == (
        2,
        3,
        GameStatus.IN_PROGRESS,
        1,
    )
    race.reveal(1, 0, 0)  # the one mine is shown to everyone
    assert race.view(2).mines_left == 0
    assert race.view(None).mines_left == 0
    race.toggle_flag(2, 0, 2)
    assert race.view(2).mines_left == -1  # a flag counts as a mine found, as in a game


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ({"max_players": 1}, "a room holds 2 to 8 players, got 1"),
        ({"freeze_seconds": 0}, "freeze_seconds must be above 0 and at most 60, got 0"),
        ({"freeze_seconds": 60.5}, "freeze_seconds must be above 0 and at most 60, got 60.5"),
        ({"freeze_penalty": -1}, "freeze_penalty must be from 0 to 1000, got -1"),
        ({"freeze_penalty": 1001}, "freeze_penalty must be from 0 to 1000, got 1001"),
        ({"countdown": -1}, "countdown must be from 0 to 30 seconds, got -1"),
        ({"countdown": 30.5}, "countdown must be from 0 to 30 seconds, got 30.5"),
    ],
)
def test_settings_out_of_range_are_refused_with_the_range(
    settings: dict[str, float], says: str
) -> None:
    with pytest.raises(InvalidSettingsError) as refused:
        RaceSettings(**settings)  # type: ignore[arg-type]
    assert str(refused.value) == says


def test_settings_at_the_edges_of_their_ranges_are_allowed() -> None:
    for edges in (
        {"max_players": 2, "freeze_seconds": 0.5, "freeze_penalty": 0, "countdown": 0},
        {"max_players": 8, "freeze_seconds": 60, "freeze_penalty": 1000, "countdown": 30},
    ):
        RaceSettings(**edges)


def test_the_log_and_the_events_say_who_did_what_in_order() -> None:
    clock = FakeClock()
    settings = RaceSettings(countdown=1, on_mine=OnMine.FREEZE, freeze_seconds=5, freeze_penalty=1)
    race = Race(2, 3, 1, seed=0, rule=SMALL, settings=settings, clock=clock)
    assert (race.starts_at, race.finished, race.progress()) == (0.0, (0, 0), ())
    assert race.footprint > 0  # the lobby has no boards to count
    race.join("a")
    race.join("b")
    assert race.progress() == (0.0, 0.0)
    clock.now = 2.0
    race.start(0)
    clock.now = 2.5
    with pytest.raises(IllegalMoveError, match=r"^cannot reveal: the race starts in 0\.5 s$"):
        race.reveal(0, 1, 1)
    clock.now = 4.0
    race.reveal(1, 1, 1)  # a 1: one safe cell of five
    clock.now = 6.0
    race.reveal(0, 0, 0)  # the mine: player 0 is frozen until 6 + 5
    clock.now = 11.5
    race.reveal(0, 0, 2)  # the zero opens three cells
    clock.now = 12.0
    race.reveal(1, 1, 0)  # the last one ends the race
    assert race.moves[:3] == [
        RaceMove(RaceAction.JOIN, 0, 0.0, name="a"),
        RaceMove(RaceAction.JOIN, 1, 0.0, name="b"),
        RaceMove(RaceAction.START, 0, 2.0),
    ]
    assert race.moves[3:] == [
        RaceMove(RaceAction.OPEN, 1, 4.0, 1, 1),
        RaceMove(RaceAction.OPEN, 0, 6.0, 0, 0),
        RaceMove(RaceAction.OPEN, 0, 11.5, 0, 2),
        RaceMove(RaceAction.OPEN, 1, 12.0, 1, 0),
    ]
    kinds = [(e.seq, e.kind, e.player) for e in race.events]
    assert kinds == [
        (1, EventKind.JOINED, 0),
        (2, EventKind.JOINED, 1),
        (3, EventKind.STARTED, 0),
        (4, EventKind.OPENED, 1),
        (5, EventKind.MINE, 0),
        (6, EventKind.OPENED, 0),
        (7, EventKind.OPENED, 1),
        (8, EventKind.OVER, 0),
    ]
    assert [e.progress for e in race.events[3:5]] == [(0.2, 0.2), (0.2, 0.2)]
    assert race.events[-1].progress == (1.0, 1.0)
    assert race.events[-1].scores == (3, 2)
    assert (race.players[0].reached_at, race.players[1].reached_at) == (6, 7)
    assert race.players[0].mines_hit == 1
    assert race.players[0].frozen_until == 11.0
    assert race.finished == (len(race.moves), len(race.events))


def test_hits_add_up_and_a_freeze_runs_from_the_move_that_hit() -> None:
    clock = FakeClock()
    settings = RaceSettings(countdown=0, on_mine=OnMine.FREEZE, freeze_seconds=1, freeze_penalty=0)
    two_mines = "test-race-2x3-two-mines"
    register_rule(two_mines, lambda seed: FixedPlacer([(0, 0), (0, 2)]))
    race = Race(2, 3, 2, seed=0, rule=two_mines, settings=settings, clock=clock)
    race.join("a")
    race.join("b")
    race.start(0)
    race.reveal(1, 1, 1)  # the first reveal places the mines
    clock.now = 1.0
    race.reveal(0, 0, 0)
    assert race.players[0].reached_at == race.events[-1].seq  # a penalty changes the score
    clock.now = 5.0
    race.reveal(0, 0, 2)  # the other mine
    assert race.players[0].mines_hit == 2
    assert race.players[0].frozen_until == 6.0


def test_moves_of_no_player_or_off_the_board_are_refused_saying_why() -> None:
    race = small_race(RaceSettings(countdown=0))
    with pytest.raises(IllegalMoveError, match=r"^no player 3 in this room$"):
        race.reveal(3, 0, 0)
    with pytest.raises(IllegalMoveError, match=r"^cannot chord \(2, 0\): outside the board"):
        race.chord(0, 2, 0)


def test_the_lobbys_refusals_say_exactly_why() -> None:
    with pytest.raises(InvalidBoardError) as refused:
        Race(9, 9, 10, seed=1, rule="any")
    assert str(refused.value) == (
        "a race needs a safe first click: use the rule 'opening', 'safe' or 'noguess'"
    )
    race = Race(9, 9, 10, seed=1)
    race.join("a")
    race.join("b")
    with pytest.raises(LobbyRefusedError) as lobby:
        race.start(1)
    assert str(lobby.value) == "only the host (who created the room) starts the race"
    race.start(0)
    with pytest.raises(JoinRefusedError) as join:
        race.join("c")
    assert str(join.value) == "the race has started; you can watch it"


def test_a_duel_watcher_sees_the_rooms_opening_opened_by_the_room() -> None:
    race, _ = racing(players=2, settings=RaceSettings(mode=RaceMode.DUEL))
    view = race.view(None)
    opened = {(r, c) for r, c, cell in view.cells() if cell is not Cell.HIDDEN}
    assert opened  # the centre's opening
    openers = race.openers(None)
    assert {(r, c) for r in range(9) for c in range(9) if openers[r][c] != "."} == opened
    assert set("".join(openers)) == {"*", "."}
    assert openers == race.openers(0) == race.openers(1)  # as the players saw it at the start
    race.reveal(0, *hidden_safe(race, 0)[0])
    assert race.openers(None) == openers == race.openers(1)  # the players' boards stay private
    assert "0" in "".join(race.openers(0))  # and each player sees their own


def test_a_duels_footprint_counts_the_rooms_opening() -> None:
    from mines.race import CELL_BYTES, EVENT_BYTES, MOVE_BYTES, ROOM_BYTES

    race, _ = racing(
        players=2, rows=40, cols=50, mines=100, settings=RaceSettings(mode=RaceMode.DUEL)
    )
    games = {id(race._shared): race._shared} | {id(b.game): b.game for b in race._boards}
    known = ROOM_BYTES + sum(game.footprint for game in games.values())
    known += MOVE_BYTES * len(race.moves) + EVENT_BYTES * len(race.events)
    known += CELL_BYTES * sum(len(event.cells) for event in race.events)
    # Who opened each cell: one byte a cell for each player's board and for the room's opening.
    assert race.footprint - known == 3 * 40 * 50


def test_a_players_view_says_whether_they_won_and_a_watchers_how_the_race_ended() -> None:
    cleared, _ = racing(players=2)
    cleared.reveal(0, 4, 4)
    for cell in hidden_safe(cleared):
        if cleared.state is RaceState.OVER:
            break
        cleared.reveal(1, *cell)
    winner = cleared.winner
    assert winner is not None
    assert cleared.view(None).status is GameStatus.WON  # every safe cell is open
    assert cleared.view(winner).status is GameStatus.WON
    assert cleared.view(1 - winner).status is GameStatus.LOST
    out, _ = racing(players=2)
    out.reveal(0, 4, 4)
    mines = sorted(layout_of(out))
    out.reveal(1, *mines[0])
    out.reveal(0, *mines[1])
    assert out.state is RaceState.OVER
    assert out.winner == 0  # the only score
    assert out.view(None).status is GameStatus.LOST  # safe cells are left: nobody cleared
    assert out.view(0).status is GameStatus.WON  # the winner won, cells left or not
    assert out.view(1).status is GameStatus.LOST
    assert racing(players=2)[0].view(None).status is GameStatus.IN_PROGRESS


def test_a_score_is_the_cells_opened_less_each_penalty_taken_at_once() -> None:
    settings = RaceSettings(on_mine=OnMine.FREEZE, freeze_seconds=1, freeze_penalty=3)
    race, clock = racing(players=2, settings=settings)
    race.reveal(0, 4, 4)
    opened = "".join(race.openers(None)).count("0")
    assert opened > 3
    race.reveal(0, *sorted(layout_of(race))[0])
    assert race.players[0].score == opened - 3
    clock.now += 1
    race.reveal(0, *hidden_safe(race)[0])
    now_open = "".join(race.openers(None)).count("0")
    assert now_open > opened
    assert race.players[0].score == now_open - 3  # cells opened after the penalty count in full
    safe_open = sum(line.count("0") + line.count("1") for line in race.openers(None))
    assert sum(p.score for p in race.players) == safe_open - 3


def test_a_player_who_is_out_keeps_their_score_and_the_scores_add_up_to_the_cells_open() -> None:
    race, _ = racing(players=3)
    race.reveal(0, 4, 4)
    race.reveal(1, *hidden_safe(race)[0])
    before = race.players[1].score
    assert before > 0
    race.reveal(1, *sorted(layout_of(race))[0])
    assert race.players[1].out
    assert race.players[1].score == before  # the mine takes nothing away, and scores nothing
    openers = "".join(race.openers(None))
    assert [p.score for p in race.players] == [openers.count(str(i)) for i in range(3)]


def test_equal_scores_go_to_the_one_set_first_then_to_the_lowest_id() -> None:
    settings = RaceSettings(on_mine=OnMine.FREEZE, freeze_penalty=1000)
    race, _ = racing(players=3, settings=settings)
    race.reveal(0, 4, 4)
    race.reveal(0, *sorted(layout_of(race))[0])  # the penalty takes it all: 0, set just now
    assert [p.score for p in race.players] == [0, 0, 0]
    assert race.players[0].reached_at > 0
    assert race.winner == 1  # players 1 and 2 were at 0 from the start; 1 has the lower id
    duel, _ = racing(players=2, settings=RaceSettings(mode=RaceMode.DUEL))
    mines = sorted(duel._boards[0].mines())
    duel.reveal(0, *mines[0])
    duel.reveal(1, *mines[1])  # everyone out, neither scored: the lowest id
    assert duel.state is RaceState.OVER
    assert duel.winner == 0


def test_moves_that_change_nothing_are_not_logged_and_make_no_event() -> None:
    race, _ = racing(players=2)
    race.reveal(0, 4, 4)
    hidden = hidden_safe(race)[0]
    assert race.toggle_flag(1, *hidden) is True
    number = next(
        (r, c)
        for r, c, cell in race.view(0).cells()
        if cell.number and any(race.view(0)[n] is Cell.HIDDEN for n in neighbours(r, c))
    )
    moves, events = len(race.moves), len(race.events)
    assert race.reveal(1, 4, 4) is None  # an open cell
    assert race.reveal(1, *hidden) is None  # the player's own flag
    assert race.chord(1, *hidden) is None  # not a number
    assert race.chord(0, *number) is None  # no flags around it
    assert race.chord(0, 4, 4) is None  # nothing hidden around it
    assert (len(race.moves), len(race.events)) == (moves, events)


def test_a_cell_off_the_board_is_an_off_board_error() -> None:
    race, _ = racing(players=2)
    for verb, move in (("reveal", race.reveal), ("flag", race.toggle_flag), ("chord", race.chord)):
        with pytest.raises(OffBoardError, match=rf"^cannot {verb} \(9, 0\): outside the board"):
            move(0, 9, 0)
    assert issubclass(OffBoardError, IllegalMoveError)


def test_set_flag_sets_a_players_state_and_asking_twice_changes_nothing() -> None:
    race, _ = racing()
    race.reveal(0, 4, 4)
    hidden = next((r, c) for r, c, cell in race.view(1).cells() if cell is Cell.HIDDEN)
    logged = len(race.moves)
    assert race.set_flag(1, *hidden, True) is True
    assert race.set_flag(1, *hidden, True) is False
    assert race.view(1)[hidden] is Cell.FLAG
    assert race.set_flag(1, *hidden, False) is True
    assert race.set_flag(1, *hidden, False) is False
    assert race.view(1)[hidden] is Cell.HIDDEN
    assert len(race.moves) == logged + 2  # the repeats logged nothing


def test_a_lost_race_shows_wrong_flags_as_a_lost_game_does() -> None:
    race, _ = racing(players=2, settings=RaceSettings(mode=RaceMode.DUEL))
    mines = layout_of(race)
    safe = hidden_safe(race, 1)[0]
    mine = next(iter(mines))
    race.toggle_flag(1, *safe)
    race.toggle_flag(1, *mine)
    for cell in hidden_safe(race):
        if race.state is RaceState.OVER:
            break
        race.reveal(0, *cell)
    assert race.state is RaceState.OVER
    assert race.winner == 0
    lost = race.view(1)
    assert lost.status is GameStatus.LOST
    assert lost[safe] is Cell.WRONG_FLAG  # painted by hand, a wrong flag showed as a flag
    assert lost[mine] is Cell.FLAG
    assert lost.mines_left == race.mines - 2
