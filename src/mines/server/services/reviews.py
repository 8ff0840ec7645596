"""Finished games' reviews by the exact solver: refused before any work when too big, worked out
in a worker process, one computation per game however many ask at once, kept in storage."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from starlette.concurrency import run_in_threadpool

from mines.errors import GameInProgressError, MinesError
from mines.record import GameRecord
from mines.server.common.errors import GameNotFoundError, WorkerDiedError
from mines.server.common.settings import REVIEW_BUDGET, REVIEW_MEMORY, REVIEW_WORKERS, Settings
from mines.server.db.storage import StorageError
from mines.server.services.games import GameService
from mines.server.services.workers import JobStoppedError, Stopped, Workers
from mines.solver.game_review import ReviewTooLargeError, check_size, review
from mines.status import GameStatus

log = logging.getLogger(__name__)

REVIEW_FORMAT = 3
"""The version of the review's JSON (`Review.to_json`): a stored review in another format is
worked out again. Raise it whenever that JSON or the verdicts change (2: `final_mines_left`;
3: each move's `label`, the game's `figures` and `survived`, the losing move counted as any
other, issue 46; and the figures of `mines.scoring`, efficiency in percent, wasted clicks
counted, issue 42)."""
DIED_RETRY_AFTER = 5
"""Seconds a client is asked to wait after a review's worker died (it may have been killed)."""

Job = Callable[[Settings, str], bytes]


def review_in_worker(settings: Settings, game_id: str) -> bytes:
    """In a worker: a finished game's review as JSON, from storage, by a game service of its
    own (the record is built here too: a big one is a tuple per mine)."""
    from mines.server.db.database import open_storage

    games = GameService(open_storage(settings.database), settings)
    try:
        record = GameRecord.from_dict(games.record(game_id))
        row = games.storage.load(game_id)
    finally:
        games.close()
    # The wasted clicks were counted, not stored: the review's figures are the summary's.
    return review(record, unrecorded=row.wasted if row else 0).to_json().encode()


class ReviewService:
    """`GET /api/games/{id}/review` free of HTTP: checks, the stored review, or one computation
    per game shared by every request that asks for it meanwhile."""

    def __init__(
        self,
        games: GameService,
        *,
        workers: int = REVIEW_WORKERS,
        budget: float = REVIEW_BUDGET,
        memory: int = REVIEW_MEMORY,
        job: Job = review_in_worker,
    ):
        self.games = games
        self.budget = budget
        self.memory = memory
        self._job = job
        self._workers = Workers(workers, memory=memory, name="mines-review", preload=(__name__,))
        # More threads than worker slots: a job past the slots is refused (503) at once
        # rather than queued behind the running ones.
        self._threads = ThreadPoolExecutor(workers + 2, thread_name_prefix="mines-review")
        self._lock = threading.Lock()
        self._flights: dict[str, Future[bytes]] = {}

    async def review(self, game_id: str) -> bytes:
        """The review's JSON: refused (404, 409, 422) before any work, else the stored one,
        else the one being worked out for this game, else a new computation."""
        stored = await run_in_threadpool(self.stored, game_id)
        if stored is not None:
            return stored
        flight = self._flight(game_id)
        # Shielded: a client that goes away leaves the computation to the others (and to
        # storage); wrapped, a concurrent future serves requests on any event loop.
        return await asyncio.shield(asyncio.wrap_future(flight))

    def prepare(self, game_id: str) -> None:
        """A game just ended: work its review out in the background, so that the first request
        finds it stored or under way. Only while a worker is left for requests (with one
        worker: when it is idle); never raises, and refusals are the request's to say."""
        if self._workers.busy >= max(1, self._workers.slots - 1):
            return
        self._threads.submit(self._prepare, game_id)

    def _prepare(self, game_id: str) -> None:
        try:
            if self.stored(game_id) is not None:
                return
        except (MinesError, StorageError):  # unknown, too big, or storage away: nothing to do
            return
        # Nobody waits on it: its answer is stored, its error is the next request's to meet.
        self._flight(game_id)

    def stored(self, game_id: str) -> bytes | None:
        """Refuse a game that is unknown, in progress or too big, before any work; then its
        stored review in the current format, if any."""
        row = self.games.storage.load(game_id)
        if row is None:
            raise GameNotFoundError.of(game_id)
        if not GameStatus(row.status).is_over:
            raise GameInProgressError(
                "a game is reviewed once it is over; this game is in progress (finish it first)"
            )
        check_size(row.rows, row.cols, row.version)
        return self._kept(game_id)

    def _kept(self, game_id: str) -> bytes | None:
        """The stored review in the current format, if any; a stored refusal is raised."""
        found = self.games.storage.load_review(game_id, REVIEW_FORMAT)
        if found is None:
            return None
        if found.refused:
            raise ReviewTooLargeError(found.body)
        return found.body.encode()

    def _flight(self, game_id: str) -> Future[bytes]:
        """The computation of this game's review: the one running, or a new one."""
        with self._lock:
            flight = self._flights.get(game_id)
            if flight is None:
                flight = self._threads.submit(self._compute, game_id)
                self._flights[game_id] = flight
        flight.add_done_callback(lambda done: self._land(game_id, done))
        return flight

    def _land(self, game_id: str, flight: Future[bytes]) -> None:
        with self._lock:
            if self._flights.get(game_id) is flight:
                del self._flights[game_id]

    def _compute(self, game_id: str) -> bytes:
        # Another flight may have stored it between this request's look and now.
        body = self._kept(game_id)
        if body is not None:
            return body
        try:
            answer: bytes = self._workers.run(
                self._job,
                (self.games.settings, game_id),
                budget=self.budget,
                busy="this server is reviewing other games; try again shortly",
            )
        except ReviewTooLargeError as refused:
            # The solver's own refusal (a position too tangled to count) is the same every
            # time: kept, so that asking again costs a read, not seconds of a worker.
            self._keep(game_id, str(refused), refused=True)
            raise
        except JobStoppedError as stopped:
            if stopped.why is Stopped.DIED:
                raise WorkerDiedError(
                    "the review's worker process stopped without an answer; try again",
                    retry_after=DIED_RETRY_AFTER,
                ) from None
            limit = f"{self.budget:g} s"
            if stopped.why is Stopped.MEMORY:
                limit = f"{self.memory // 2**20:,} MiB"
            raise ReviewTooLargeError(
                f"this game's review takes more than a review may use here ({limit}); "
                "it cannot be served"
            ) from None
        self._keep(game_id, answer.decode())
        return answer

    def _keep(self, game_id: str, body: str, *, refused: bool = False) -> None:
        try:
            self.games.storage.store_review(game_id, REVIEW_FORMAT, body, refused=refused)
        except StorageError as error:
            # The answer is right; it is only not kept, and the next request works it out again.
            log.warning("a review of game %s was not stored: %s", game_id, error)

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
