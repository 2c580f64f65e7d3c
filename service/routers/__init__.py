"""One router per game system; ``SYSTEMS`` is the list the app mounts, in this order."""

from fastapi import APIRouter

from service.routers import dice, dnd5e, dos, dragon, odds, riders

SYSTEMS: list[APIRouter] = [
    dos.router,
    dragon.router,
    riders.router,
    dnd5e.router,
    *odds.ROUTERS,
    dice.router,
]
