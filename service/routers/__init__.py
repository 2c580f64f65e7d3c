"""One router per game system; ``SYSTEMS`` is the list the app mounts, in this order."""

from fastapi import APIRouter

from service.routers import dnd5e, dos

SYSTEMS: list[APIRouter] = [dos.router, dnd5e.router]
