"""`MineNet`: a fully convolutional net that predicts each hidden cell's chance of a mine, and
`NetPlayer`, the policy that opens the cell it finds safest; weights saved with provenance."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mines.extras import require_extra

require_extra("rl", "mines.gym.mine_net")

# Only once torch is known to be there: without it, the line above names the extra.
import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

from mines.gym.encoding import FLAG, HIDDEN, Mask, Observation  # noqa: E402
from mines.gym.policy import WEIGHTS  # noqa: E402
from mines.gym.wrappers import CODES, planes  # noqa: E402
from mines.solver.bot import opening_click  # noqa: E402

SHIPPED = WEIGHTS / "mine-net.pt"
"""The shipped weights of the imitation policy (`load_net()` with no path)."""
FORMAT = 1
"""The layout of a weights file's dictionary; `load_net` refuses others."""
INPUTS = CODES.size + 2
"""One plane per observation code, a plane of ones (zero padding then reads as "off the
board") and a plane holding the density of mines among the unopened cells."""
CHUNK = 1024
"""Boards per forward pass when playing, so that a big evaluation needs little memory."""
DESIGNS = {
    "plain": (1,),
    "dilated": (1, 2, 4),
}
"""Each design's dilations, repeated over the body's layers: "plain" sees 2 * layers + 1
cells across; "dilated" far wider for the same weights."""

Provenance = dict[str, Any]
"""What a weights file says about itself: plain values only (`torch.load(weights_only=True)`)."""
REQUIRED = ("seed", "recipe", "commit", "examples", "updates", "evaluation")
"""The provenance every weights file must carry."""


def encode(observations: Observation, mines: int) -> torch.Tensor:
    """(n, rows, cols) observations of boards with `mines` mines -> (n, INPUTS, rows, cols)."""
    one_hot = planes(observations)
    unopened = np.count_nonzero((observations == HIDDEN) | (observations == FLAG), axis=(1, 2))
    density = (mines / np.maximum(unopened, 1)).astype(np.float32)
    extra = np.empty((len(observations), 2, *observations.shape[1:]), dtype=np.float32)
    extra[:, 0] = 1.0
    extra[:, 1] = density[:, None, None]
    return torch.from_numpy(np.concatenate([one_hot, extra], axis=1))


class MineNet(nn.Module):
    """Per cell, the logit of a mine: a stem and `layers - 1` residual 3x3 convolutions of
    `channels`, dilated by the design's pattern, and a 1x1 convolution to one logit per cell.
    Convolutions only, so one network reads any board size."""

    def __init__(self, *, channels: int = 24, layers: int = 6, design: str = "plain"):
        super().__init__()
        if design not in DESIGNS:
            raise ValueError(f"design must be one of {sorted(DESIGNS)}, got {design!r}")
        self.config = {"channels": channels, "layers": layers, "design": design}
        dilations = DESIGNS[design]
        self.stem = nn.Conv2d(INPUTS, channels, 3, padding=1)
        self.body = nn.ModuleList(
            nn.Conv2d(channels, channels, 3, padding=d, dilation=d)
            for d in (dilations[i % len(dilations)] for i in range(layers - 1))
        )
        self.head = nn.Conv2d(channels, 1, 1)

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        """(batch, INPUTS, rows, cols) -> (batch, rows, cols) mine logits."""
        features = torch.relu(self.stem(inputs))
        for conv in self.body:
            features = features + torch.relu(conv(features))
        logits: torch.Tensor = self.head(features).squeeze(1)
        return logits

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return super().__call__(*args, **kwargs)

    def probabilities(self, observations: Observation, mines: int) -> npt.NDArray[np.float32]:
        """(n, rows, cols): the predicted chance of a mine under every cell."""
        with torch.inference_mode():
            parts = [
                torch.sigmoid(self(encode(observations[i : i + CHUNK], mines)))
                for i in range(0, len(observations), CHUNK)
            ]
        result: npt.NDArray[np.float32] = torch.cat(parts).numpy()
        return result


