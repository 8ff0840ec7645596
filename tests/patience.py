"""`PATIENCE`: how long any test waits for something slow before it calls it hung."""

PATIENCE = 300.0
"""Seconds a test waits for a child process to start, answer or end, for a page to show
something, or for a stand-in it holds up, before it calls it hung. A guard against a hang, not
a speed target: with two suites and other work on two cores a server has taken over 30 s to
start, and a request over httpx's default 5 s to be answered."""
