"""A TCP proxy a test controls, between a client and a server: cut it to drop the network,
stall it to make the server behind it hang."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress


class TcpProxy:
    """Forwards every connection to `127.0.0.1:target`; `cut()` drops the live ones and refuses
    new ones (as a network that went away), `stall()` accepts and holds every byte (as a server
    that hangs), `restore()` lets them through again. `accepted` counts connections."""

    def __init__(self, target: int):
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.open = True
        self.accepted = 0
        self._flowing = threading.Event()
        self._flowing.set()
        self._live: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def cut(self) -> None:
        with self._lock:
            self.open = False
            live, self._live = self._live, set()
        for sock in live:
            _close(sock)

    def stall(self) -> None:
        self._flowing.clear()

    def restore(self) -> None:
        with self._lock:
            self.open = True
        self._flowing.set()

    def close(self) -> None:
        self._closed = True
        self.cut()
        self._flowing.set()  # held pumps find their sockets closed and end
        _close(self.listener)

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.accepted += 1
            with self._lock:
                if not self.open:
                    _close(client)
                    continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                _close(client)
                continue
            with self._lock:
                self._live.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                self._flowing.wait()
                sink.sendall(data)
        except OSError:
            pass
        finally:
            _close(source)
            _close(sink)


def _close(sock: socket.socket) -> None:
    with suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


@contextmanager
def proxy_to(port: int) -> Iterator[TcpProxy]:
    proxy = TcpProxy(port)
    try:
        yield proxy
    finally:
        proxy.close()