class NetPlayer:
    """A batched policy (`mines.gym.Policy`) for boards with `mines` mines: it opens the
    allowed cell the net finds least likely a mine. It never calls the solver. A board with
    nothing open yet is opened where the Bot opens one (`mines.solver.bot.opening_click`,
    a fixed cell for the board's size and density, not a look at the board).

    With `reuse` (a probability), a board whose last prediction still has an allowed cell
    at most that likely a mine opens it without running the net again: opening a safe cell
    only adds to what is known, so the cells the net found safe stay as safe, and most moves
    of a big board need no new look. The player recognises a board of its last call by its
    view (boards only leave the batch, in order, as `evaluate` gives them).

    >>> from mines.gym import evaluate
    >>> player = NetPlayer(load_net(), mines=5)
    >>> evaluate(player, episodes=100, seed=3, rows=6, cols=6, mines=5).win_rate > 0.7
    True
    """

    def __init__(self, net: MineNet, mines: int, *, reuse: float = 0.0):
        self.net, self.mines, self.reuse = net, mines, reuse
        self._last: Observation | None = None
        self._risk: npt.NDArray[np.float32] | None = None
        self.looks = 0
        """Boards the net has looked at so far (one forward pass each)."""

    def _remembered(self, observations: Observation) -> npt.NDArray[np.intp]:
        """For each board, its row in the last call's batch, or -1."""
        found = np.full(len(observations), -1, dtype=np.intp)
        last = self._last
        if last is None or last.shape[1:] != observations.shape[1:] or not self.reuse:
            return found
        before = 0
        for board, now in enumerate(observations):
            while before < len(last):
                seen = last[before] >= 0
                before += 1
                if np.array_equal(now[seen], last[before - 1][seen]):
                    found[board] = before - 1
                    break
        return found

    def __call__(self, observations: Observation, masks: Mask) -> npt.NDArray[np.int64]:
        n, rows, cols = observations.shape
        actions = np.zeros(n, dtype=np.int64)
        allowed = masks[:, : rows * cols].astype(bool)
        started: npt.NDArray[np.bool_] = np.any((observations >= 0).reshape(n, -1), axis=1)
        fresh = ~started
        row, col = opening_click(rows, cols, self.mines)
        actions[fresh] = row * cols + col
        risk = np.ones((n, rows * cols), dtype=np.float32)
        remembered = self._remembered(observations)
        look = started.copy()
        if self._risk is not None and (remembered >= 0).any():
            known = np.flatnonzero(remembered >= 0)
            old = np.where(allowed[known], self._risk[remembered[known]], np.inf)
            sure = old.min(axis=1) <= self.reuse
            risk[known[sure]] = self._risk[remembered[known[sure]]]
            look[known[sure]] = False
        chosen = np.flatnonzero(look)
        if chosen.size:
            risk[chosen] = self.net.probabilities(observations[chosen], self.mines).reshape(
                chosen.size, -1
            )
            self.looks += chosen.size
        playing = np.flatnonzero(started)
        actions[playing] = np.where(allowed[playing], risk[playing], np.inf).argmin(axis=1)
        self._last, self._risk = observations.copy(), risk
        return actions


def save_net(net: MineNet, path: Path, provenance: Provenance) -> None:
    """Write the weights, the network's shape and its provenance (`REQUIRED` keys) to `path`."""
    missing = [key for key in REQUIRED if key not in provenance]
    if missing:
        raise ValueError(f"the provenance lacks {missing}; every weights file records {REQUIRED}")
    saved = {"format": FORMAT, "config": net.config, "state": net.state_dict()}
    torch.save({**saved, "provenance": provenance}, path)


def read_weights(path: Path | str | None = None) -> dict[str, Any]:
    """A weights file's whole dictionary, read safely (`weights_only=True`: tensors and plain
    values, no code), checked for its format and provenance."""
    path = SHIPPED if path is None else Path(path)
    saved: dict[str, Any] = torch.load(path, weights_only=True)
    if saved.get("format") != FORMAT:
        raise ValueError(f"{path} is not a MineNet weights file of format {FORMAT}")
    missing = [key for key in REQUIRED if key not in saved.get("provenance", {})]
    if missing:
        raise ValueError(f"{path} lacks the provenance {missing}")
    return saved


def load_net(path: Path | str | None = None) -> MineNet:
    """A trained `MineNet`: from `path`, or by default the shipped weights (`SHIPPED`)."""
    saved = read_weights(path)
    net = MineNet(**saved["config"])
    net.load_state_dict(saved["state"])
    net.eval()
    return net
