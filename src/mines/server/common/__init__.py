"""What every layer of the server shares: settings, errors, metrics, logs and game tokens."""
