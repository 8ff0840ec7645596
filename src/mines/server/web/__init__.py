"""HTTP plumbing every request passes: middleware, observation, rate limits, static files."""
