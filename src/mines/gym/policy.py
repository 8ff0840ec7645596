"""`ConvPolicy`: a fully convolutional masked actor-critic for any board size, and its weights."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mines.extras import require_extra

require_extra("rl", "mines.gym.policy")

# Only once torch is known to be there: without it, the line above names the extra.
import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

from mines.gym.encoding import Mask, Observation  # noqa: E402
from mines.gym.wrappers import CODES, planes  # noqa: E402

WEIGHTS = Path(__file__).with_name("weights")
"""Where the shipped weights are: one `.pt` file per trained policy."""

CHUNK = 4096
"""Boards per forward pass when acting, so that a big evaluation needs little memory."""
_MASKED = -1e9
"""The logit of an action the mask forbids: its probability is 0 in float32."""


class ConvPolicy(nn.Module):
    """Logits for every action and a value, from convolutions only: one network, any board.

    The input is one plane per observation code (`mines.gym.wrappers.planes`) and a plane of
    ones, so the zero padding of the convolutions reads as "off the board". The body is
    `layers` 3x3 convolutions (each after the first with a residual connection); the actor
    is a 1x1 convolution giving one logit per cell (two with flags: open, then flag, the
    order of the env's actions); the critic averages the body's features over the board.
    """

    def __init__(self, *, channels: int = 32, layers: int = 4, flags: bool = False):
        super().__init__()
        self.config = {"channels": channels, "layers": layers, "flags": flags}
        self.stem = nn.Conv2d(CODES.size + 1, channels, 3, padding=1)
        self.body = nn.ModuleList(
            nn.Conv2d(channels, channels, 3, padding=1) for _ in range(layers - 1)
        )
        self.actor = nn.Conv2d(channels, 2 if flags else 1, 1)
        self.critic = nn.Linear(channels, 1)

    def forward(self, inputs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(batch, 12, rows, cols) planes -> (batch, actions) logits and (batch,) values."""
        ones = torch.ones_like(inputs[:, :1])
        features = torch.relu(self.stem(torch.cat([inputs, ones], dim=1)))
        for conv in self.body:
            features = features + torch.relu(conv(features))
        logits = self.actor(features).flatten(1)
        value = self.critic(features.mean(dim=(2, 3))).squeeze(1)
        return logits, value

    def masked(self, observations: Observation, masks: Mask) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits and values for a batch of raw observations and their masks."""
        logits, value = self(torch.from_numpy(planes(observations)))
        allowed = torch.from_numpy(masks.astype(bool))
        return logits.masked_fill(~allowed, _MASKED), value

    def act(self, observations: Observation, masks: Mask) -> npt.NDArray[np.int64]:
        """The likeliest allowed action on each board: the greedy policy `evaluate` plays.

        >>> from mines.gym import evaluate
        >>> policy = load()  # the shipped weights
        >>> result = evaluate(policy.act, episodes=100, seed=3, rows=6, cols=6, mines=5)
        >>> result.win_rate > 0.5
        True
        """
        with torch.no_grad():
            parts = range(0, len(observations), CHUNK)
            logits = torch.cat(
                [self.masked(observations[i : i + CHUNK], masks[i : i + CHUNK])[0] for i in parts]
            )
        actions: npt.NDArray[np.int64] = logits.argmax(dim=1).numpy().astype(np.int64)
        return actions

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return super().__call__(*args, **kwargs)


def save(policy: ConvPolicy, path: Path, **about: Any) -> None:
    """Write the weights and the shape of the network (and anything in `about`) to `path`."""
    torch.save({"config": policy.config, "state": policy.state_dict(), "about": about}, path)


def load(path: Path | str | None = None) -> ConvPolicy:
    """A trained `ConvPolicy`: from `path`, or by default the best shipped weights.

    The file holds tensors and plain values only, read with `weights_only=True`.
    """
    path = WEIGHTS / "conv.pt" if path is None else Path(path)
    saved = torch.load(path, weights_only=True)
    policy = ConvPolicy(**saved["config"])
    policy.load_state_dict(saved["state"])
    policy.eval()
    return policy
