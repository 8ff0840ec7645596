"""The imitation policy: provenance in its weights, the one-command training, given layouts."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", reason="the rl extra is not installed")

import torch

from mines.errors import InvalidBoardError
from mines.game import Game
from mines.gym import MinesEnv, evaluate
from mines.gym.encoding import HIDDEN, OBSERVED
from mines.gym.labels import mine_probabilities
from mines.gym.mine_net import (
    REQUIRED,
    SHIPPED,
    MineNet,
    NetPlayer,
    load_net,
    read_weights,
    save_net,
)
from mines.gym.report import board_options
from mines.gym.train import main as train
from mines.placement import FixedPlacer
from mines.status import GameStatus


def test_the_shipped_weights_carry_their_provenance_and_load_safely() -> None:
    assert SHIPPED.stat().st_size < 1_000_000
    saved = torch.load(SHIPPED, weights_only=True)  # no pickled code: plain values only
    provenance = saved["provenance"]
    assert set(REQUIRED) <= set(provenance)
    assert len(provenance["commit"].split("+")[0]) == 40
    assert provenance["examples"] > 0
    assert provenance["updates"] > 0
    assert provenance["recipe"]["design"] == saved["config"]["design"]
    expert = provenance["evaluation"]["results"]["expert/opening"]
    assert expert["net"]["episodes"] == 2000
    assert "Bot" in expert
    assert load_net().config == saved["config"]


def test_weights_without_provenance_are_refused(tmp_path: Path) -> None:
    net = MineNet(channels=4, layers=2)
    with pytest.raises(ValueError, match="provenance lacks"):
        save_net(net, tmp_path / "n.pt", {"seed": 0})
    torch.save({"format": 1, "config": net.config, "state": net.state_dict()}, tmp_path / "m.pt")
    with pytest.raises(ValueError, match="lacks the provenance"):
        read_weights(tmp_path / "m.pt")


def test_the_reproduction_command_trains_resumes_and_evaluates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    options = ["--tiny", "--final-episodes", "0"]
    assert train([str(run), "--updates", "8", *options]) == 0
    first = read_weights(run / "mine-net.pt")["provenance"]
    assert first["updates"] >= 8
    assert first["seed"] == 0
    assert (run / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    final = ["--final-episodes", "6", "--final-boards", "6x6n5"]
    assert train([str(run), "--updates", "12", "--tiny", *final]) == 0
    out = capsys.readouterr().out
    assert f"resumed {run}" in out
    again = read_weights(run / "mine-net.pt")["provenance"]
    assert again["updates"] >= 12
    assert len(again["curve"]) > len(first["curve"])
    results = again["evaluation"]["results"]
    assert sorted(results) == ["6x6n5/any", "6x6n5/opening", "6x6n5/safe"]
    assert results["6x6n5/opening"]["net"]["episodes"] == 6


def play_by_hand(player: NetPlayer, layout: np.ndarray) -> tuple[bool, int]:
    """One `Game` on `layout`, the player shown one board at a time."""
    rows, cols = layout.shape
    game = Game(rows, cols, int(layout.sum()), placer=FixedPlacer(np.argwhere(layout)))
    steps = 0
    while game.status is GameStatus.IN_PROGRESS:
        observation = OBSERVED[game.view().array][None]
        mask = (observation == HIDDEN).reshape(1, -1).astype(np.int8)
        row, col = divmod(int(player(observation, mask)[0]), cols)
        game.reveal(row, col)
        steps += 1
    return game.status is GameStatus.WON, steps


def test_evaluation_on_given_layouts_equals_playing_them_by_hand() -> None:
    torch.manual_seed(3)
    player = NetPlayer(MineNet(channels=6, layers=3), mines=2)
    rng = np.random.default_rng(5)
    layouts = np.zeros((40, 6, 7), dtype=bool)
    for layout in layouts:
        layout.reshape(-1)[rng.choice(42, size=2, replace=False)] = True
    result = evaluate(player, layouts=layouts, seed=1)
    by_hand = [play_by_hand(player, layout) for layout in layouts]
    assert result.won.tolist() == [won for won, _ in by_hand]
    assert result.steps.tolist() == [steps for _, steps in by_hand]
    assert 0 < result.wins < 40  # both outcomes compared
    single = MinesEnv(rows=6, cols=7, mines=2)
    observation, _ = single.reset(options={"layout": np.argwhere(layouts[0]).tolist()})
    assert (observation == HIDDEN).all()


def test_given_layouts_are_checked() -> None:
    player = NetPlayer(MineNet(channels=4, layers=2), mines=2)
    with pytest.raises(ValueError, match="hold the board's 2 mines"):
        evaluate(player, layouts=np.eye(3, dtype=bool)[None].repeat(2, axis=0), mines=2)
    with pytest.raises(ValueError, match="boolean array"):
        evaluate(player, layouts=np.zeros((2, 3, 3), dtype=int), mines=0)
    with pytest.raises(ValueError, match="5 layouts given but episodes=4"):
        evaluate(player, layouts=np.zeros((5, 3, 3), dtype=bool), episodes=4)


def test_a_player_that_reuses_its_looks_looks_less_and_plays_legal_moves() -> None:
    net = load_net()
    fresh = NetPlayer(net, mines=10)
    reusing = NetPlayer(net, mines=10, reuse=0.01)
    plain = evaluate(fresh, episodes=100, seed=4, preset="beginner")
    quick = evaluate(reusing, episodes=100, seed=4, preset="beginner")
    assert reusing.looks < fresh.looks / 2
    assert abs(quick.win_rate - plain.win_rate) <= 0.05


def test_labels_are_the_exact_probabilities() -> None:
    # A 1 in the corner of a 2x3 board: one of its three hidden neighbours is the mine; the
    # two cells beyond share the other mine of two.
    observation = np.array([[1, -1, -1], [-1, -1, -1]], dtype=np.int8)
    labels = mine_probabilities(observation, 2)
    assert labels[0, 0] == -1.0
    assert np.isclose(labels.sum() + 1, 2)  # the expected number of mines is 2
    assert np.allclose(labels[[0, 1, 1], [1, 0, 1]], labels[0, 1])


def test_the_report_reads_presets_and_sizes() -> None:
    assert board_options("expert") == {"rows": 16, "cols": 30, "mines": 99}
    assert board_options("6x7n5") == {"rows": 6, "cols": 7, "mines": 5}
    with pytest.raises(InvalidBoardError, match="expected ROWSxCOLSnMINES"):
        board_options("6x7")
