"""`RaceEnv`: the core's `Race` as a PettingZoo `ParallelEnv`, players moving at once each step."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import ParallelEnv

from mines.errors import IllegalMoveError
from mines.gym.encoding import FLAG, HIDDEN, OBSERVED, Mask, Observation, action_count
from mines.gym.encoding import observation_space as board_space
from mines.params import check_board
from mines.placement import PlacementRule
from mines.race import OnMine, Race, RaceMode, RaceSettings, RaceState
from mines.status import GameStatus

AgentObservation = dict[str, npt.NDArray[np.int8]]

WIN_REWARD = 1.0
"""Added at the end of the race for its winner; the other players still in it get -1."""
OUT_REWARD = -1.0
"""For the move that puts a player out (a mine, when mines put players out)."""


class RaceEnv(ParallelEnv[str, AgentObservation, int]):  # type: ignore[misc]  # untyped
    """A race of `players` agents on one board (`mode="shared"`) or on copies of one layout
    (`"duel"`), by the rules of `mines.race.Race`: the highest score (cells opened) wins a
    shared race, the first to clear their board a duel; a mine puts a player out
    (`on_mine="out"`) or costs `freeze_penalty` points and freezes them for their next
    `freeze_steps` steps.

    Each agent observes what its player sees (the env's codes: its own flags, the mines
    others hit, all the mines once it is over) and, as PettingZoo's classic games do, the
    actions it may take: `{"observation": (rows, cols) int8, "action_mask": (actions,) int8}`;
    the mask is all zero while the player is frozen or out. Actions are the single env's
    (`row * cols + col` opens; with `flags=True`, flag actions after them); an action the
    race refuses changes nothing. All agents act at once; the race takes their moves in an
    order drawn each step from the env's seed. Reward: the score a step adds, as a share of
    the safe cells; +1 at the end for the winner and -1 for the others still racing; -1 for
    being put out. Truncated after `max_steps` steps (default: one per cell).

    >>> env = RaceEnv()  # Beginner's board, two players
    >>> observations, infos = env.reset(seed=1)
    >>> env.agents, observations["player_0"]["observation"].shape
    (['player_0', 'player_1'], (9, 9))
    >>> observations, rewards, terminated, truncated, infos = env.step(
    ...     {"player_0": 0, "player_1": 80}
    ... )
    >>> infos  # player_1 moved first: its flood opened the corner player_0 asked for
    {'player_0': {'score': 0}, 'player_1': {'score': 59}}
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "name": "mines_race_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": True,
    }

    def __init__(
        self,
        rows: int = 9,
        cols: int = 9,
        mines: int = 10,
        *,
        players: int = 2,
        mode: RaceMode | str = RaceMode.SHARED,
        on_mine: OnMine | str = OnMine.OUT,
        freeze_steps: int = 5,
        freeze_penalty: int = 10,
        first_click: str = PlacementRule.OPENING,
        flags: bool = False,
        max_steps: int | None = None,
        render_mode: str | None = None,
    ):
        self.rows, self.cols, self.mines = check_board(rows, cols, mines)
        if isinstance(freeze_steps, bool) or not isinstance(freeze_steps, int):
            raise ValueError(f"freeze_steps must be an integer, got {freeze_steps!r}")
        if not 1 <= freeze_steps <= 59:
            raise ValueError(f"freeze_steps must be from 1 to 59, got {freeze_steps}")
        self.settings = RaceSettings(
            mode=RaceMode(mode),
            on_mine=OnMine(on_mine),
            # The race's clock counts steps; a hit at step k freezes steps k+1 .. k+freeze_steps.
            freeze_seconds=freeze_steps + 0.5,
            freeze_penalty=freeze_penalty,
            countdown=0.0,
            max_players=players,
        )
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.first_click, self.flags = first_click, flags
        self.max_steps = rows * cols if max_steps is None else max_steps
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents: list[str] = []
        self._cells = rows * cols
        self._safe = rows * cols - mines
        self._actions = action_count(rows, cols, flags)
        self._np_random, _ = seeding.np_random(None)
        self._time = 0.0
        self._steps = 0
        self.race = self._new_race(0)

    @functools.cache  # noqa: B019  (the env lives as long as its spaces should)
    def observation_space(self, agent: str) -> spaces.Dict:
        mask = spaces.Box(0, 1, (self._actions,), np.int8)
        return spaces.Dict({"observation": board_space(self.rows, self.cols), "action_mask": mask})

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Discrete:
        return spaces.Discrete(self._actions)

    def _new_race(self, seed: int) -> Race:
        race = Race(
            self.rows,
            self.cols,
            self.mines,
            seed=seed,
            rule=self.first_click,
            settings=self.settings,
            clock=lambda: self._time,
        )
        for agent in self.possible_agents:
            race.join(agent)
        race.start(0)
        return race

    def _observe(self, player: int) -> AgentObservation:
        seen: Observation = OBSERVED[self.race.view(player).array]
        who = self.race.players[player]
        moving = self.race.state is RaceState.RACING and not who.out
        moving = moving and self._time >= who.frozen_until
        hidden = (seen == HIDDEN).reshape(-1) & moving
        mask: Mask = hidden.astype(np.int8)
        if self.flags:
            unopened = ((seen == HIDDEN) | (seen == FLAG)).reshape(-1) & moving
            mask = np.concatenate([hidden, unopened]).astype(np.int8)
        return {"observation": seen, "action_mask": mask}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, AgentObservation], dict[str, dict[str, Any]]]:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        self._time, self._steps = 0.0, 0
        self.race = self._new_race(int(self._np_random.integers(2**48)))
        self.agents = self.possible_agents[:]
        observations = {agent: self._observe(i) for i, agent in enumerate(self.agents)}
        return observations, {agent: {"score": 0} for agent in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, AgentObservation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        race = self.race
        before = [p.score for p in race.players]
        for agent in self._np_random.permutation(sorted(actions)).tolist():
            if agent not in self.agents:
                raise ValueError(f"{agent!r} is not racing now; the agents are {self.agents}")
            action = int(actions[agent])
            if not 0 <= action < self._actions:
                raise ValueError(f"an action must be from 0 to {self._actions - 1}, got {action}")
            flag, cell = divmod(action, self._cells)
            row, col = divmod(cell, self.cols)
            player = self.possible_agents.index(agent)
            try:
                if flag:
                    race.toggle_flag(player, row, col)
                else:
                    race.reveal(player, row, col)
            except IllegalMoveError:  # frozen, out, the race just ended, a flag on an open cell
                pass
        self._time += 1.0
        self._steps += 1
        over = race.state is RaceState.OVER
        rewards: dict[str, float] = {}
        terminated: dict[str, bool] = {}
        truncated: dict[str, bool] = {}
        infos: dict[str, dict[str, Any]] = {}
        for agent in self.agents:
            player = self.possible_agents.index(agent)
            who = race.players[player]
            reward = (who.score - before[player]) / self._safe if self._safe else 0.0
            put_out = who.out and self.settings.on_mine is OnMine.OUT
            if over:
                reward += WIN_REWARD if race.winner == player else -WIN_REWARD
            elif put_out:
                reward += OUT_REWARD
            rewards[agent] = float(reward)
            terminated[agent] = over or put_out
            truncated[agent] = not terminated[agent] and self._steps >= self.max_steps
            infos[agent] = {"score": who.score}
            if over:
                infos[agent]["winner"] = self.possible_agents[race.winner or 0]
        observations = {
            agent: self._observe(self.possible_agents.index(agent)) for agent in rewards
        }
        self.agents = [a for a in self.agents if not (terminated[a] or truncated[a])]
        return observations, rewards, terminated, truncated, infos

    def won(self, agent: str) -> bool:
        """Whether `agent` won the race (once it is over)."""
        view = self.race.view(self.possible_agents.index(agent))
        return view.status is GameStatus.WON

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        scores = ", ".join(f"{p.name} {p.score}" for p in self.race.players)
        return f"{self.race.view(None)}\n{self.race.state.value}: {scores}"

    def close(self) -> None:
        pass
