"""A bomberman bot that answers WAIT to every state until OVER."""
from bomberman_bot import say, states

for _ in states():
    say("WAIT")
