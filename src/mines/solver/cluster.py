"""Long runs on Dask: blocks of seeds spread over a local cluster or a scheduler's workers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any, TypeVar

from mines.errors import MinesError

LOCAL = "local"
"""The `cluster` that starts a Dask LocalCluster on this machine for the run."""
CONNECT_SECONDS = 30
"""How long to wait for a scheduler at an address before saying it cannot be reached."""

Result = TypeVar("Result")


class ClusterError(MinesError):
    """Dask is not installed, or its scheduler cannot be reached."""


def on_cluster(
    cluster: str,
    workers: int,
    play: Callable[..., Result],
    blocks: list[range],
    *args: Any,
) -> Iterator[tuple[range, Result]]:
    """`play(*args, seeds)` for every block of seeds on Dask workers, yielded as each ends.

    `cluster` is "local" (a LocalCluster of `workers` processes of one thread each, for
    this run only) or a scheduler's address such as tcp://10.0.0.1:8786, whose workers
    must have this version of mines installed. Each block is one task and a block's
    result depends only on its seeds, so the results are the same however they are spread;
    what the caller keeps of each (a results file) makes a stopped run resumable.
    """
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise ClusterError(
            "runs on a cluster need Dask: pip install 'mines[cluster]' (dask[distributed])"
        ) from None
    with ExitStack() as stack:
        if cluster == LOCAL:
            # Processes, one thread each: the games hold the GIL between compiled calls.
            # Dask's constructors are not annotated: hence the ignores below.
            local = stack.enter_context(
                LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                )
            )
            client = stack.enter_context(Client(local))  # type: ignore[no-untyped-call]
        else:
            try:
                client = stack.enter_context(
                    Client(cluster, timeout=CONNECT_SECONDS)  # type: ignore[no-untyped-call]
                )
            except (OSError, ValueError, TypeError) as error:
                raise ClusterError(
                    f"cannot reach a Dask scheduler at {cluster!r} ({error}); give its "
                    f"address, such as tcp://10.0.0.1:8786, or {LOCAL!r} for a local cluster"
                ) from None
        # pure=False: a block is played once per run, never taken from another run's cache.
        futures = {client.submit(play, *args, seeds, pure=False): seeds for seeds in blocks}
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            yield futures[future], future.result()
