"""The HTTP and WebSocket API: a router per resource, its models and its dependencies."""
