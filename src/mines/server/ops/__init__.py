"""Running a server: `mines serve`, `mines admin` and the environment's settings."""
