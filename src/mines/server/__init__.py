"""`mines serve`: the game server over HTTP and WebSocket, and its browser client."""
